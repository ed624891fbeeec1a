import { createHash, randomBytes } from 'node:crypto';
import type { SvcClient } from '@svc/client';
import { deploymentAt, type TestDeployment } from './deployment';
import { signManifestFor } from './signing';

/** Factories for container request tests: image collections and valid request bodies. */

/** A one-file manifest whose PDH no other call of this function shares. */
export function uniqueManifest(name = 'file.txt'): string {
  const content = randomBytes(8).toString('hex');
  const md5 = createHash('md5').update(content).digest('hex');
  return `. ${md5}+${content.length} 0:${content.length}:${name}\n`;
}

/** A fresh one-file manifest signed for the client's token, as a client would save it (storage.md §5). */
function signedManifest(client: SvcClient): string {
  const manifest = uniqueManifest();
  return client.token
    ? signManifestFor(deploymentAt(client.baseUrl), client.token, manifest)
    : manifest;
}

/** A collection made by `client` (in `owner` if given); answers its uuid and PDH. */
export async function makeCollection(
  client: SvcClient,
  attrs: Record<string, unknown> = {},
): Promise<{ uuid: string; pdh: string }> {
  const res = await client.request('POST', '/svc/v1/collections', {
    json: { collection: { manifest_text: signedManifest(client), ...attrs } },
  });
  if (res.status !== 200) throw new Error(`collection: ${res.text}`);
  return { uuid: res.body.uuid, pdh: res.body.portable_data_hash };
}

/** The PDH of a new collection readable by the client's user: a container image. */
export const makeImage = async (client: SvcClient): Promise<string> =>
  (await makeCollection(client, { name: `image ${randomBytes(4).toString('hex')}` })).pdh;

/** A request body that commits: every required field, a tmp output mount, ram and vcpus. */
export function committedRequest(
  image: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    command: ['echo', 'hello'],
    container_image: image,
    cwd: '/tmp',
    output_path: '/out',
    mounts: { '/out': { kind: 'tmp', capacity: 1000000 } },
    runtime_constraints: { ram: 1000000, vcpus: 1 },
    priority: 1,
    state: 'Committed',
    ...extra,
  };
}

/** The same body, uncommitted (priority 0: no container yet). */
export const uncommittedRequest = (image: string, extra: Record<string, unknown> = {}) =>
  committedRequest(image, { state: 'Uncommitted', priority: 0, ...extra });

/** POST /container_requests; throws unless 200. */
export async function createRequest(
  client: SvcClient,
  body: Record<string, unknown>,
): Promise<Record<string, any>> {
  const res = await client.request('POST', '/svc/v1/container_requests', {
    json: { container_request: body },
  });
  if (res.status !== 200) throw new Error(`container request: ${res.status} ${res.text}`);
  return res.body;
}

export const getRequest = async (d: TestDeployment, uuid: string) =>
  (await d.root.request('GET', `/svc/v1/container_requests/${uuid}`)).body as Record<string, any>;

export const getContainer = async (d: TestDeployment, uuid: string) =>
  (await d.root.request('GET', `/svc/v1/containers/${uuid}`)).body as Record<string, any>;

/** A request's or container's attributes, to update with. */
export const updateRequest = (client: SvcClient, uuid: string, attrs: Record<string, unknown>) =>
  client.request('PUT', `/svc/v1/container_requests/${uuid}`, {
    json: { container_request: attrs },
  });
