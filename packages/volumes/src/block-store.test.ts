import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import pino from 'pino';
import { rendezvousOrder } from '@svc/blocks';
import { BlockStore } from './block-store';
import { DirectoryVolume } from './directory';
import { HashMismatchError, VolumeFullError } from './errors';

const md5 = (b: Buffer | string) => createHash('md5').update(b).digest('hex');
const log = pino({ level: 'silent' });
const roots: string[] = [];
const dirVolume = (
  id: string,
  opts: { readOnly?: boolean; replication?: number; root?: string } = {},
) => {
  const root = opts.root ?? mkdtempSync(join(tmpdir(), 'svc-store-'));
  if (!opts.root) roots.push(root);
  return new DirectoryVolume(id, root, {
    readOnly: opts.readOnly ?? false,
    replication: opts.replication ?? 1,
  });
};
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

async function storeOf(...volumes: DirectoryVolume[]) {
  const store = new BlockStore(volumes, log);
  await store.start();
  return store;
}
const put = async (store: BlockStore, data: string, desired: number) =>
  (await store.write(md5(data), Readable.from([Buffer.from(data)]), data.length, desired)).replicas;

describe('BlockStore', () => {
  it('writes in rendezvous order until the desired copies are stored', async () => {
    const vols = ['v1', 'v2', 'v3'].map((id) => dirVolume(id));
    const store = await storeOf(...vols);
    const data = 'placement';
    expect(await put(store, data, 2)).toBe(2);
    const order = rendezvousOrder(md5(data), vols, (v) => v.id);
    expect(await order[0]!.stat(md5(data))).not.toBeNull();
    expect(await order[1]!.stat(md5(data))).not.toBeNull();
    expect(await order[2]!.stat(md5(data))).toBeNull();
    expect(store.readOrder(md5(data)).map((v) => v.id)).toEqual(order.map((v) => v.id));
  });

  it('reads a copy found corrupt last, until it is written again', async () => {
    const vols = ['v1', 'v2'].map((id) => dirVolume(id));
    const store = await storeOf(...vols);
    const data = 'corrupt first';
    await put(store, data, 2);
    const [first, second] = rendezvousOrder(md5(data), vols, (v) => v.id);
    store.reportCorrupt(first!, md5(data));
    expect(store.readOrder(md5(data))).toEqual([second, first]);
    expect((await store.open(md5(data), data.length))!.volume).toBe(second);
    // written again: the copy is trusted in its place once more
    await first!.trash(md5(data), (await first!.stat(md5(data)))!.mtimeNs);
    await first!.deleteTrashed(md5(data));
    await put(store, data, 2);
    expect(store.readOrder(md5(data))).toEqual([first, second]);
  });

  it('counts Replication, and answers fewer copies than desired when that is all it has', async () => {
    const store = await storeOf(dirVolume('a', { replication: 2 }), dirVolume('b'));
    expect(await put(store, 'replication', 5)).toBe(3);
  });

  it('counts copies already there (refreshed) and restores trashed ones', async () => {
    const v = dirVolume('only');
    const store = await storeOf(v);
    const data = 'again';
    await put(store, data, 1);
    await v.trash(md5(data), (await v.stat(md5(data)))!.mtimeNs);
    expect(await put(store, data, 1)).toBe(1);
    expect(await v.stat(md5(data))).not.toBeNull();
    const trashed = [];
    for await (const t of v.trashIndex()) trashed.push(t);
    expect(trashed).toEqual([]);
  });

  it('still verifies the body of a block it already holds', async () => {
    const store = await storeOf(dirVolume('x'));
    await put(store, 'held', 1);
    await expect(
      store.write(md5('held'), Readable.from([Buffer.from('nope')]), 4, 1),
    ).rejects.toBeInstanceOf(HashMismatchError);
  });

  it('with no writable volume, verifies the body and then answers "insufficient storage"', async () => {
    const none = await storeOf();
    await expect(put(none, 'x', 1)).rejects.toBeInstanceOf(VolumeFullError);
    await expect(
      none.write(md5('x'), Readable.from([Buffer.from('y')]), 1, 1),
    ).rejects.toBeInstanceOf(HashMismatchError);
    const readOnly = await storeOf(dirVolume('ro', { readOnly: true }));
    await expect(put(readOnly, 'x', 1)).rejects.toBeInstanceOf(VolumeFullError);
  });

  it('skips a volume that is down at start-up and reads from the others', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'svc-store-'));
    roots.push(parent);
    const file = join(parent, 'f');
    writeFileSync(file, 'x');
    const down = dirVolume('down', { root: join(file, 'sub') });
    const up = dirVolume('up');
    const store = await storeOf(down, up);
    expect(store.states.find((s) => s.volume.id === 'down')).toMatchObject({ available: false });
    expect(await put(store, 'survives', 1)).toBe(1);
    expect(await store.head(md5('survives'), 8)).toBe('ok');
    const opened = await store.open(md5('survives'), 8);
    expect(opened?.volume.id).toBe('up');
    opened?.stream.destroy();
  });

  it('HEAD finds a corrupt copy and a missing block; a copy of another size is not the block', async () => {
    const v = dirVolume('c');
    const store = await storeOf(v);
    await put(store, 'good', 1);
    expect(await store.head(md5('good'), 4)).toBe('ok');
    expect(await store.head(md5('good'), 5)).toBe('not found');
    expect(await store.open(md5('good'), 5)).toBeNull();
    expect(await store.head(md5('absent'), 6)).toBe('not found');
    // Corrupt the stored copy behind the volume's back.
    writeFileSync(join((v as any).root, md5('good').slice(0, 3), md5('good')), 'bad!');
    expect(await store.head(md5('good'), 4)).toBe('corrupt');
    expect(store.counters.corruptCopies).toBe(1);
  });
});
