import type { SvcClient } from '@svc/client';
import { runTrashSweep } from '@svc/core';
import { homeCore, type TestDeployment } from './deployment';

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
