/**
 * One write at a time per collection in this gateway (storage.md §9): each write reads the
 * latest manifest, changes it and saves it, so concurrent writes never lose one another.
 */
const tails = new Map<string, Promise<unknown>>();

export async function withCollectionLock<T>(uuid: string, fn: () => Promise<T>): Promise<T> {
  const previous = tails.get(uuid) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const tail = run.catch(() => undefined);
  tails.set(uuid, tail);
  try {
    return await run;
  } finally {
    if (tails.get(uuid) === tail) tails.delete(uuid);
  }
}
