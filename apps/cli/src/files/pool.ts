/** Runs `work` on every item, at most `limit` at once; the first failure stops new work. */
export async function inParallel<T>(
  items: readonly T[],
  limit: number,
  work: (item: T, worker: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async (w: number) => {
    while (!failed && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item, w);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, (_, w) => worker(w)));
}
