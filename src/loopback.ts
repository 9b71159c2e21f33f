// This machine's own names. Plain http is allowed only to them (the local stand-ins, the console's images),
// and the chat console answers only requests addressed to them.

const LOOPBACK_HOSTNAMES: ReadonlySet<string> = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** A URL's hostname (`new URL(...).hostname`): `127.0.0.1`, `localhost` or `[::1]`. */
export function isLoopbackHostname(hostname: string): boolean {
  return LOOPBACK_HOSTNAMES.has(hostname.toLowerCase());
}

/** An HTTP Host header: a loopback name, with or without a port. */
export function isLoopbackHostHeader(host: string): boolean {
  const match = /^(\[[^\]]*\]|[^:]*)(?::\d{1,5})?$/u.exec(host);
  return match !== null && isLoopbackHostname(match[1] ?? "");
}
