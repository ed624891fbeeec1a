import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { startS3Server, s3VolumeConfig, type S3Server } from '@svc/tests/harness/moto';
import { DirectoryVolume } from './directory';
import {
  BlockTooLargeError,
  HashMismatchError,
  LengthMismatchError,
  VolumeUnavailableError,
} from './errors';
import { S3Volume } from './s3';
import type { Volume } from './volume';

const md5 = (b: Buffer | string) => createHash('md5').update(b).digest('hex');
const bytes = (s: string) => Buffer.from(s);
const streamOf = (...chunks: Buffer[]) => Readable.from(chunks);
async function readAll(r: Readable | null): Promise<Buffer | null> {
  if (!r) return null;
  const parts: Buffer[] = [];
  for await (const c of r) parts.push(c as Buffer);
  return Buffer.concat(parts);
}
async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

interface Driver {
  name: string;
  make(opts?: { readOnly?: boolean }): Promise<Volume>;
  broken(): Volume;
  /** Names under which something is stored (final names only for a good volume). */
  leftovers(v: Volume): Promise<string[]>;
}

const dirs: string[] = [];
const directoryDriver: Driver = {
  name: 'Directory',
  async make(opts = {}) {
    const root = mkdtempSync(join(tmpdir(), 'svc-vol-'));
    dirs.push(root);
    const v = new DirectoryVolume('dir1', root, {
      readOnly: opts.readOnly ?? false,
      replication: 1,
    });
    if (opts.readOnly) {
      const rw = new DirectoryVolume('dir1', root, { readOnly: false, replication: 1 });
      await rw.check();
    }
    await v.check();
    (v as any).rootForTest = root;
    return v;
  },
  broken() {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-vol-')), 'not-a-dir');
    writeFileSync(file, 'x');
    return new DirectoryVolume('bad', join(file, 'sub'), { readOnly: false, replication: 1 });
  },
  async leftovers(v) {
    const root = (v as any).rootForTest as string;
    const walk = (d: string): string[] =>
      readdirSync(d, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name).slice(root.length + 1)],
      );
    return walk(root);
  },
};

let s3: S3Server;
const s3Driver: Driver = {
  name: 'S3',
  async make(opts = {}) {
    const bucket = await s3.bucket();
    const v = new S3Volume('s3vol', {
      ...s3VolumeConfig(s3, bucket),
      ReadOnly: opts.readOnly ?? false,
    });
    await v.check();
    return v;
  },
  broken() {
    return new S3Volume('bad', s3VolumeConfig(s3, 'no-such-bucket'));
  },
  async leftovers(v) {
    return (await collect(v.index())).map((b) => b.hash);
  },
};

