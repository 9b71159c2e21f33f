// A loopback port nothing listens on right now: the kernel's pick, given back at once. For a server a test
// starts by port number (redis-server, the bot's own process), or for a connection that must be refused.
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
