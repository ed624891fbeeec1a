/**
 * Changes a graph through the API, as root, and updates the model with what the contract says
 * each change does; the expected status comes from the oracle of the graph before the change.
 */
import type { GraphCalls } from './calls';
import { isLevelName, levelOfName, LINK_NAMES, type GraphModel } from './model';
import type { Change, LinkSpec } from './spec';

export async function applyChange(
  model: GraphModel,
  calls: GraphCalls,
  change: Change,
): Promise<boolean> {
  switch (change.kind) {
    case 'addLink':
      return addLink(model, calls, change);
    case 'deleteLink': {
      const l = model.links[change.pick % Math.max(1, model.links.length)];
      if (!l) return false;
      await calls.change(calls.asRoot(), 'DELETE', `/svc/v1/links/${l.uuid}`, {}, 200);
      model.links = model.links.filter((x) => x !== l);
      return true;
    }
    case 'relevelLink': {
      const l = model.links[change.pick % Math.max(1, model.links.length)];
      if (!l) return false;
      const res = await calls.change(
        calls.asRoot(),
        'PUT',
        `/svc/v1/links/${l.uuid}`,
        { json: { link: { name: LINK_NAMES[change.level] } } },
        200,
      );
      calls.expectField(res, 'name', LINK_NAMES[change.level]);
      l.name = LINK_NAMES[change.level];
      // §3: "Updating a link to a level keeps the link and deletes any other overlapping
      // link" (can_login links do not overlap: they are not among the three levels).
      if (isLevelName(l.name)) {
        model.links = model.links.filter(
          (x) => x === l || x.tail !== l.tail || x.head !== l.head || !isLevelName(x.name),
        );
      }
      return true;
    }
    case 'move':
      return move(model, calls, change.project, change.owner);
    case 'moveCollection':
      return moveCollection(model, calls, change.collection, change.owner);
    case 'trash':
      return trash(model, calls, change.project, change.includeTrash);
    case 'untrash':
    case 'untrashRole': {
      const g =
        change.kind === 'untrash'
          ? model.projects[change.project % model.projects.length]!
          : model.roles[change.role % model.roles.length]!;
      await calls.change(
        calls.asRoot(),
        'PUT',
        `/svc/v1/groups/${g.uuid}`,
        { query: { include_trash: 'true' }, json: { group: { trash_at: null } } },
        200,
      );
      g.trashed = false;
      return true;
    }
    case 'trashRole': {
      const r = model.roles[change.role % model.roles.length]!;
      // groups.md §6: "The group is found even if it is itself trashed … If it is already
      // trashed, nothing changes."
      await calls.change(calls.asRoot(), 'DELETE', `/svc/v1/groups/${r.uuid}`, {}, 200);
      if (!r.trashed) {
        r.trashed = true;
        // permissions.md §4: "Trashing a role deletes every permission link whose tail_uuid
        // is the role."
        model.links = model.links.filter((l) => l.tail !== r.uuid);
      }
      return true;
    }
    case 'setActive': {
      const u = model.users[change.user % model.users.length]!;
      // other-resources.md §5: "is_admin: true with is_active: false: 422".
      const refused = u.admin && !change.active;
      await calls.change(
        calls.asRoot(),
        'PUT',
        `/svc/v1/users/${u.uuid}`,
        { json: { user: { is_active: change.active } } },
        refused ? 422 : 200,
      );
      if (!refused) u.active = change.active;
      return true;
    }
  }
}

