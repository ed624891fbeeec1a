import { Readable } from 'node:stream';
import { useDeployment } from '../harness/deployment';
import { DAY_MS, gcHarness } from '../harness/gc';
import { md5, volumeDirs, withVolumes } from '../harness/storage';

const dirs = volumeDirs(1);
const d = useDeployment(withVolumes(dirs));
let gc: Awaited<ReturnType<typeof gcHarness>>;
beforeAll(async () => {
  gc = await gcHarness(d.current);
});
afterAll(() => gc.close());

const write = (data: string) =>
  gc.store.write(md5(data), Readable.from([Buffer.from(data)]), data.length, 1);
const loc = (data: string) => `${md5(data)}+${data.length}`;
const live = async (data: string) => (await gc.store.states[0]!.volume.stat(md5(data))) !== null;
async function trashed(data: string): Promise<boolean> {
  for await (const t of gc.store.states[0]!.volume.trashIndex())
    if (t.hash === md5(data)) return true;
  return false;
}
const collection = async (blocks: string[]) => {
  const manifest = blocks.length ? `. ${blocks.map(loc).join(' ')} 0:1:f\n` : '';
  const res = await d.current.root.request('POST', '/svc/v1/collections', {
    json: { collection: { manifest_text: manifest } },
  });
  expect(res.status).toBe(200);
  return res.body.uuid as string;
};

describe('garbage collection (storage.md §6)', () => {
  it('keeps referenced and young blocks, trashes old unreferenced ones, then deletes them', async () => {
    await write('kept: referenced');
    await write('unreferenced');
    const uuid = await collection(['kept: referenced']);
    const first = await gc.run();
    expect(first).toMatchObject({
      ran: true,
      trashed: 0,
      deleted: 0,
      referenced: 1,
      replicationUpdated: 1,
    });
    const c = await d.current.root.request('GET', `/svc/v1/collections/${uuid}`);
    expect(c.body.replication_confirmed).toBe(1);
    expect(c.body.replication_confirmed_at).not.toBeNull();

    gc.clock.now += 15 * DAY_MS;
    await write('young');
    const second = await gc.run();
    expect(second).toMatchObject({ trashed: 1, restored: 0, deleted: 0, replicationUpdated: 0 });
    expect([await live('kept: referenced'), await live('young')]).toEqual([true, true]);
    expect([await live('unreferenced'), await trashed('unreferenced')]).toEqual([false, true]);

    gc.clock.now += 13 * DAY_MS;
    expect((await gc.run()).deleted).toBe(0);
    gc.clock.now += 2 * DAY_MS;
    const fourth = await gc.run();
    expect(fourth.deleted).toBe(1);
    expect([await live('unreferenced'), await trashed('unreferenced')]).toEqual([false, false]);
  });

  it('restores a trashed copy that is referenced again or written again', async () => {
    gc.clock.now += 1 * DAY_MS;
    await write('named again');
    await write('written again');
    gc.clock.now += 15 * DAY_MS;
    expect((await gc.run()).trashed).toBeGreaterThanOrEqual(2);
    expect(await trashed('named again')).toBe(true);
    // A collection that names it without passing through the API's restore (a race).
    const uuid = await collection([]);
    await gc.db.query({
      text: 'UPDATE collections SET manifest_text = $1 WHERE uuid = $2',
      values: [`. ${loc('named again')} 0:1:f\n`, uuid],
    });
    // The same bytes written again while a trashed copy exists (straight to the volume).
    const volume = gc.store.states[0]!.volume;
    await volume.put(md5('written again'), Readable.from([Buffer.from('written again')]), {
      expectedLength: 13,
    });
    const run = await gc.run();
    expect(run.restored).toBe(2);
    expect([await live('named again'), await trashed('named again')]).toEqual([true, false]);
    expect([await live('written again'), await trashed('written again')]).toEqual([true, false]);
  });

  it('a trashed collection protects its blocks until its delete_at', async () => {
    await write('in a trashed collection');
    const uuid = await collection(['in a trashed collection']);
    // Trashed now (on the collector's clock), to be deleted in 20 days.
    await gc.db.query({
      text: 'UPDATE collections SET trash_at = $1, delete_at = $2 WHERE uuid = $3',
      values: [
        new Date(gc.clock.now).toISOString(),
        new Date(gc.clock.now + 20 * DAY_MS).toISOString(),
        uuid,
      ],
    });
    gc.clock.now += 15 * DAY_MS;
    await gc.run();
    expect(await live('in a trashed collection')).toBe(true);
    gc.clock.now += 6 * DAY_MS;
    await gc.run();
    expect(await trashed('in a trashed collection')).toBe(true);
  });

  it('runs at most once at a time', async () => {
    const runs = await Promise.all([gc.run(), gc.run(), gc.run()]);
    expect(runs.filter((r) => r.ran)).toHaveLength(1);
  });
});
