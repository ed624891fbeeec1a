/**
 * A brute-force oracle of the permission model (contract permissions.md §1–§10, groups.md §6,
 * other-resources.md §5), written from the contract's rules and nothing else: no materialized
 * table, no incremental update, only a search over a small in-memory graph.
 *
 * The world holds users, project and role groups (the all-users group included), collections
 * and the explicit permission links. The all-users membership links of active users are not
 * stored in the world: they follow from `active` (other-resources.md §5, "Activation").
 *
 * Readings chosen where the contract leaves room (see the report in the test file):
 *  - "Acting for managed users" transfers the levels the managed user V has through §5 paths
 *    (V's graph levels), not the blanket "level 3 on everything" of an admin V: §9 defines the
 *    same rule as "S = U plus every user V for whom U has a row with level 3", which only uses
 *    V's rows.
 *  - A non-admin sees another user's record only when that user is active, even when the caller
 *    manages it (other-resources.md §5: "Non-admins listing or getting **other** users see only
 *    active users").
 */

export type Level = 0 | 1 | 2 | 3;
export const NONE = 0;
export const READ = 1;
export const WRITE = 2;
export const MANAGE = 3;

export interface OracleUser {
  uuid: string;
  active: boolean;
  admin: boolean;
}

export interface OracleGroup {
  uuid: string;
  groupClass: 'project' | 'role';
  /** A user or a project (roles: the system user). */
  ownerUuid: string;
  /** Trashed itself (trash_at in the past). */
  trashed: boolean;
}

export interface OracleCollection {
  uuid: string;
  ownerUuid: string;
}

export interface OracleLink {
  tail: string;
  head: string;
  level: 1 | 2 | 3;
}

export interface World {
  /** `<c>-j7d0g-fffffffffffffff` */
  allUsersGroup: string;
  users: readonly OracleUser[];
  /** Projects and roles; the all-users group is added by the oracle. */
  groups: readonly OracleGroup[];
  collections: readonly OracleCollection[];
  /** Explicit permission links (can_login links count as can_read, §1). */
  links: readonly OracleLink[];
}

interface Edge {
  head: string;
  level: Level;
}

/** What a world's searches need, computed once per world. */
export class Oracle {
  private readonly edges = new Map<string, Edge[]>();
  private readonly groupByUuid = new Map<string, OracleGroup>();
  private readonly userByUuid = new Map<string, OracleUser>();
  private readonly ownerOf = new Map<string, string>();
  private readonly base = new Map<string, Map<string, Level>>();

  constructor(readonly world: World) {
    for (const u of world.users) this.userByUuid.set(u.uuid, u);
    // The all-users group is a role group owned by the system user, never trashed here.
    this.groupByUuid.set(world.allUsersGroup, {
      uuid: world.allUsersGroup,
      groupClass: 'role',
      ownerUuid: '',
      trashed: false,
    });
    for (const g of world.groups) this.groupByUuid.set(g.uuid, g);
    // §5: "ownership: owner_uuid → object, level 3". Roles and users are owned by the system
    // user, who is never a caller here, so their ownership edges are left out.
    for (const g of world.groups) {
      this.ownerOf.set(g.uuid, g.ownerUuid);
      if (g.groupClass === 'project') this.addEdge(g.ownerUuid, g.uuid, MANAGE);
    }
    for (const c of world.collections) {
      this.ownerOf.set(c.uuid, c.ownerUuid);
      this.addEdge(c.ownerUuid, c.uuid, MANAGE);
    }
    // §5: "permission link: tail_uuid → head_uuid, the link's level".
    for (const l of world.links) this.addEdge(l.tail, l.head, l.level);
    // other-resources.md §5: an active user has `can_write` on the all-users group, and the
    // all-users group has `can_read` on the user.
    for (const u of world.users) {
      if (!u.active) continue;
      this.addEdge(u.uuid, world.allUsersGroup, WRITE);
      this.addEdge(world.allUsersGroup, u.uuid, READ);
    }
  }

  private addEdge(tail: string, head: string, level: Level): void {
    const list = this.edges.get(tail) ?? [];
    list.push({ head, level });
    this.edges.set(tail, list);
  }

  isGroup(uuid: string): boolean {
    return this.groupByUuid.has(uuid);
  }

  /**
   * §5 without the managed-user rule: "A path from user U to object O is valid when each of its
   * intermediate nodes is a group (of any class). The path's level is the minimum of its edge
   * levels. The level of U on O is the maximum over all valid paths", and "U has level 3 on U
   * itself". A widest-path search: only groups are expanded.
   */
  pathLevels(user: string): Map<string, Level> {
    const cached = this.base.get(user);
    if (cached) return cached;
    const best = new Map<string, Level>();
    const queue: [string, Level][] = [];
    const reach = (node: string, level: Level) => {
      if ((best.get(node) ?? NONE) >= level) return;
      best.set(node, level);
      // Only groups are intermediate nodes: users (but the start), collections are ends.
      if (this.isGroup(node)) queue.push([node, level]);
    };
    for (const e of this.edges.get(user) ?? []) reach(e.head, e.level);
    while (queue.length > 0) {
      const [node, level] = queue.pop()!;
      if ((best.get(node) ?? NONE) > level) continue; // a better visit is queued
      for (const e of this.edges.get(node) ?? []) reach(e.head, Math.min(level, e.level) as Level);
    }
    best.set(user, MANAGE); // "U has level 3 on U itself"
    this.base.set(user, best);
    return best;
  }

