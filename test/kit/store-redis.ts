// A storage port's test Redis: a redis-server of the test's own, the connection the store writes through
// (one attempt a command, so a Redis that is away is an error, not a wait) and a second one to look with.
import { Redis } from "ioredis";
import { startTestRedis } from "./redis-server.js";

export interface StoreRedis {
  readonly connection: Redis;
  readonly admin: Redis;
  stop(): Promise<void>;
}

export async function startStoreRedis(): Promise<StoreRedis> {
  const redis = await startTestRedis({ persistence: false });
  const connection = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  const admin = new Redis(redis.url);
  return {
    connection,
    admin,
    async stop() {
      connection.disconnect();
      admin.disconnect();
      await redis.stop();
    },
  };
}
