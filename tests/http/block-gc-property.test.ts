import { Readable } from 'node:stream';
import fc from 'fast-check';
import { forEachBlockHash } from '@svc/blocks';
import { useDeployment } from '../harness/deployment';
import { DAY_MS, gcHarness } from '../harness/gc';
import { md5, volumeDirs, withVolumes } from '../harness/storage';

// Random timelines of uploads and collection changes under a clock the test moves; after every
// collection run: no block that a live or trashed (not yet deleted) collection names was
// trashed or deleted (storage.md §6).
const dirs = volumeDirs(2);
const d = useDeployment(withVolumes(dirs));
let gc: Awaited<ReturnType<typeof gcHarness>>;
beforeAll(async () => {
  gc = await gcHarness(d.current);
});
afterAll(() => gc.close());

const BLOCKS = 8;
const blockIndex = fc.integer({ min: 0, max: BLOCKS - 1 });
const action = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('upload' as const), block: blockIndex }), weight: 4 },
  {
    arbitrary: fc.record({
      kind: fc.constant('create' as const),
      blocks: fc.uniqueArray(blockIndex, { maxLength: 4 }),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('update' as const),
      target: fc.nat(),
      blocks: fc.uniqueArray(blockIndex, { maxLength: 4 }),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('trash' as const),
      target: fc.nat(),
      days: fc.integer({ min: 0, max: 30 }),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant('purge' as const), target: fc.nat() }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant('advance' as const),
      days: fc.integer({ min: 0, max: 20 }),
    }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constant('gc' as const) }), weight: 3 },
);
type Action = typeof action extends fc.Arbitrary<infer A> ? A : never;

/** Everything ever uploaded, by hash, across runs. */
const uploaded = new Set<string>();
let run = 0;

async function liveAnywhere(hash: string): Promise<boolean> {
  for (const s of gc.store.states) if (await s.volume.stat(hash)) return true;
  return false;
}

/** The invariant, checked against the database as the collector's clock sees it. */
async function checkNothingReferencedIsGone(): Promise<void> {
  const { rows } = await gc.db.query<{ manifest_text: string }>({
    text: 'SELECT manifest_text FROM collections WHERE delete_at IS NULL OR delete_at > $1',
    values: [new Date(gc.clock.now).toISOString()],
  });
  const referenced = new Set<string>();
  for (const r of rows) forEachBlockHash(r.manifest_text, (h) => referenced.add(h));
  for (const hash of referenced) {
    if (uploaded.has(hash)) expect([hash, await liveAnywhere(hash)]).toEqual([hash, true]);
  }
}

async function apply(a: Action, content: (i: number) => string, made: string[]): Promise<void> {
  const manifest = (blocks: number[]) =>
    blocks.length === 0
      ? ''
      : `. ${blocks.map((i) => `${md5(content(i))}+${content(i).length}`).join(' ')} 0:1:f\n`;
  const pick = (n: number) => made[n % made.length]!;
  switch (a.kind) {
    case 'upload': {
      const data = content(a.block);
      await gc.store.write(md5(data), Readable.from([Buffer.from(data)]), data.length, 1);
      uploaded.add(md5(data));
      return;
    }
    case 'create': {
      const res = await d.current.root.request('POST', '/svc/v1/collections', {
        json: { collection: { manifest_text: manifest(a.blocks) } },
      });
      made.push(res.body.uuid);
      return;
    }
    case 'update':
      if (made.length === 0) return;
      await d.current.root.request('PUT', `/svc/v1/collections/${pick(a.target)}`, {
        json: { collection: { manifest_text: manifest(a.blocks) } },
      });
      return;
    case 'trash':
      if (made.length === 0) return;
      await gc.db.query({
        text: 'UPDATE collections SET trash_at = $1, delete_at = $2 WHERE uuid = $3',
        values: [
          new Date(gc.clock.now).toISOString(),
          new Date(gc.clock.now + a.days * DAY_MS).toISOString(),
          pick(a.target),
        ],
      });
      return;
    case 'purge':
      if (made.length === 0) return;
      await gc.db.query({
        text: 'DELETE FROM collections WHERE uuid = $1',
        values: [pick(a.target)],
      });
      made.splice(a.target % made.length, 1);
      return;
    case 'advance':
      gc.clock.now += a.days * DAY_MS;
      return;
    case 'gc':
      expect((await gc.run()).ran).toBe(true);
      await checkNothingReferencedIsGone();
  }
}

describe('garbage collection, property', () => {
  it('never trashes or deletes a block a live or trashed collection names', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 5, maxLength: 30 }), async (actions) => {
        run += 1;
        const content = (i: number) => `run ${run} block ${i}`;
        const made: string[] = [];
        for (const a of actions) await apply(a, content, made);
        gc.clock.now += 30 * DAY_MS;
        await gc.run();
        await checkNothingReferencedIsGone();
      }),
      { numRuns: 40 },
    );
  }, 120_000);

  it('and does collect: an unreferenced old block is trashed, then deleted', async () => {
    const data = `orphan ${Date.now()}`;
    await gc.store.write(md5(data), Readable.from([Buffer.from(data)]), data.length, 1);
    gc.clock.now += 15 * DAY_MS;
    await gc.run();
    expect(await liveAnywhere(md5(data))).toBe(false);
    gc.clock.now += 15 * DAY_MS;
    expect((await gc.run()).deleted).toBeGreaterThan(0);
  });
});
