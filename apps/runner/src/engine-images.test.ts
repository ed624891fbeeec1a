import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EngineImages } from './engine-images';
import type { EngineCommand } from './oci';

/** execution.md §3.8 for podman and docker: their store of runner images is bounded, LRU first. */
describe('engine images', () => {
  let dir: string;
  let store: string[];
  let inUse: Set<string>;
  let removed: string[];
  const engine: EngineCommand = async (args) => {
    if (args[0] === 'images') return store.join('\n') + '\n';
    if (args[0] === 'rmi') {
      const name = args[1]!;
      if (inUse.has(name)) throw new Error('image is in use by a container');
      store = store.filter((n) => n !== name);
      removed.push(name);
      return '';
    }
    throw new Error(`unexpected ${args.join(' ')}`);
  };
  /** A marker used `minutesAgo` minutes ago, as an earlier runner's touch leaves it. */
  const usedAgo = (tag: string, minutesAgo: number): void => {
    const when = new Date(Date.now() - minutesAgo * 60_000);
    writeFileSync(join(dir, tag), '');
    utimesSync(join(dir, tag), when, when);
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-engine-images-'));
    inUse = new Set();
    removed = [];
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('removes the least recently used tags past the bound, never the current one', async () => {
    store = ['localhost/svc-image:aa', 'localhost/svc-image:bb', 'localhost/svc-image:cc'];
    store.push('localhost/svc-image:dd', 'localhost/busybox:test');
    usedAgo('aa', 30);
    usedAgo('bb', 5);
    usedAgo('cc', 60);
    const images = new EngineImages(engine, dir, 3);
    images.touch('svc-image:dd');
    // dd (current) and the two most recently used others stay; names not the runners' stay
    expect(await images.evict('svc-image:dd')).toEqual(['localhost/svc-image:cc']);
    expect(store).toEqual([
      'localhost/svc-image:aa',
      'localhost/svc-image:bb',
      'localhost/svc-image:dd',
      'localhost/busybox:test',
    ]);
    expect(readdirSync(dir).sort()).toEqual(['aa', 'bb', 'dd']);
  });

  it('an image without a marker counts as the least recently used', async () => {
    store = ['svc-image:aa', 'svc-image:bb', 'svc-image:cc'];
    usedAgo('aa', 30);
    usedAgo('cc', 1);
    // aa, used half an hour ago, stays over bb, never marked
    expect(await new EngineImages(engine, dir, 2).evict('svc-image:cc')).toEqual(['svc-image:bb']);
  });

  it('an image a container still uses stays, and the rest still go', async () => {
    store = ['svc-image:aa', 'svc-image:bb', 'svc-image:cc'];
    usedAgo('aa', 30);
    usedAgo('bb', 20);
    inUse.add('svc-image:aa');
    expect(await new EngineImages(engine, dir, 1).evict('svc-image:cc')).toEqual(['svc-image:bb']);
    expect(store).toEqual(['svc-image:aa', 'svc-image:cc']);
  });

  it("forgets markers of images gone from the store a day ago, not a runner's fresh one", async () => {
    store = ['svc-image:aa'];
    usedAgo('gone', 25 * 60);
    usedAgo('loading', 0);
    mkdirSync(dir, { recursive: true });
    await new EngineImages(engine, dir, 8).evict('svc-image:aa');
    expect(readdirSync(dir).sort()).toEqual(['loading']);
  });

  it('touch marks an image used now', async () => {
    store = ['svc-image:aa', 'svc-image:bb', 'svc-image:cc'];
    usedAgo('aa', 30);
    usedAgo('bb', 20);
    const images = new EngineImages(engine, dir, 2);
    images.touch('svc-image:aa');
    expect(await images.evict('svc-image:cc')).toEqual(['svc-image:bb']);
  });
});
