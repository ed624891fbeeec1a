import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTar } from '@svc/runner';
import { BlockProxy } from '../harness/block-proxy';
import { useDeployment } from '../harness/deployment';
import { volumeDirs, withVolumes } from '../harness/storage';
import { makeUser, type TestUser } from '../harness/users';
import { runSvc, SVC_BIN } from './run-svc';

/** `svc put`, `svc get` with a destination, `svc ls`: files in and out of collections. */
jest.setTimeout(60_000);
const d = useDeployment(withVolumes(volumeDirs(1)));
let home: string;
let user: TestUser;
let env: Record<string, string>;
let src: string;
const BLOCK = 1000;

/** A tree: files smaller and larger than a block, an empty file, a nested and an empty dir. */
function makeTree(root: string): Record<string, Buffer> {
  const files: Record<string, Buffer> = {
    'a.txt': Buffer.from('hello\n'),
    'big.bin': randomBytes(3 * BLOCK + 17),
    'empty.txt': Buffer.alloc(0),
    'sub/b.txt': randomBytes(400),
    'sub/deeper/c with space.txt': randomBytes(900),
  };
  for (const [path, data] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), data);
  }
  mkdirSync(join(root, 'nothing'), { recursive: true });
  return files;
}

let files: Record<string, Buffer>;
beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'svc-cli-files-'));
  user = await makeUser(d.current, { username: `clifiles${Date.now()}` });
  env = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_CACHE_HOME: join(home, 'cache'),
    SVC_API_HOST: d.current.url,
    SVC_API_TOKEN: user.token,
    SVC_BLOCK_SIZE: String(BLOCK),
  };
  src = join(home, 'src');
  files = makeTree(src);
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

const svc = (args: string[], extra: Record<string, string> = {}) =>
  runSvc(args, { ...env, ...extra });

/** Every file under a directory, relative path → bytes. */
function readTree(root: string): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  const walk = (dir: string, rel: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(join(dir, e.name), r);
      else out[r] = readFileSync(join(dir, e.name));
    }
  };
  walk(root, '');
  return out;
}

