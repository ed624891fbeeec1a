import { existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyLayer, ImageCache, parseImageArchive } from './image';
import { writeTar } from './tar-write';

/** execution.md §3.1: layers in order, whiteouts, entries that would leave the root refused. */
describe('image layers', () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'svc-image-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('applies layers in order with whiteouts and opaque directories', () => {
    applyLayer(
      root,
      writeTar([
        { path: 'a', type: 'dir' },
        { path: 'a/x', data: 'x1' },
        { path: 'a/y', data: 'y1' },
        { path: 'b', type: 'dir' },
        { path: 'b/z', data: 'z1' },
      ]),
    );
    applyLayer(
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

  it('refuses entries whose path or link target leaves the root, and writes through symlinks', () => {
    const refused = applyLayer(
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

  it('reads Env, User and WorkingDir of a docker save archive and caches by PDH', () => {
    const layer = writeTar([{ path: 'hello', data: 'hi' }]);
    const archive = writeTar([
      { path: 'l1/layer.tar', data: layer },
      {
        path: 'c.json',
        data: JSON.stringify({ config: { Env: ['A=1'], User: '7', WorkingDir: '/w', Cmd: ['x'] } }),
      },
      {
        path: 'manifest.json',
        data: JSON.stringify([{ Config: 'c.json', Layers: ['l1/layer.tar'] }]),
      },
    ]);
    expect(parseImageArchive(archive).config).toEqual({
      Env: ['A=1'],
      User: '7',
      WorkingDir: '/w',
    });
    const cache = new ImageCache(root, 1);
    // the engines' use markers share the folder and are not images to evict
    mkdirSync(join(root, 'podman'));
    expect(cache.lookup('pdh1')).toBeNull();
    const img = cache.store('pdh1', archive);
    expect(readFileSync(join(img.root, 'hello'), 'utf8')).toBe('hi');
    expect(cache.lookup('pdh1')?.root).toBe(img.root);
    cache.store('pdh2', archive);
    // bounded: the least recently used image goes
    expect(cache.lookup('pdh1')).toBeNull();
    expect(existsSync(join(root, 'podman'))).toBe(true);
  });
});
