import type { Json } from './json';
import { createReadStream, createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { extract, pack, type Header, type Pack } from 'tar-stream';
import type { TarEntryStream } from './tar-read';

/** The annotations an OCI index names its images with (podman and docker read both). */
const NAME_ANNOTATIONS = ['org.opencontainers.image.ref.name', 'io.containerd.image.name'];

/** Entry types an image archive may hold (devices, fifos and the like are left out). */
const KEPT = new Set(['file', 'contiguous-file', 'directory', 'symlink', 'link']);

async function textOf(body: AsyncIterable<unknown>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const piece of body) parts.push(piece as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

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

/** The archive's own names, replaced: `ref` for a docker save manifest, none in an OCI index. */
function renamed(path: string, text: string, ref: string): string | null {
  if (path === 'manifest.json') return JSON.stringify(namedManifest(JSON.parse(text), ref));
  if (path === 'index.json') return JSON.stringify(unnamedIndex(JSON.parse(text)));
  return null;
}

/**
 * Writes the archive `from` to `to` as `podman load` or `docker load` must see it: named
 * `ref` only. A load applies the names an archive carries, so one naming itself after another
 * image's runner tag (`svc-image:<hash>`) would repoint that tag, and other containers would
 * run its image in place of theirs (execution.md §3.1: no container can change a cached
 * image). An OCI archive's names are dropped; the runner tags what it loads. Streamed: every
 * entry but the two small name files passes through as it is.
 */
export async function writeArchiveNamed(from: string, to: string, ref: string): Promise<void> {
  const parser = extract();
  const packer = pack();
  const writing = pipeline(packer, createWriteStream(to));
  const reading = pipeline(createReadStream(from), parser);
  try {
    for await (const entry of parser) await copyEntry(packer, entry, ref);
    await reading;
    packer.finalize();
    await writing;
  } catch (err) {
    parser.destroy();
    packer.destroy();
    await Promise.allSettled([reading, writing]);
    throw err;
  }
}

/** One entry into the new archive: the name files rewritten, the others as they are. */
async function copyEntry(packer: Pack, entry: TarEntryStream, ref: string): Promise<void> {
  const h: Header = entry.header;
  const path = h.name.replace(/^(\.\/|\/)+/, '');
  if (!KEPT.has(h.type ?? 'file')) {
    entry.resume();
    return;
  }
  if (path === 'manifest.json' || path === 'index.json') {
    const text = renamed(path, await textOf(entry), ref)!;
    await new Promise<void>((resolve, reject) =>
      packer.entry({ ...h, size: Buffer.byteLength(text) }, text, (e) =>
        e ? reject(e) : resolve(),
      ),
    );
    return;
  }
  await pipeline(entry, packer.entry(h));
}
