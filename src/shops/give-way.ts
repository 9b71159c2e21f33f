// Long work on the event loop given in slices: a reload of a thousand shops (reading the file, comparing
// each shop) runs while events keep arriving, and must not hold them up for its whole length.

/** How long one slice of work may hold the event loop, ms. */
export const SLICE_MS = 2;
/**
 * How long the work then rests, ms. An event's answer crosses the event loop several times (its webhook, the
 * service's answer, LINE's), and each crossing may wait behind a slice: short slices and a rest twice as long
 * keep a reload at a third of the loop at most, so it adds little to any event (before, slices of 4 ms each
 * followed by only a turn of the loop tripled the e2e p99 at 250 events/s during a reload of 1,000 shops).
 */
export const REST_MS = 4;

/**
 * A function to call between two pieces of work: it resolves at once while the slice lasts, and after a
 * rest (a timer, so that waiting events and their answers run first) once the slice is over.
 */
export function giveWay(sliceMs: number = SLICE_MS, restMs: number = REST_MS): () => Promise<void> | undefined {
  let sliceStart = performance.now();
  return () => {
    if (performance.now() - sliceStart < sliceMs) return undefined;
    return new Promise<void>((resolve) =>
      setTimeout(() => {
        sliceStart = performance.now();
        resolve();
      }, restMs),
    );
  };
}
