import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { writeArchiveNamed } from './image-names';
import { eachTarEntry, type TarHeader } from './tar-read';
import { writeTar } from './tar-write';

/** Every entry of an archive with its bytes as text. */
async function readTar(archive: Buffer): Promise<(TarHeader & { data: string })[]> {
  const out: (TarHeader & { data: string })[] = [];
  await eachTarEntry(Readable.from([archive]), async (h, body) => {
    const parts: Buffer[] = [];
    for await (const p of body) parts.push(p as Buffer);
    out.push({ ...h, data: Buffer.concat(parts).toString('utf8') });
  });
  return out;
}

/** execution.md §3.1 for podman and docker: a load names the image after its PDH only. */
describe('writeArchiveNamed', () => {
  const ref = 'svc-image:0123456789abcdef0123456789abcdef';
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'svc-names-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const archiveNamed = async (archive: Buffer, name: string): Promise<Buffer> => {
    writeFileSync(join(dir, 'in.tar'), archive);
    await writeArchiveNamed(join(dir, 'in.tar'), join(dir, 'out.tar'), name);
    return readFileSync(join(dir, 'out.tar'));
  };
  const json = async (archive: Buffer, path: string) =>
    JSON.parse((await readTar(archive)).find((e) => e.path === path)!.data);

  it("a docker save archive: its first image, named ref; another image's tag is gone", async () => {
    const manifest = [
      { Config: 'c.json', RepoTags: ['svc-image:ffff', 'busybox:test'], Layers: ['l/layer.tar'] },
      { Config: 'd.json', RepoTags: ['other:1'], Layers: ['m/layer.tar'] },
    ];
    const named = await archiveNamed(
      writeTar([{ path: 'manifest.json', data: JSON.stringify(manifest) }]),
      ref,
    );
    expect(await json(named, 'manifest.json')).toEqual([
      { Config: 'c.json', RepoTags: [ref], Layers: ['l/layer.tar'] },
    ]);
  });

  it("an OCI archive: the index's name annotations go, the others stay", async () => {
    const index = {
      schemaVersion: 2,
      manifests: [
        {
          digest: 'sha256:aa',
          annotations: {
            'org.opencontainers.image.ref.name': 'svc-image:ffff',
            'io.containerd.image.name': 'docker.io/library/svc-image:ffff',
            'org.opencontainers.image.created': '2026-01-01',
          },
        },
      ],
    };
    const named = await archiveNamed(
      writeTar([{ path: 'index.json', data: JSON.stringify(index) }]),
      ref,
    );
    expect((await json(named, 'index.json')).manifests).toEqual([
      { digest: 'sha256:aa', annotations: { 'org.opencontainers.image.created': '2026-01-01' } },
    ]);
  });

  it('every other entry is kept as it was, long paths and links too', async () => {
    const long = `blobs/sha256/${'a'.repeat(64)}/${'b'.repeat(40)}`;
    const entries = [
      { path: 'blobs', type: 'dir' as const },
      { path: long, data: 'layer bytes', mode: 0o600 },
      { path: 'link', type: 'symlink' as const, linkname: 'blobs' },
      { path: 'hard', type: 'hardlink' as const, linkname: long },
      { path: 'manifest.json', data: '[]' },
    ];
    const named = await readTar(await archiveNamed(writeTar(entries), ref));
    expect(named.map((e) => [e.path, e.type, e.linkname, e.data])).toEqual([
      ['blobs', 'dir', '', ''],
      [long, 'file', '', 'layer bytes'],
      ['link', 'symlink', 'blobs', ''],
      ['hard', 'hardlink', long, ''],
      ['manifest.json', 'file', '', '[]'],
    ]);
    expect(named[1]!.mode).toBe(0o600);
  });
});
