import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SvcClient } from '@svc/client';
import { newDir, parseManifestTree, serializeManifestTree, type FileNode } from '@svc/blocks';
import { startDispatcher, type Dispatcher } from '@svc/dispatcher';
import { CollectionStore, writeTar } from '@svc/runner';

import type { TestDeployment } from './deployment';
import { getRequest } from './containers';
import { makeUser } from './users';

/** Debian's static busybox (package busybox-static). */
export const BUSYBOX = '/bin/busybox';

const sha256 = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

/**
 * The layers and configuration of the test image: busybox with `sh` and the applets tests use
 * as links, an /etc/passwd, then the given extra layers (whiteouts etc.).
 */
function busyboxImage(
  extraLayers: Buffer[],
  config: Record<string, unknown>,
): { layers: Buffer[]; ids: string[]; configJson: string } {
  const applets = [
    'sh',
    'echo',
    'cat',
    'ls',
    'sleep',
    'head',
    'dd',
    'tail',
    'wget',
    'ln',
    'mkdir',
    'true',
    'env',
    'id',
    'rm',
    'md5sum',
    'grep',
    'sed',
    'cut',
    'touch',
    'wc',
    'sort',
  ];
  const layer = writeTar([
    { path: 'bin', type: 'dir' },
    { path: 'bin/busybox', data: readFileSync(BUSYBOX), mode: 0o755 },
    ...applets.map((a) => ({ path: `bin/${a}`, type: 'symlink' as const, linkname: 'busybox' })),
    { path: 'etc', type: 'dir' },
    {
      path: 'etc/passwd',
      data: 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534::/:/bin/sh\n',
    },
    { path: 'usr', type: 'dir' },
  ]);
  const layers = [layer, ...extraLayers];
  const ids = layers.map((l) => sha256(l));
  const configJson = JSON.stringify({
    architecture: 'amd64',
    os: 'linux',
    config: { Env: ['PATH=/bin', 'IMAGE_VAR=from-image'], Cmd: ['sh'], ...config },
    rootfs: { type: 'layers', diff_ids: ids.map((i) => `sha256:${i}`) },
  });
  return { layers, ids, configJson };
}

/** The test image as an archive in `docker save` format, written here. */
export function busyboxArchive(
  extraLayers: Buffer[] = [],
  config: Record<string, unknown> = {},
  repoTags = ['busybox:test'],
): Buffer {
  const { layers, ids, configJson } = busyboxImage(extraLayers, config);
  const configId = sha256(configJson);
  const manifest = [
    {
      Config: `${configId}.json`,
      RepoTags: repoTags,
      Layers: ids.map((i) => `${i}/layer.tar`),
    },
  ];
  return writeTar([
    ...layers.flatMap((l, i) => [
      { path: ids[i]!, type: 'dir' as const },
      { path: `${ids[i]}/layer.tar`, data: l },
    ]),
    { path: `${configId}.json`, data: configJson },
    { path: 'manifest.json', data: JSON.stringify(manifest) },
  ]);
}

/** The test image as an OCI image layout archive (`podman save --format oci-archive`). */
export function busyboxOciArchive(extraLayers: Buffer[] = []): Buffer {
  const { layers, configJson } = busyboxImage(extraLayers, {});
  const descriptor = (mediaType: string, data: Buffer | string) => ({
    mediaType,
    digest: `sha256:${sha256(data)}`,
    size: Buffer.byteLength(data),
  });
  const manifestJson = JSON.stringify({
    schemaVersion: 2,
    mediaType: 'application/vnd.oci.image.manifest.v1+json',
    config: descriptor('application/vnd.oci.image.config.v1+json', configJson),
    layers: layers.map((l) => descriptor('application/vnd.oci.image.layer.v1.tar', l)),
  });
  const index = {
    schemaVersion: 2,
    manifests: [
      {
        ...descriptor('application/vnd.oci.image.manifest.v1+json', manifestJson),
        annotations: { 'org.opencontainers.image.ref.name': 'busybox:oci' },
      },
    ],
  };
  const blob = (data: Buffer | string) => ({ path: `blobs/sha256/${sha256(data)}`, data });
  return writeTar([
    { path: 'oci-layout', data: JSON.stringify({ imageLayoutVersion: '1.0.0' }) },
    { path: 'blobs', type: 'dir' },
    { path: 'blobs/sha256', type: 'dir' },
    ...layers.map(blob),
    blob(configJson),
    blob(manifestJson),
    { path: 'index.json', data: JSON.stringify(index) },
  ]);
}

