import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { FileNode } from '@svc/blocks';
import { EngineImages } from './engine-images';
import { ImageCache, type LoadedImage } from './image';
import { ContainerError, materialize } from './mounts';
import { engineCommand, imageTag, ociImage, type OciEngine } from './oci';
import type { CollectionStore } from './store';

/** What loading an image needs of the run. */
export interface ImageLoading {
  store: CollectionStore;
  cacheDir: string;
  /** The run's work directory (the archive is written there, then removed). */
  work: string;
  engine: OciEngine | null;
  note: (text: string) => void;
  /** Called before a load that takes time (a cached image costs no request for it). */
  loading: () => Promise<unknown>;
}

/**
 * The image collection's one `.tar` file written to the work directory, streamed and checked
 * block by block: a large image never sits in memory.
 */
async function archiveFile(l: ImageLoading, pdh: string): Promise<string> {
  await l.loading();
  const tree = await l.store.tree(pdh);
  const tars = [...tree.children].filter(([n, node]) => node.kind === 'file' && n.endsWith('.tar'));
  if (tars.length !== 1 || tree.children.size !== 1) {
    throw new Error('the collection must hold exactly one .tar file');
  }
  const [name, node] = tars[0]! as [string, FileNode];
  const file = join(l.work, 'image.tar');
  await materialize(l.store, node, file);
  l.note(`image archive ${name} read (${node.size} bytes), loading`);
  return file;
}

/** podman or docker: the image in the engine's own store, loaded once per PDH. */
async function engineImage(l: ImageLoading, engine: OciEngine, pdh: string): Promise<LoadedImage> {
  const cached = new EngineImages(engineCommand(engine), join(l.cacheDir, engine));
  // before the load: another runner's eviction must find this image recently used
  cached.touch(imageTag(pdh));
  const image = await ociImage(engine, pdh, () => archiveFile(l, pdh), l.work);
  l.note(`image ${pdh} ${image.loaded ? 'loaded into' : 'found in'} ${engine} as ${image.ref}`);
  // only a load grows the store
  if (image.loaded) {
    for (const gone of await cached.evict(image.ref).catch(() => [])) {
      l.note(`image ${gone} removed from ${engine} (least recently used)`);
    }
  }
  return { root: '', config: image.config, ref: image.ref };
}

/** bubblewrap: the image root, from the cache or unpacked from the archive. */
async function cachedRoot(l: ImageLoading, pdh: string): Promise<LoadedImage> {
  const cache = new ImageCache(l.cacheDir);
  const hit = cache.lookup(pdh);
  if (hit) {
    l.note(`image ${pdh} found in the cache`);
    return hit;
  }
  const archive = await archiveFile(l, pdh);
  const image = await cache.store(pdh, archive, join(l.work, 'image-parts'));
  rmSync(archive, { force: true });
  for (const r of image.refused) l.note(`image entry refused (leaves the root): ${r}`);
  return image;
}

/**
 * The container's image (execution.md §3.1), ready to run: a cached root for bubblewrap, or
 * the engine's image. Any failure is the contract's "cannot load image <pdh>: <detail>".
 */
export async function loadImage(l: ImageLoading, pdh: string): Promise<LoadedImage> {
  try {
    return await (l.engine ? engineImage(l, l.engine, pdh) : cachedRoot(l, pdh));
  } catch (err) {
    throw new ContainerError(`cannot load image ${pdh}: ${(err as Error).message}`);
  }
}
