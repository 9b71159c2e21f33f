// A store's Lua script on a Redis connection: defined once, then each call sends the script's hash, not its text.
import type { Redis } from "ioredis";

/** The script `name` as a command; without `numberOfKeys`, each call's first argument is its number of keys. */
export function scriptCommand(redis: Redis, name: string, numberOfKeys: number | undefined, lua: string): (...args: (string | number)[]) => Promise<unknown> {
  const scripted = redis as Redis & Record<string, ((...args: (string | number)[]) => Promise<unknown>) | undefined>;
  if (scripted[name] === undefined) redis.defineCommand(name, numberOfKeys === undefined ? { lua } : { numberOfKeys, lua });
  return (...args) => (scripted[name] as (...args: (string | number)[]) => Promise<unknown>)(...args);
}
