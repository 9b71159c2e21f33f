// The start-up look at Redis, from outside the process: a redis-server of the test's own set up as hosted
// plans often are (an eviction policy, no persistence, INFO and CONFIG forbidden to the bot's user), and
// REDIS_TLS_CA refused when it cannot be used.
// Platform: TLS to Redis with a CA file (REDIS_TLS_CA), the only TLS connection the bot opens itself.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { killLeftovers, startEntry } from "../kit/entry-process.js";
import { qrWebhook, sendSigned, startBot, startWorld, waitUntil, whenReady } from "../kit/loopback-world.js";
import { freePort } from "../kit/free-port.js";
import { startTestRedis } from "../kit/redis-server.js";
import type { TestRedisOptions } from "../kit/redis-server.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await killLeftovers();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function botOn(options: TestRedisOptions, url: (base: string) => string = (base) => base, prepare?: (admin: Redis) => Promise<unknown>): Promise<string> {
  const redis = await startTestRedis(options);
  cleanups.push(() => redis.stop());
  if (prepare !== undefined) {
    const admin = new Redis(redis.url);
    await prepare(admin);
    admin.disconnect();
  }
  const world = await startWorld(0);
  cleanups.push(() => world.close());
  const bot = await startBot(world, { REDIS_URL: url(redis.url) });
  await whenReady(bot);
  await bot.process.waitFor(/redis server checked|redis server not checked/);
  await bot.process.stop();
  return bot.process.output();
}

const EVICTION = /"msg":"redis maxmemory-policy is not noeviction/g;
const NO_PERSISTENCE = /"msg":"redis has no persistence/g;

describe("Redis start-up checks", { timeout: 60_000 }, () => {
  it("says nothing more than its findings on a Redis with AOF and noeviction", async () => {
    const log = await botOn({ persistence: true });
    expect(log).toMatch(/"maxmemoryPolicy":"noeviction","aof":true[^\n]*"findings":0[^\n]*redis server checked/);
    expect(log.match(EVICTION)).toBeNull();
    expect(log.match(NO_PERSISTENCE)).toBeNull();
  });

  it("warns once each about an eviction policy and a Redis without persistence, and still starts", async () => {
    const log = await botOn({ persistence: false, args: ["--maxmemory-policy", "allkeys-lru"] });
    expect(log.match(EVICTION)).toHaveLength(1);
    expect(log).toMatch(/"maxmemoryPolicy":"allkeys-lru"/);
    expect(log.match(NO_PERSISTENCE)).toHaveLength(1);
  });

  it("is not stopped by a provider that forbids INFO and CONFIG: it says what it could not check", async () => {
    const log = await botOn(
      { persistence: false },
      (base) => base.replace("redis://", "redis://limited:limited-password-123@"),
      (admin) => admin.call("ACL", "SETUSER", "limited", "on", ">limited-password-123", "~*", "&*", "+@all", "-info", "-config"),
    );
    expect(log).toMatch(/"msg":"redis server not checked: the provider does not allow INFO/);
    expect(log).toMatch(/event queue workers started/);
    expect(log).not.toContain("limited-password-123");
  });

  it("connects over rediss:// to a server whose certificate chains to its own CA with REDIS_TLS_CA, and not without it", async () => {
    // A CA of the test's own, and a certificate for 127.0.0.1 signed by it.
    const dir = mkdtempSync(join(tmpdir(), "slipline-tls-"));
    const openssl = (...args: string[]): void => void execFileSync("openssl", args, { cwd: dir, stdio: "ignore" });
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=slipline test CA");
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1");
    writeFileSync(join(dir, "ext.cnf"), "subjectAltName=IP:127.0.0.1\n");
    openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "server.pem", "-days", "2", "-extfile", "ext.cnf");
    const tlsPort = await freePort();
    const redis = await startTestRedis({
      persistence: true,
      args: [
        "--port",
        "0",
        "--tls-port",
        String(tlsPort),
        "--tls-cert-file",
        join(dir, "server.pem"),
        "--tls-key-file",
        join(dir, "server.key"),
        "--tls-ca-cert-file",
        join(dir, "ca.pem"),
        "--tls-auth-clients",
        "no",
      ],
    });
    cleanups.push(() => redis.stop());
    const world = await startWorld(0);
    cleanups.push(() => world.close());
    const url = `rediss://127.0.0.1:${tlsPort}`;

    const refused = await startBot(world, { REDIS_URL: url });
    await refused.process.waitFor(/"msg":"redis error"/);
    expect((await fetch(`${refused.url}/readyz`)).status).toBe(503);
    await refused.process.stop();

    const bot = await startBot(world, { REDIS_URL: url, REDIS_TLS_CA: join(dir, "ca.pem") });
    await whenReady(bot);
    await bot.process.waitFor(/event queue workers started/);
    const { chatId, body } = qrWebhook(world, 0x715);
    expect(await sendSigned(bot.webhookUrl, body)).toBe(200);
    await waitUntil(() => world.platform.sent.some((s) => s.chatId === chatId), 10_000);
    expect(world.platform.sent.some((s) => s.chatId === chatId)).toBe(true);
    // Stored in Redis (not handled in-process for want of it).
    expect(bot.process.output()).not.toMatch(/events not stored in redis/);
  });

  it("refuses REDIS_TLS_CA that cannot be read, holds no certificate, or goes with a plain redis:// URL", async () => {
    const dir = mkdtempSync(join(tmpdir(), "slipline-ca-"));
    const notPem = join(dir, "ca.txt");
    writeFileSync(notPem, "not a certificate\n");
    const cases = [
      [{ REDIS_URL: "rediss://cache.example:6380", REDIS_TLS_CA: join(dir, "missing.pem") }, `REDIS_TLS_CA: cannot read ${join(dir, "missing.pem")} (ENOENT)`],
      [{ REDIS_URL: "rediss://cache.example:6380", REDIS_TLS_CA: notPem }, `REDIS_TLS_CA: ${notPem} holds no PEM certificate`],
      [{ REDIS_URL: "redis://cache.example:6379", REDIS_TLS_CA: notPem }, "REDIS_TLS_CA: needs REDIS_URL to be a rediss:// URL"],
    ] as const;
    for (const [env, problem] of cases) {
      const main = startEntry("src/main.ts", { PORT: "0", SANDBOX_DB: ":memory:", ...env });
      expect(await main.exited).toBe(1);
      expect(main.stderr()).toContain(problem);
    }
  });
});
