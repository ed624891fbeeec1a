import type { SvcClient } from '@svc/client';
import { runTrashSweep } from '@svc/core';
import { homeCore, type TestDeployment } from './deployment';
import { makeUser } from './users';

/** POST /svc/v1/groups as this client; throws unless 200. */
export async function makeProject(
  client: SvcClient,
  attrs: Record<string, unknown> = {},
): Promise<Record<string, any>> {
  const res = await client.request('POST', '/svc/v1/groups', {
    json: { group: { group_class: 'project', ...attrs } },
  });
  if (res.status !== 200) throw new Error(`group: ${res.status} ${res.text}`);
  return res.body;
}

/** A permission link tail → head made by `client` (which needs manage on head). */
export async function share(
  client: SvcClient,
  tail: string,
  head: string,
  name: 'can_read' | 'can_write' | 'can_manage',
): Promise<string> {
  const res = await client.request('POST', '/svc/v1/links', {
    json: { link: { link_class: 'permission', name, tail_uuid: tail, head_uuid: head } },
  });
  if (res.status !== 200) throw new Error(`link: ${res.status} ${res.text}`);
  return res.body.uuid;
}

/** The home cluster's trash sweep, run once as if at `ms` (a clock moved past trash_at, delete_at). */
export const sweepAt = (d: TestDeployment, ms: number) =>
  runTrashSweep({
    db: homeCore(d).db,
    cluster: d.config.Clusters[d.home.id]!,
    now: () => ms,
  });

/**
 * Trash and untrash need write permission (groups.md §6): a reader of `project` gets 403, a
 * stranger 404, a writer may untrash. `path` is the object's API path (`groups/<uuid>`, …), an
 * object of `owner` that `project` shares with whoever it is shared with.
 */
export async function expectTrashNeedsWrite(
  d: TestDeployment,
  owner: { client: SvcClient },
  project: string,
  path: string,
): Promise<void> {
  const [reader, stranger, writer] = await Promise.all([makeUser(d), makeUser(d), makeUser(d)]);
  const post = (u: { client: SvcClient }, action: string) =>
    u.client.request('POST', `/svc/v1/${path}/${action}`);
  const uuid = path.split('/')[1];
  await share(owner.client, reader.uuid, project, 'can_read');
  await share(owner.client, writer.uuid, project, 'can_write');
  expect((await post(reader, 'trash')).status).toBe(403);
  expect((await post(stranger, 'trash')).status).toBe(404);
  expect((await post(owner, 'trash')).status).toBe(200);
  const res = await post(reader, 'untrash');
  expect([res.status, res.body.errors]).toEqual([
    403,
    [`Forbidden: insufficient permission to modify ${uuid}`],
  ]);
  expect((await post(stranger, 'untrash')).status).toBe(404);
  expect((await post(writer, 'untrash')).status).toBe(200);
}

/** An untrash answer as the trash tests compare it: status, name and the cleared trash fields. */
export const untrashed = (res: { status: number; body: Record<string, unknown> }) => [
  res.status,
  res.body['name'],
  res.body['is_trashed'],
  res.body['trash_at'],
  res.body['delete_at'],
];
