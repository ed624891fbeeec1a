import { archiveNamed } from './image-names';
import { readTar } from './tar';
import { writeTar } from './tar-write';

/** execution.md §3.1 for podman and docker: a load names the image after its PDH only. */
describe('archiveNamed', () => {
  const ref = 'svc-image:0123456789abcdef0123456789abcdef';
  const json = (archive: Buffer, path: string) =>
    JSON.parse(
      readTar(archive)
        .find((e) => e.path === path)!
        .data.toString('utf8'),
    );

  it("a docker save archive: its first image, named ref; another image's tag is gone", () => {
    const manifest = [
      { Config: 'c.json', RepoTags: ['svc-image:ffff', 'busybox:test'], Layers: ['l/layer.tar'] },
      { Config: 'd.json', RepoTags: ['other:1'], Layers: ['m/layer.tar'] },
    ];
    const named = archiveNamed(
      writeTar([{ path: 'manifest.json', data: JSON.stringify(manifest) }]),
      ref,
    );
    expect(json(named, 'manifest.json')).toEqual([
      { Config: 'c.json', RepoTags: [ref], Layers: ['l/layer.tar'] },
    ]);
  });

  it("an OCI archive: the index's name annotations go, the others stay", () => {
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
    const named = archiveNamed(
      writeTar([{ path: 'index.json', data: JSON.stringify(index) }]),
      ref,
    );
    expect(json(named, 'index.json').manifests).toEqual([
      { digest: 'sha256:aa', annotations: { 'org.opencontainers.image.created': '2026-01-01' } },
    ]);
  });

  it('every other entry is kept as it was, long paths and links too', () => {
    const long = `blobs/sha256/${'a'.repeat(64)}/${'b'.repeat(40)}`;
    const entries = [
      { path: 'blobs', type: 'dir' as const },
      { path: long, data: 'layer bytes', mode: 0o600 },
      { path: 'link', type: 'symlink' as const, linkname: 'blobs' },
      { path: 'hard', type: 'hardlink' as const, linkname: long },
      { path: 'manifest.json', data: '[]' },
    ];
    const named = readTar(archiveNamed(writeTar(entries), ref));
    expect(named.map((e) => [e.path, e.type, e.linkname, e.data.toString()])).toEqual([
      ['blobs', 'dir', '', ''],
      [long, 'file', '', 'layer bytes'],
      ['link', 'symlink', 'blobs', ''],
      ['hard', 'hardlink', long, ''],
      ['manifest.json', 'file', '', '[]'],
    ]);
    expect(named[1]!.mode).toBe(0o600);
  });
});
