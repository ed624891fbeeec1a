import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { extract } from 'tar-stream';
import { IMAGE_LINK_CLASSES, repoTagOf } from '@svc/contract';
import type { SvcClient } from './client';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/** Where an image archive keeps the configuration and layers of the image it holds. */
export interface ImageLayout {
  /** Path of the configuration JSON inside the archive. */
  config: string;
  /** Paths of the layer archives, bottom first. */
  layers: string[];
}

/**
 * The layout of an image archive as written by `docker save` (manifest.json) or `podman save`
 * (an OCI layout's index.json, which may point at a nested index), read through `json` (the
 * JSON file at a path of the archive, or undefined when there is none). Its first image.
 */
export async function imageLayout(
  json: (path: string) => Promise<Json | undefined>,
): Promise<ImageLayout> {
  const blob = (digest: string) => `blobs/${String(digest).replace(':', '/')}`;
  const manifest = await json('manifest.json');
  if (manifest) {
    const [m] = manifest as Array<{ Config: string; Layers: string[] }>;
    if (!m) throw new Error('manifest.json lists no image');
    return { config: m.Config, layers: m.Layers };
  }
  let m = await json('index.json');
  if (!m) throw new Error('not a docker save or OCI archive (no manifest.json or index.json)');
  while (m.manifests) {
    const first = m.manifests[0];
    if (!first) throw new Error('index.json lists no image');
    const next = await json(blob(first.digest));
    if (!next) throw new Error(`manifest ${first.digest} missing from the archive`);
    m = next;
  }
  return {
    config: blob(m.config.digest),
    layers: (m.layers as Array<{ digest: string }>).map((l) => blob(l.digest)),
  };
}

/** What the registration of an image needs to know of it (containers.md §6). */
export interface ImageInfo {
  /** `sha256:<hex>`: the digest of the image's configuration. */
  id: string;
  /** The image's creation time (its configuration's `created`), or null. */
  created: string | null;
}

/** Entries an image archive's layout and configuration fit in (layers are larger). */
const SMALL = 4 * 1024 * 1024;

/**
 * The id and creation time of the image an archive file holds, read in one pass as a stream:
 * only small entries (manifests, configurations) are kept, so memory does not grow with the
 * image's size.
 */
export async function readImageInfo(path: string): Promise<ImageInfo> {
  const small = new Map<string, Buffer>();
  const parser = extract();
  const reading = pipeline(createReadStream(path), parser);
  for await (const entry of parser) {
    const name = entry.header.name.replace(/^(\.\/|\/)+/, '');
    if (entry.header.type !== 'file' || entry.header.size > SMALL) {
      entry.resume();
      continue;
    }
    const parts: Buffer[] = [];
    for await (const p of entry) parts.push(p as Buffer);
    small.set(name, Buffer.concat(parts));
  }
  await reading;
  const layout = await imageLayout(async (p) => {
    const data = small.get(p.replace(/^(\.\/|\/)+/, ''));
    return data ? (JSON.parse(data.toString('utf8')) as Json) : undefined;
  });
  const config = small.get(layout.config.replace(/^(\.\/|\/)+/, ''));
  if (!config) throw new Error(`configuration ${layout.config} missing from the archive`);
  const created = (JSON.parse(config.toString('utf8')) as Json)['created'];
  return {
    id: `sha256:${createHash('sha256').update(config).digest('hex')}`,
    created: typeof created === 'string' ? created : null,
  };
}

/**
 * Registers an image collection (one `.tar` archive) under its id and `repo:tag` (`repo`
 * alone is `repo:latest`): the `docker_image_hash` and `docker_image_repo+tag` links, with
 * the image's creation time, by which a request's `container_image` finds the newest. Owned
 * by the caller, or by `owner`.
 */
export async function registerImage(
  client: SvcClient,
  collectionUuid: string,
  image: ImageInfo,
  repoTag: string,
  owner?: string,
): Promise<void> {
  const properties = { image_timestamp: image.created ?? new Date().toISOString() };
  for (const [linkClass, name] of [
    [IMAGE_LINK_CLASSES.hash, image.id],
    [IMAGE_LINK_CLASSES.repoTag, repoTagOf(repoTag)],
  ] as const) {
    await client.api.links.create({
      attributes: {
        link_class: linkClass,
        name,
        head_uuid: collectionUuid,
        properties,
        ...(owner ? { owner_uuid: owner } : {}),
      },
    });
  }
}