/** Saves files as a new collection of `client` (real blocks); answers uuid and PDH. */
export async function saveFiles(
  client: SvcClient,
  files: Record<string, Buffer | string>,
  attrs: Record<string, unknown> = {},
): Promise<{ uuid: string; pdh: string }> {
  const store = new CollectionStore(client);
  const root = newDir();
  for (const [name, data] of Object.entries(files)) {
    const parts = name.split('/');
    let dir = root;
    for (const p of parts.slice(0, -1)) {
      if (!dir.children.has(p)) dir.children.set(p, newDir());
      dir = dir.children.get(p) as typeof root;
    }
    dir.children.set(parts.at(-1)!, await store.writeFile(Buffer.from(data)));
  }
  const rec = await store.create({ manifest_text: serializeManifestTree(root), ...attrs });
  return { uuid: rec['uuid'], pdh: rec['portable_data_hash'] };
}

/** The busybox image saved as a collection holding one .tar file; answers its PDH. */
export async function saveBusyboxImage(
  client: SvcClient,
  extraLayers: Buffer[] = [],
  archive = busyboxArchive(extraLayers),
): Promise<string> {
  const name = `image-${randomBytes(4).toString('hex')}`;
  return (await saveFiles(client, { 'busybox.tar': archive }, { name })).pdh;
}

/** One file of a collection (by uuid or PDH) as text, read through the block service. */
export async function readCollectionFile(
  client: SvcClient,
  id: string,
  path: string,
): Promise<string> {
  const store = new CollectionStore(client);
  let node: any = await store.tree(id);
  for (const p of path.split('/')) node = node?.children?.get(p);
  if (!node || node.kind !== 'file') throw new Error(`${path} not in ${id}`);
  return (await store.readFile(node as FileNode)).toString('utf8');
}

/** The file names of a collection's top directory. */
export async function collectionNames(client: SvcClient, id: string): Promise<string[]> {
  const rec = await client.request('GET', `/svc/v1/collections/${id}`);
  return [...parseManifestTree(rec.body.manifest_text).children.keys()].sort();
}

/**
 * A local dispatcher with an admin token of its own (or `token`: a restarted dispatcher keeps
 * its token and state directory) and a state directory removed by `cleanup`.
 */
export async function startLocalDispatcher(
  d: TestDeployment,
  stateDir = mkdtempSync(join(tmpdir(), 'svc-dispatch-')),
  settings: Record<string, unknown> = {},
  token?: string,
  backend: {
    backend?: string;
    slurmEnv?: NodeJS.ProcessEnv;
    engineEnv?: NodeJS.ProcessEnv;
    log?: (line: string) => void;
    /** Where the dispatcher and its runners reach the API (default: the gateway). */
    apiHost?: string;
  } = {},
): Promise<{ dispatcher: Dispatcher; stateDir: string; token: string; cleanup: () => void }> {
  const admin = token ?? (await makeUser(d, { is_admin: true })).token;
  const { apiHost = d.url, ...rest } = backend;
  const dispatcher = await startDispatcher({
    apiHost,
    token: admin,
    stateDir,
    settings: { Dispatch: { PollInterval: 1 }, LogUpdatePeriod: 1, UsagePeriod: 1, ...settings },
    log: () => undefined,
    ...rest,
  });
  return {
    dispatcher,
    stateDir,
    token: admin,
    cleanup: () => rmSync(stateDir, { recursive: true, force: true }),
  };
}

export const MiB = 1024 * 1024;

/** A log line as the runner writes it: a 9-digit UTC timestamp, a space, the text. */
export const STAMPED = (text: string) =>
  new RegExp(`^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{9}Z ${text}$`, 'm');

/** A committed request running `script` in busybox's sh, with a tmp output at /out. */
export function busyboxRequest(
  image: string,
  script: string,
  size: { tmp?: number; ram?: number } = {},
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    command: ['sh', '-c', script],
    container_image: image,
    cwd: '/',
    output_path: '/out',
    mounts: { '/out': { kind: 'tmp', capacity: size.tmp ?? 10 * MiB } },
    runtime_constraints: { ram: size.ram ?? 256 * MiB, vcpus: 1 },
    priority: 1,
    state: 'Committed',
    ...extra,
  };
}

/** Polls `f` until it gives something truthy. */
export async function until<T>(
  what: string,
  f: () => Promise<T | null | undefined | false>,
  ms = 90_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((res) => setTimeout(res, 200));
  }
}

/** The request once it is Final. */
export const finalRequest = (d: TestDeployment, uuid: string) =>
  until(`request ${uuid} Final`, async () => {
    const r = await getRequest(d, uuid);
    return r['state'] === 'Final' && r;
  });

/**
 * The cgroups of container `uuid`'s runners still there, in every hierarchy: the runner's own
 * (memory, cpu, cpuacct) and the ones podman and docker make beside them (blkio, pids, ...).
 */
export function leftoverCgroups(uuid: string): string[] {
  const root = '/sys/fs/cgroup';
  return readdirSync(root, { withFileTypes: true })
    .filter((h) => h.isDirectory())
    .flatMap((h) => {
      try {
        return readdirSync(join(root, h.name, 'svc'))
          .filter((n) => n.startsWith(`${uuid}-`))
          .map((n) => join(root, h.name, 'svc', n));
      } catch {
        return [];
      }
    });
}
