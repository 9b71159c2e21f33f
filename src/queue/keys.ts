// The queue's names in Redis: its keys under a prefix, the partition of an ordering key, the consumer group,
// and the instance ids and connection names by which a killed instance is recognised.
import { createHash, randomBytes } from "node:crypto";
import { hostname } from "node:os";

/** Partitions by default: at most this many instances share the work; every instance must use the same number. */
export const PARTITIONS = 64;

/** Every instance reads as this one consumer, so a partition's pending entries go with its lease. */
export const CONSUMER = "owner";
export const GROUP = "handlers";

/** The partition of an ordering key: the same on every instance. */
export function partitionOf(orderingKey: string, partitions: number): number {
  return createHash("sha1").update(orderingKey).digest().readUInt32BE(0) % partitions;
}

/** The Redis keys of a queue under `keyPrefix`; tests name them from here. */
export function queueKeys(keyPrefix: string) {
  const base = `${keyPrefix}:queue`;
  return {
    stream: (partition: number): string => `${base}:p:${partition}`,
    lease: (partition: number): string => `${base}:lease:${partition}`,
    leasePrefix: `${base}:lease:`,
    instances: `${base}:instances`,
    marker: `${base}:marker`,
  };
}

export type QueueKeys = ReturnType<typeof queueKeys>;

/** The mark of an item stored, when the queue's user names none. */
export const defaultOnceKey = (keyPrefix: string, itemId: string): string => `${keyPrefix}:queue:seen:${itemId}`;

const NAMED_INSTANCE = "named:";

/** A new instance id whose queue connection is named after it (see `instanceId`). */
export function namedInstanceId(): string {
  return `${NAMED_INSTANCE}${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
}

/** An instance id of its own, not named: only its lease tells when it is gone. */
export function unnamedInstanceId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
}

export function isNamedInstance(id: string): boolean {
  return id.startsWith(NAMED_INSTANCE);
}

/** The name of the `workers` connection of the instance `instanceId` (CLIENT SETNAME: no spaces). */
export function queueConnectionName(instanceId: string): string {
  return `slipline-queue:${instanceId}`;
}

/** The name of the reader's own connection (a duplicate of `workers`, for the blocking reads). */
export const READER_CONNECTION_NAME = "slipline-queue-reader";
