import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { applyLayer as applyStream, ImageCache } from './image';
import { readImageArchive } from './image-archive';
import { writeTar } from './tar-write';

const applyLayer = (root: string, layer: Buffer) => applyStream(root, Readable.from([layer]));

/** execution.md §3.1: layers in order, whiteouts, entries that would leave the root refused. */
describe('image layers', () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'svc-image-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('applies layers in order with whiteouts and opaque directories', async () => {
    await applyLayer(
      root,
      writeTar([
        { path: 'a', type: 'dir' },
        { path: 'a/x', data: 'x1' },
        { path: 'a/y', data: 'y1' },
        { path: 'b', type: 'dir' },
        { path: 'b/z', data: 'z1' },
      ]),
    );
    await applyLayer(
      root,
      writeTar([
        { path: 'a/.wh.x' },
        { path: 'a/y', data: 'y2' },
        { path: 'b/.wh..wh..opq' },
        { path: 'b/new', data: 'n' },
      ]),
    );
    expect(existsSync(join(root, 'a/x'))).toBe(false);
    expect(readFileSync(join(root, 'a/y'), 'utf8')).toBe('y2');
    expect(existsSync(join(root, 'b/z'))).toBe(false);
    expect(readFileSync(join(root, 'b/new'), 'utf8')).toBe('n');
  });

  it('refuses entries whose path or link target leaves the root, and writes through symlinks', async () => {
    const refused = await applyLayer(
      root,
      writeTar([
        { path: '../evil', data: 'no' },
        { path: 'up', type: 'symlink', linkname: '../../etc' },
        { path: 'abs', type: 'symlink', linkname: '/etc/passwd' },
        { path: 'dir', type: 'symlink', linkname: '/tmp' },
        { path: 'dir/file', data: 'no' },
      ]),
    );
    expect(refused).toEqual(['../evil', 'up', 'dir/file']);
    expect(existsSync(join(root, 'up'))).toBe(false);
    // an absolute target is resolved inside the image root by the sandbox
    expect(readlinkSync(join(root, 'abs'))).toBe('/etc/passwd');
    expect(existsSync(join(root, '../evil'))).toBe(false);
  });

  it('reads Env, User and WorkingDir of a docker save archive and caches by PDH', async () => {
    const layer = writeTar([{ path: 'hello', data: 'hi' }]);
    // a gzipped layer, and a second image's layer that is a link to the first (as docker
    // save writes a layer two images share)
    const archive = writeTar([
      { path: 'l1/layer.tar', data: gzipSync(layer) },
      { path: 'l2/layer.tar', type: 'symlink', linkname: '../l1/layer.tar' },
      {
        path: 'c.json',
        data: JSON.stringify({ config: { Env: ['A=1'], User: '7', WorkingDir: '/w', Cmd: ['x'] } }),
      },
      {
        path: 'manifest.json',
        data: JSON.stringify([{ Config: 'c.json', Layers: ['l2/layer.tar'] }]),
      },
    ]);
    const file = join(root, 'image.tar');
    writeFileSync(file, archive);
    const parts = await readImageArchive(file, join(root, 'parts'));
    expect(parts.config).toEqual({ Env: ['A=1'], User: '7', WorkingDir: '/w' });
    const cacheDir = join(root, 'cache');
    const cache = new ImageCache(cacheDir, 1);
    // the engines' use markers share the folder and are not images to evict
    mkdirSync(join(cacheDir, 'podman'));
    expect(cache.lookup('pdh1')).toBeNull();
    const img = await cache.store('pdh1', file, join(root, 'scratch'));
    expect(readFileSync(join(img.root, 'hello'), 'utf8')).toBe('hi');
    expect(existsSync(join(root, 'scratch'))).toBe(false);
    expect(cache.lookup('pdh1')?.root).toBe(img.root);
    await cache.store('pdh2', file, join(root, 'scratch'));
    // bounded: the least recently used image goes
    expect(cache.lookup('pdh1')).toBeNull();
    expect(existsSync(join(cacheDir, 'podman'))).toBe(true);
  });

  it('names what an archive lacks', async () => {
    const file = join(root, 'bad.tar');
    writeFileSync(file, writeTar([{ path: 'manifest.json', data: '[{"Config":"c.json"}]' }]));
    await expect(readImageArchive(file, join(root, 'parts'))).rejects.toThrow(
      'configuration c.json missing from the archive',
    );
    writeFileSync(file, writeTar([{ path: 'x', data: 'y' }]));
    await expect(readImageArchive(file, join(root, 'parts2'))).rejects.toThrow(
      'not a docker save or OCI archive',
    );
  });
});
