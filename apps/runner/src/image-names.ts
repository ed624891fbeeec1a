import type { Json } from './json';
import { readTar, type TarEntry } from './tar';
import { writeTar, type TarInput } from './tar-write';

/** The annotations an OCI index names its images with (podman and docker read both). */
const NAME_ANNOTATIONS = ['org.opencontainers.image.ref.name', 'io.containerd.image.name'];

const jsonOf = (e: TarEntry): Json => JSON.parse(e.data.toString('utf8'));

/** A `docker save` manifest reduced to its first image (the one that runs), named `ref`. */
function namedManifest(manifest: Json, ref: string): Json {
  const [first] = manifest as Json[];
  return first ? [{ ...first, RepoTags: [ref] }] : manifest;
}

/** An OCI index whose images carry no names. */
function unnamedIndex(index: Json): Json {
  const manifests = (index.manifests ?? []) as Json[];
  return {
    ...index,
    manifests: manifests.map((m) => ({
      ...m,
      annotations: Object.fromEntries(
        Object.entries(m.annotations ?? {}).filter(([k]) => !NAME_ANNOTATIONS.includes(k)),
      ),
    })),
  };
}

const asInput = (e: TarEntry): TarInput | null =>
  e.type === 'other'
    ? null
    : { path: e.path, type: e.type, mode: e.mode, data: e.data, linkname: e.linkname };

/**
 * The archive as `podman load` or `docker load` must see it: named `ref` only. A load applies
 * the names an archive carries, so one naming itself after another image's runner tag
 * (`svc-image:<hash>`) would repoint that tag, and other containers would run its image in
 * place of theirs (execution.md §3.1: no container can change a cached image). An OCI
 * archive's names are dropped; the runner tags what it loads.
 */
export function archiveNamed(archive: Buffer, ref: string): Buffer {
  const entries = readTar(archive).map((e) => {
    if (e.type !== 'file') return e;
    if (e.path === 'manifest.json') {
      return { ...e, data: Buffer.from(JSON.stringify(namedManifest(jsonOf(e), ref))) };
    }
    if (e.path === 'index.json') {
      return { ...e, data: Buffer.from(JSON.stringify(unnamedIndex(jsonOf(e)))) };
    }
    return e;
  });
  return writeTar(entries.map(asInput).filter((e): e is TarInput => e !== null));
}
