// A small seeded random generator (sfc32) and the picks the demo data makes with it: same seed, same data, on every machine.

export type Rng = () => number;

export function createRng(seed: number): Rng {
  let a = 0x9e3779b9 ^ seed;
  let b = 0x243f6a88 ^ Math.imul(seed, 0x85ebca6b);
  let c = 0xb7e15162 ^ Math.imul(seed, 0xc2b2ae35);
  let d = 1;
  const next = (): number => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4_294_967_296;
  };
  // Warm up so nearby seeds diverge.
  for (let i = 0; i < 16; i++) next();
  return next;
}

/** One 32-bit seed from several integers (a shop's seed and a day number, say), well mixed. */
export function mixSeeds(...parts: readonly number[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    h = Math.imul(h ^ (part | 0), 0x01000193);
    h ^= h >>> 15;
    h = Math.imul(h ^ Math.floor(part / 4_294_967_296), 0x85ebca6b);
    h ^= h >>> 13;
  }
  return h >>> 0;
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)];
  if (item === undefined) throw new Error("pick from an empty list");
  return item;
}

/** A weighted pick over fixed entries. */
export function weighted<T>(entries: readonly (readonly [T, number])[]): (rng: Rng) => T {
  const total = entries.reduce((sum, [, w]) => sum + w, 0);
  return (rng) => {
    let r = rng() * total;
    for (const [value, w] of entries) {
      r -= w;
      if (r < 0) return value;
    }
    const last = entries[entries.length - 1];
    if (last === undefined) throw new Error("weighted pick from an empty list");
    return last[0];
  };
}