beforeAll(async () => {
  s3 = await startS3Server();
}, 30_000);
afterAll(async () => {
  await s3?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe.each([directoryDriver, s3Driver])('$name volume', (driver) => {
  let v: Volume;
  beforeEach(async () => {
    v = await driver.make();
  });
  afterEach(() => v.close());

  it('stores a block and reads it back', async () => {
    const data = bytes('hello block');
    expect(await v.put(md5(data), streamOf(data), { expectedLength: data.length })).toBe(11);
    expect(await readAll(await v.get(md5(data)))).toEqual(data);
    const st = await v.stat(md5(data));
    expect(st).toMatchObject({ hash: md5(data), size: 11 });
    expect(Number(st!.mtimeNs / 1_000_000n)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('reads a range of a block', async () => {
    const data = bytes('0123456789');
    await v.put(md5(data), streamOf(data), { expectedLength: 10 });
    expect((await readAll(await v.get(md5(data), { start: 2, end: 5 })))!.toString()).toBe('2345');
  });

  it('takes a body of unknown length in several chunks', async () => {
    const parts = [bytes('a'.repeat(70_000)), bytes('b'.repeat(10)), bytes('')];
    const all = Buffer.concat(parts);
    expect(await v.put(md5(all), streamOf(...parts), { expectedLength: null })).toBe(all.length);
    expect(await readAll(await v.get(md5(all)))).toEqual(all);
  });

  it.each([
    ['other bytes', bytes('abc'), 'f'.repeat(32), 3, HashMismatchError],
    ['fewer bytes than announced', bytes('abc'), md5('abc'), 5, LengthMismatchError],
    ['more bytes than announced', bytes('abcdef'), md5('abcdef'), 3, LengthMismatchError],
  ])('refuses %s and stores nothing', async (_what, data, hash, length, type) => {
    await expect(v.put(hash, streamOf(data), { expectedLength: length })).rejects.toBeInstanceOf(
      type,
    );
    expect(await v.stat(hash)).toBeNull();
    expect(await driver.leftovers(v)).toEqual([]);
  });

  it('refuses more than 64 MiB while it streams', async () => {
    const chunk = Buffer.alloc(1 << 20, 7);
    const body = Readable.from(
      (function* () {
        for (let i = 0; i < 65; i++) yield chunk;
      })(),
    );
    await expect(v.put('0'.repeat(32), body, { expectedLength: null })).rejects.toBeInstanceOf(
      BlockTooLargeError,
    );
    expect(await driver.leftovers(v)).toEqual([]);
  });

  it('leaves nothing when the body fails midway', async () => {
    // Fails only once the volume reads from it, so the error always has a listener.
    let failing = false;
    const body = new Readable({
      read() {
        if (failing) return;
        failing = true;
        this.push(Buffer.alloc(1000, 1));
        setTimeout(() => this.destroy(new Error('client went away')), 20);
      },
    });
    await expect(v.put('1'.repeat(32), body, { expectedLength: 5000 })).rejects.toThrow();
    expect(await v.stat('1'.repeat(32))).toBeNull();
    expect(await driver.leftovers(v)).toEqual([]);
  });

  it('answers null and false for a block it does not have', async () => {
    const h = md5('missing');
    expect(await v.get(h)).toBeNull();
    expect(await v.stat(h)).toBeNull();
    expect(await v.touch(h)).toBe(false);
    expect(await v.trash(h, 0n)).toBe(false);
    expect(await v.untrash(h)).toBe(false);
    await expect(v.deleteTrashed(h)).resolves.toBeUndefined();
  });

  it('trashes only a copy that was not written since it was listed', async () => {
    const data = bytes('trash me');
    const h = md5(data);
    await v.put(h, streamOf(data), { expectedLength: data.length });
    const st = (await v.stat(h))!;
    expect(await v.trash(h, st.mtimeNs - 1_000_000_000n)).toBe(false);
    expect(await v.stat(h)).not.toBeNull();
    expect(await v.trash(h, st.mtimeNs)).toBe(true);
    expect(await v.stat(h)).toBeNull();
    expect(await v.get(h)).toBeNull();
    expect((await collect(v.index())).map((b) => b.hash)).toEqual([]);
    const trashed = await collect(v.trashIndex());
    expect(trashed.map((t) => t.hash)).toEqual([h]);
    expect(trashed[0]!.trashedAtMs).toBeGreaterThan(Date.now() - 60_000);
  });

  it('restores a trashed copy, and deletes one for good', async () => {
    const a = bytes('restore me');
    const b = bytes('delete me');
    for (const d of [a, b]) {
      await v.put(md5(d), streamOf(d), { expectedLength: d.length });
      await v.trash(md5(d), (await v.stat(md5(d)))!.mtimeNs);
    }
    expect(await v.untrash(md5(a))).toBe(true);
    expect(await readAll(await v.get(md5(a)))).toEqual(a);
    await v.deleteTrashed(md5(b));
    expect(await v.untrash(md5(b))).toBe(false);
    expect((await collect(v.trashIndex())).map((t) => t.hash)).toEqual([]);
  });

  it('touch refreshes the modification time', async () => {
    const data = bytes('touch me');
    await v.put(md5(data), streamOf(data), { expectedLength: data.length });
    const before = (await v.stat(md5(data)))!.mtimeNs;
    expect(await v.touch(md5(data))).toBe(true);
    expect((await v.stat(md5(data)))!.mtimeNs).toBeGreaterThanOrEqual(before);
  });

  it('lists live copies, by hex prefix', async () => {
    const blocks = ['one', 'two', 'three', 'four', 'five'].map(bytes);
    for (const d of blocks) await v.put(md5(d), streamOf(d), { expectedLength: d.length });
    const all = await collect(v.index());
    expect(all.map((b) => b.hash).sort()).toEqual(blocks.map((d) => md5(d)).sort());
    expect(all.find((b) => b.hash === md5('three'))!.size).toBe(5);
    const first = md5('one');
    for (const prefix of [first.slice(0, 1), first.slice(0, 4), first]) {
      const some = await collect(v.index(prefix));
      expect(some.map((b) => b.hash)).toContain(first);
      expect(some.every((b) => b.hash.startsWith(prefix))).toBe(true);
    }
  });

  it('a read-only volume refuses writes and trashing', async () => {
    const ro = await driver.make({ readOnly: true });
    const data = bytes('ro');
    await expect(ro.put(md5(data), streamOf(data), { expectedLength: 2 })).rejects.toBeInstanceOf(
      VolumeUnavailableError,
    );
    expect(await ro.trash(md5(data), 0n)).toBe(false);
    await ro.close();
  });

  it('reports a volume it cannot reach', async () => {
    const bad = driver.broken();
    await expect(bad.check()).rejects.toBeInstanceOf(VolumeUnavailableError);
    await bad.close();
  });
});

describe('S3 volume key layout', () => {
  it('puts blocks under <first N hex>/<md5> with PrefixLength N', async () => {
    const bucket = await s3.bucket();
    const v = new S3Volume('p', s3VolumeConfig(s3, bucket, { PrefixLength: 2 }));
    const data = bytes('prefixed');
    await v.put(md5(data), streamOf(data), { expectedLength: data.length });
    const { S3Client, ListObjectsV2Command } = await import('@aws-sdk/client-s3');
    const raw = new S3Client({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
    });
    const listed = await raw.send(new ListObjectsV2Command({ Bucket: bucket }));
    expect(listed.Contents?.map((o) => o.Key)).toEqual([`${md5(data).slice(0, 2)}/${md5(data)}`]);
    expect((await collect(v.index(md5(data).slice(0, 3)))).map((b) => b.hash)).toEqual([md5(data)]);
    raw.destroy();
    await v.close();
  });
});

describe('Directory volume crash safety', () => {
  it('never names an unfinished write as a block', async () => {
    const v = await directoryDriver.make();
    const body = new Readable({ read() {} });
    body.push(Buffer.alloc(1000));
    const pending = v.put(md5(Buffer.alloc(2000)), body, { expectedLength: 2000 });
    await new Promise((r) => setTimeout(r, 20));
    const names = await directoryDriver.leftovers(v);
    expect(names.every((n) => n.startsWith('tmp/'))).toBe(true);
    body.push(Buffer.alloc(1000));
    body.push(null);
    await pending;
    expect(await directoryDriver.leftovers(v)).toEqual([
      `${md5(Buffer.alloc(2000)).slice(0, 3)}/${md5(Buffer.alloc(2000))}`,
    ]);
  });
});