describe('svc put, ls, get', () => {
  let uuid: string;
  let project: string;
  beforeAll(async () => {
    project = (
      await user.client.api.groups.create({
        attributes: { name: `files ${Date.now()}`, group_class: 'project' },
      })
    ).uuid;
    const put = await svc(['put', src, '--project', project, '--name', 'my files']);
    expect([put.code, put.stderr.includes('svc:')]).toEqual([0, false]);
    uuid = put.stdout.trim();
    expect(put.stderr).toMatch(/put \[#+\] 4323 of 4323 bytes \(100%\), [0-9.]+ MiB\/s/);
  });

  it('puts a directory’s contents into a new collection in the project, with its name', async () => {
    expect(uuid).toMatch(/^home1-4zz18-[a-z0-9]{15}$/);
    const c = await user.client.api.collections.get({ uuid });
    // file_count counts (stream, name) pairs: the empty directory's `.` marker is one.
    expect([c.name, c.owner_uuid, c.file_count, c.file_size_total]).toEqual([
      'my files',
      project,
      6,
      4323,
    ]);
    // Blocks of at most SVC_BLOCK_SIZE bytes, small files packed together.
    const sizes = [...c.manifest_text.matchAll(/ [0-9a-f]{32}\+([0-9]+)/g)].map((m) =>
      Number(m[1]),
    );
    expect(Math.max(...sizes)).toBeLessThanOrEqual(BLOCK);
    expect(c.manifest_text).toMatch(/^\.\/nothing d41d8cd98f00b204e9800998ecf8427e\+0 0:0:\.$/m);
  });

  it('lists the top, a directory and a file', async () => {
    const top = await svc(['ls', uuid, '--json']);
    expect(JSON.parse(top.stdout)).toEqual([
      { name: 'a.txt', type: 'file', size: 6 },
      { name: 'big.bin', type: 'file', size: 3017 },
      { name: 'empty.txt', type: 'file', size: 0 },
      { name: 'nothing/', type: 'directory', size: 0 },
      { name: 'sub/', type: 'directory', size: 1300 },
    ]);
    const sub = await svc(['ls', `${uuid}/sub`]);
    expect(sub.code).toBe(0);
    expect(sub.stdout).toMatch(/^400 +b\.txt$/m);
    expect(sub.stdout).toMatch(/^900 +deeper\/$/m);
    const missing = await svc(['ls', `${uuid}/nope`]);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('no such file or directory');
  });

  it('gets the whole collection, a directory and one file, byte for byte', async () => {
    const all = join(home, 'all');
    const r = await svc(['get', uuid, all]);
    expect([r.code, r.stderr.includes('svc:')]).toEqual([0, false]);
    expect(r.stderr).toMatch(/get \[#+\] 4323 of 4323 bytes \(100%\)/);
    expect(readTree(all)).toEqual(files);
    expect(existsSync(join(all, 'nothing'))).toBe(true);
    const sub = join(home, 'sub-only');
    expect((await svc(['get', `${uuid}/sub/deeper`, sub])).code).toBe(0);
    expect(readTree(sub)).toEqual({ 'c with space.txt': files['sub/deeper/c with space.txt'] });
    mkdirSync(join(home, 'into'));
    expect((await svc(['get', `${uuid}/big.bin`, join(home, 'into')])).code).toBe(0);
    expect(readFileSync(join(home, 'into', 'big.bin'))).toEqual(files['big.bin']);
    const pdh = (await user.client.api.collections.get({ uuid })).portable_data_hash;
    expect((await svc(['get', `${pdh}/a.txt`, join(home, 'a-copy.txt')])).code).toBe(0);
    expect(readFileSync(join(home, 'a-copy.txt'), 'utf8')).toBe('hello\n');
  });

  it('refuses a block whose bytes do not match its MD5', async () => {
    const proxy = await new BlockProxy(d.current.url).start();
    try {
      proxy.corruptReads = true;
      const r = await svc(['get', `${uuid}/a.txt`, join(home, 'bad.txt')], {
        SVC_API_HOST: proxy.url,
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/checksum mismatch/);
    } finally {
      await proxy.close();
    }
  });
});

describe('svc put after an interrupt', () => {
  it('resumes: blocks stored before are not sent again, and the collection is whole', async () => {
    const dir = join(home, 'resume');
    mkdirSync(dir);
    const data = randomBytes(10 * BLOCK);
    writeFileSync(join(dir, 'data.bin'), data);
    const proxy = await new BlockProxy(d.current.url).start();
    try {
      proxy.holdPutsAfter = 3;
      const args = [SVC_BIN, 'put', dir, '--threads', '1', '--name', 'resumed'];
      const childEnv = { PATH: process.env['PATH'], ...env, SVC_API_HOST: proxy.url };
      const child = spawn(process.execPath, args, { env: childEnv, stdio: 'ignore' });
      const stateDir = join(home, 'cache', 'svc', 'put');
      const stored = () => {
        if (!existsSync(stateDir)) return 0;
        const f = readdirSync(stateDir).find((n) => n.endsWith('.json'));
        if (!f) return 0;
        return Object.keys(JSON.parse(readFileSync(join(stateDir, f), 'utf8')).blocks).length;
      };
      while (stored() < 3) await new Promise((r) => setTimeout(r, 20));
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
      proxy.holdPutsAfter = null;
      const before = proxy.puts;
      const again = await svc(['put', dir, '--threads', '1', '--name', 'resumed'], {
        SVC_API_HOST: proxy.url,
      });
      expect(again.code).toBe(0);
      expect(again.stderr).toContain('resuming: 3 blocks already stored');
      expect(proxy.puts - before).toBe(7);
      const out = join(home, 'resumed-out');
      expect((await svc(['get', again.stdout.trim(), out])).code).toBe(0);
      expect(readFileSync(join(out, 'data.bin'))).toEqual(data);
      expect(readdirSync(stateDir).filter((n) => n.endsWith('.json'))).toEqual([]);
    } finally {
      await proxy.close();
    }
  });
});

describe('svc image put (containers.md §6)', () => {
  /** A docker save archive of a one-file image; its id is the digest of its configuration. */
  function archive(created: string): { path: string; id: string } {
    const layer = writeTar([{ path: 'hello', data: 'hi' }]);
    const config = JSON.stringify({ created, config: { Env: ['A=1'] } });
    const id = createHash('sha256').update(config).digest('hex');
    const path = join(home, `image-${created.slice(0, 4)}.tar`);
    writeFileSync(
      path,
      writeTar([
        { path: 'l/layer.tar', data: layer },
        { path: `${id}.json`, data: config },
        {
          path: 'manifest.json',
          data: JSON.stringify([{ Config: `${id}.json`, Layers: ['l/layer.tar'] }]),
        },
      ]),
    );
    return { path, id: `sha256:${id}` };
  }

  it('uploads the archive as a collection of its own and registers its id and name', async () => {
    const img = archive('2026-03-01T10:00:00Z');
    const put = await svc(['image', 'put', img.path, 'lab/tool', '--json']);
    expect([put.code, put.stderr.includes('svc:')]).toEqual([0, false]);
    const out = JSON.parse(put.stdout);
    expect(out).toMatchObject({ image_id: img.id, name: 'lab/tool:latest' });
    const coll = await user.client.api.collections.get({ uuid: out.uuid });
    expect(coll.properties).toEqual({ 'docker-image-repo-tag': 'lab/tool:latest' });
    expect(coll.portable_data_hash).toBe(out.portable_data_hash);
    // the archive, whole, is the collection's one file (in small blocks here: SVC_BLOCK_SIZE)
    expect(coll.manifest_text).toMatch(/^\. ([0-9a-f]{32}\+\d+\S* )+0:\d+:image-2026\.tar\n$/);
    const links = await user.client.api.links.list({
      filters: [['head_uuid', '=', out.uuid]],
      order: ['link_class'],
    });
    expect(links.items.map((l) => [l.link_class, l.name, l.properties])).toEqual([
      ['docker_image_hash', img.id, { image_timestamp: '2026-03-01T10:00:00Z' }],
      ['docker_image_repo+tag', 'lab/tool:latest', { image_timestamp: '2026-03-01T10:00:00Z' }],
    ]);
  });

  it('refuses what is not an image archive, with exit 2 and nothing uploaded', async () => {
    const notTar = join(home, 'image.zip');
    writeFileSync(notTar, 'x');
    const wrongName = await svc(['image', 'put', notTar, 'lab/tool:1']);
    expect([wrongName.code, wrongName.stderr]).toEqual([
      2,
      expect.stringContaining('the archive must be a .tar file'),
    ]);
    const bare = join(home, 'bare.tar');
    writeFileSync(bare, writeTar([{ path: 'x', data: 'y' }]));
    const notImage = await svc(['image', 'put', bare, 'lab/tool:1']);
    expect([notImage.code, notImage.stderr]).toEqual([
      2,
      expect.stringContaining('not a docker save or OCI archive'),
    ]);
  });
});