export async function addLink(
  model: GraphModel,
  calls: GraphCalls,
  spec: LinkSpec,
): Promise<boolean> {
  const tails = model.tails();
  const heads = model.heads();
  const tail = tails[spec.tail % tails.length]!;
  const head = heads[spec.head % heads.length]!;
  if (tail === head) return false;
  // The all-users group's links into users are the server's (activation); leave them alone.
  if (tail === model.allUsers && model.isUser(head)) return false;
  const oracle = model.oracle();
  // permissions.md §7: read visibility applies to "the checks on references", and "O must
  // also not be hidden" (admins see hidden objects only with include_trash=true, §6); §3:
  // "unreadable tail: tail_uuid '<uuid>' not found", head: "head_uuid '<uuid>' not found".
  const refused = oracle.isHidden(tail) || oracle.isHidden(head);
  const name = LINK_NAMES[spec.level];
  const res = await calls.change(
    calls.asRoot(),
    'POST',
    '/svc/v1/links',
    { json: { link: { link_class: 'permission', name, tail_uuid: tail, head_uuid: head } } },
    refused ? 422 : 200,
  );
  if (refused) return true;
  // §3: "Creating a second one returns the existing link (same uuid, 200). If the requested
  // level is higher, the existing link is raised to it first. A lower request leaves it
  // unchanged."
  const existing = isLevelName(name)
    ? model.links.find((l) => l.tail === tail && l.head === head && isLevelName(l.name))
    : undefined;
  if (existing) {
    calls.expectField(res, 'uuid', existing.uuid);
    if (levelOfName(name) > levelOfName(existing.name)) existing.name = name;
    calls.expectField(res, 'name', existing.name);
  } else {
    calls.expectField(res, 'name', name);
    model.links.push({ uuid: res.body.uuid, tail, head, name });
  }
  return true;
}

async function move(
  model: GraphModel,
  calls: GraphCalls,
  projectPick: number,
  ownerPick: number,
): Promise<boolean> {
  const p = model.projects[projectPick % model.projects.length]!;
  const owners = model.owners();
  const owner = owners[ownerPick % owners.length]!;
  const oracle = model.oracle();
  // groups.md §6: "Moving a hidden subproject (update with include_trash=true)".
  const includeTrash = oracle.isHidden(p.uuid);
  // permissions.md §2: "A group's new owner would be itself or one of its descendants: 422";
  // "Owner does not exist or is not readable: 422" — hidden owners are not readable (§7)
  // unless include_trash=true.
  const refused = model.isWithin(owner, p.uuid) || (!includeTrash && oracle.isHidden(owner));
  await calls.change(
    calls.asRoot(),
    'PUT',
    `/svc/v1/groups/${p.uuid}`,
    {
      ...(includeTrash ? { query: { include_trash: 'true' } } : {}),
      json: { group: { owner_uuid: owner } },
    },
    refused ? 422 : 200,
  );
  if (!refused) p.owner = owner;
  return true;
}

async function moveCollection(
  model: GraphModel,
  calls: GraphCalls,
  collectionPick: number,
  ownerPick: number,
): Promise<boolean> {
  const c = model.collections[collectionPick % model.collections.length]!;
  const owners = model.owners();
  const owner = owners[ownerPick % owners.length]!;
  const oracle = model.oracle();
  // As for projects: a hidden collection is found with include_trash=true (§7), and a hidden
  // new owner is not readable without it (§2, §7).
  const includeTrash = oracle.isHidden(c.uuid);
  const refused = !includeTrash && oracle.isHidden(owner);
  await calls.change(
    calls.asRoot(),
    'PUT',
    `/svc/v1/collections/${c.uuid}`,
    {
      ...(includeTrash ? { query: { include_trash: 'true' } } : {}),
      json: { collection: { owner_uuid: owner } },
    },
    refused ? 422 : 200,
  );
  if (!refused) c.owner = owner;
  return true;
}

async function trash(
  model: GraphModel,
  calls: GraphCalls,
  projectPick: number,
  includeTrash: boolean,
): Promise<boolean> {
  const p = model.projects[projectPick % model.projects.length]!;
  const oracle = model.oracle();
  const byAncestor = oracle.isHiddenByAncestor(p.uuid);
  // groups.md §6: "The group is found even if it is itself trashed. A group hidden only by a
  // trashed ancestor needs include_trash=true (else 404)." (Trashed itself and beneath a
  // trashed ancestor is not "only": the test always asks with include_trash then.)
  const withTrash = includeTrash || (byAncestor && p.trashed);
  const notFound = byAncestor && !p.trashed && !withTrash;
  await calls.change(
    calls.asRoot(),
    'DELETE',
    `/svc/v1/groups/${p.uuid}`,
    withTrash ? { query: { include_trash: 'true' } } : {},
    notFound ? 404 : 200,
  );
  if (!notFound) p.trashed = true;
  return true;
}