  /**
   * §5 with "Acting for managed users: if U's level on another user V is 3, then U also has
   * every level that V has on any object (one hop only: not V's managed users)", and "Admins
   * have level 3 on everything".
   */
  levelOf(user: string, object: string): Level {
    if (this.userByUuid.get(user)?.admin) return MANAGE;
    const own = this.pathLevels(user);
    let level = own.get(object) ?? NONE;
    for (const [v, l] of own) {
      if (l !== MANAGE || v === user || !this.userByUuid.has(v)) continue;
      // One hop: V's path levels, not V's managed users' levels.
      level = Math.max(level, this.pathLevels(v).get(object) ?? NONE) as Level;
    }
    return level;
  }

  /** The users U acts for (§5): U's level-3 users, U excluded. */
  managedUsers(user: string): string[] {
    return [...this.pathLevels(user)]
      .filter(([v, l]) => l === MANAGE && v !== user && this.userByUuid.has(v))
      .map(([v]) => v);
  }

  /**
   * groups.md §6: "A trashed group and everything it owns, directly or indirectly, is hidden";
   * permissions.md §7: "O is hidden when it is trashed, or owned directly or indirectly by a
   * trashed group".
   */
  isHidden(uuid: string): boolean {
    const seen = new Set<string>();
    let at: string | undefined = uuid;
    while (at !== undefined && !seen.has(at)) {
      seen.add(at);
      if (this.groupByUuid.get(at)?.trashed) return true;
      at = this.ownerOf.get(at);
    }
    return false;
  }

  /** Hidden only through an ancestor (the group itself is not trashed). */
  isHiddenByAncestor(uuid: string): boolean {
    const owner = this.ownerOf.get(uuid);
    return owner !== undefined && owner !== '' && this.isHidden(owner);
  }

  /**
   * §7 read visibility for a non-admin caller: "U's level on O is at least 1", or "O is a role
   * group and U is active", and in every case "O must also not be hidden. … include_trash=true
   * lifts this" (no frozen projects here). Users: other-resources.md §5 "Non-admins listing or
   * getting other users see only active users"; one's own record is always visible (level 3
   * on oneself).
   */
  canSee(user: string, object: string, includeTrash = false): boolean {
    const caller = this.userByUuid.get(user);
    const target = this.userByUuid.get(object);
    if (target) {
      if (object === user) return true;
      if (caller?.admin) return true;
      return target.active && this.levelOf(user, object) >= READ;
    }
    if (!includeTrash && this.isHidden(object)) return false;
    if (caller?.admin) return true;
    const group = this.groupByUuid.get(object);
    if (group?.groupClass === 'role' && caller?.active) return true;
    return this.levelOf(user, object) >= READ;
  }

  /**
   * The status of an update of a visible collection with an empty body (§8: "update or delete of
   * an ordinary object: level ≥ 2 on the object", besides being active — §6: "Every create,
   * update or delete gives 403 'Forbidden: user is not active'"). 404 when not visible.
   */
  collectionUpdateStatus(user: string, collection: string, includeTrash = false): 200 | 403 | 404 {
    if (!this.canSee(user, collection, includeTrash)) return 404;
    const caller = this.userByUuid.get(user);
    if (!caller?.active) return 403;
    return this.levelOf(user, collection) >= WRITE ? 200 : 403;
  }

  /** §10: can_write "true when the caller's level ≥ 2" (no frozen projects here); can_manage ≥ 3. */
  flags(user: string, object: string): { can_write: boolean; can_manage: boolean } {
    const level = this.levelOf(user, object);
    return { can_write: level >= WRITE, can_manage: level >= MANAGE };
  }
}

/** What one non-admin caller should see of the world's objects. */
export interface ExpectedView {
  collections: Record<string, { update: 200 | 403 }>;
  groups: Record<string, { can_write: boolean; can_manage: boolean }>;
  users: Record<string, { can_write: boolean; can_manage: boolean }>;
}

/** With includeTrash, as lists and updates with include_trash=true see them. */
export function expectedView(oracle: Oracle, user: string, includeTrash = false): ExpectedView {
  const w = oracle.world;
  const view: ExpectedView = { collections: {}, groups: {}, users: {} };
  for (const c of w.collections) {
    const status = oracle.collectionUpdateStatus(user, c.uuid, includeTrash);
    if (status !== 404) view.collections[c.uuid] = { update: status };
  }
  for (const uuid of [...w.groups.map((g) => g.uuid), w.allUsersGroup]) {
    if (oracle.canSee(user, uuid, includeTrash)) view.groups[uuid] = oracle.flags(user, uuid);
  }
  for (const u of w.users) {
    if (oracle.canSee(user, u.uuid)) view.users[u.uuid] = oracle.flags(user, u.uuid);
  }
  return view;
}
