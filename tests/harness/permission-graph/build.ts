/** Makes a graph's objects through the API, as its spec says, and records them in the model. */
import { addLink } from './apply';
import { PermissionCheckFailure, type GraphCalls } from './calls';
import type { GGroup, GLink, GraphModel, GUser } from './model';
import type { GraphSpec } from './spec';

/**
 * Makes the graph's objects. Independent creations go out together (users; roles;
 * projects of one depth; collections); links one after the other, in order.
 */
export async function buildGraph(
  model: GraphModel,
  calls: GraphCalls,
  spec: GraphSpec,
): Promise<void> {
  // Users one at a time: concurrent activations race on the all-users group's rows of the
  // materialized table (see the report: 422 "duplicate key value violates unique constraint").
  // Their tokens may go out meanwhile.
  const withTokens: Promise<GUser>[] = [];
  for (const [i, u] of spec.users.entries()) {
    const uuid = await makeUser(model, calls, `U${i}`, u);
    withTokens.push(withToken(calls, { name: `U${i}`, uuid, ...u }));
  }
  model.users.push(...(await Promise.all(withTokens)));
  const roles = await Promise.all(
    spec.roles.map((r, i) => makeRole(model, calls, `R${i}`, r.creator)),
  );
  for (const { role, creatorLink } of roles) {
    model.roles.push(role);
    if (creatorLink) model.links.push(creatorLink);
  }
  // Owners resolve against the users and the projects before each one.
  const n = model.users.length;
  const ownerIndex = spec.projects.map((p, i) => p.owner % (n + i));
  const depth: number[] = [];
  ownerIndex.forEach((k, i) => (depth[i] = k < n ? 0 : depth[k - n]! + 1));
  const made: GGroup[] = [];
  for (let level = 0; level <= Math.max(-1, ...depth); level += 1) {
    const batch = spec.projects.map((p, i) => ({ p, i })).filter(({ i }) => depth[i] === level);
    await Promise.all(
      batch.map(async ({ p, i }) => {
        const k = ownerIndex[i]!;
        const owner = k < n ? model.users[k]!.uuid : made[k - n]!.uuid;
        made[i] = await makeOwned(model, calls, 'groups', `P${i}`, owner, p.byOwner);
      }),
    );
  }
  for (const p of made) model.projects.push({ ...p, trashed: false });
  const owners = model.owners();
  const collections = await Promise.all(
    spec.collections.map((c, i) =>
      makeOwned(model, calls, 'collections', `C${i}`, owners[c.owner % owners.length]!, c.byOwner),
    ),
  );
  model.collections.push(...collections);
  for (const l of spec.links) await addLink(model, calls, l);
}

async function makeUser(
  model: GraphModel,
  calls: GraphCalls,
  name: string,
  u: { active: boolean; admin: boolean },
): Promise<string> {
  const made = await calls.change(
    calls.asRoot(),
    'POST',
    '/svc/v1/users',
    {
      json: {
        user: {
          email: `perm-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`,
          is_active: u.active,
          is_admin: u.admin,
        },
      },
    },
    200,
  );
  const uuid = made.body.uuid as string;
  model.names.set(uuid, name);
  return uuid;
}

/** A token for the user, and a client using it (sharing root's connections). */
async function withToken(calls: GraphCalls, u: Omit<GUser, 'client'>): Promise<GUser> {
  const token = await calls.root.request('POST', '/svc/v1/api_client_authorizations', {
    json: { api_client_authorization: { owner_uuid: u.uuid } },
  });
  calls.stats.requests += 1;
  if (token.status !== 200) throw new Error(`token: ${token.text}`);
  return { ...u, client: calls.root.withToken(`v2/${token.body.uuid}/${token.body.api_token}`) };
}

/** A role, made by an active creator (who gets a can_manage link) or by root. */
async function makeRole(
  model: GraphModel,
  calls: GraphCalls,
  name: string,
  creatorPick: number | null,
): Promise<{ role: GGroup; creatorLink: GLink | null }> {
  const creator = creatorPick === null ? null : model.users[creatorPick % model.users.length]!;
  const by = creator?.active ? calls.asUser(creator) : calls.asRoot();
  const res = await calls.change(
    by,
    'POST',
    '/svc/v1/groups',
    { json: { group: { group_class: 'role', name: `role ${name}` } } },
    200,
  );
  const uuid = res.body.uuid as string;
  model.names.set(uuid, name);
  const role = { name, uuid, owner: res.body.owner_uuid as string, trashed: false };
  if (by.client === calls.root) return { role, creatorLink: null };
  // permissions.md §4: "creates a can_manage link from the creator to the new role".
  const found = await calls.root.request('GET', '/svc/v1/links', {
    query: {
      filters: [
        ['link_class', '=', 'permission'],
        ['tail_uuid', '=', creator!.uuid],
        ['head_uuid', '=', uuid],
      ],
    },
  });
  calls.stats.requests += 1;
  const items = found.body.items as { uuid: string; name: string }[];
  if (items.length !== 1 || items[0]!.name !== 'can_manage') {
    throw new PermissionCheckFailure(
      calls.report([`role ${name}: creator link is ${model.symbolic(JSON.stringify(items))}`]),
    );
  }
  return {
    role,
    creatorLink: { uuid: items[0]!.uuid, tail: creator!.uuid, head: uuid, name: 'can_manage' },
  };
}

/** A project or collection in `owner`: made by the owner if asked and able, else by root. */
async function makeOwned(
  model: GraphModel,
  calls: GraphCalls,
  type: 'groups' | 'collections',
  name: string,
  owner: string,
  byOwner: boolean,
): Promise<GGroup> {
  const user = model.users.find((u) => u.uuid === owner);
  const mine = byOwner && user?.active;
  const attrs = {
    ...(type === 'groups'
      ? { group_class: 'project', name: `project ${name}` }
      : { name: `collection ${name}` }),
    ...(mine ? {} : { owner_uuid: owner }),
  };
  const res = await calls.change(
    mine ? calls.asUser(user!) : calls.asRoot(),
    'POST',
    `/svc/v1/${type}`,
    { json: { [type === 'groups' ? 'group' : 'collection']: attrs } },
    200,
  );
  model.names.set(res.body.uuid, name);
  return { name, uuid: res.body.uuid, owner, trashed: false };
}
