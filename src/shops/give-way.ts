// Long work on the event loop given in slices: a reload of a thousand shops (reading the file, comparing
// each shop) runs while events keep arriving, and must not hold them up for its whole length.

/** How long one slice of work may hold the event loop, ms. */
export const SLICE_MS = 4;

/**
 * A function to call between two pieces of work: it resolves at once while the slice lasts, and after
 * letting waiting events run (setImmediate) once the slice is over.
 */
export function giveWay(sliceMs: number = SLICE_MS): () => Promise<void> | undefined {
  let sliceStart = performance.now();
  return () => {
    if (performance.now() - sliceStart < sliceMs) return undefined;
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        sliceStart = performance.now();
        resolve();
      }),
    );
  };
}
