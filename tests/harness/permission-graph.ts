/**
 * Random small permission graphs for the property test of the permission model
 * (tests/http/permissions-property.test.ts): their generators, how they are built and changed
 * through the API, and how each state is compared with the brute-force oracle
 * (permission-oracle.ts) and the materialized table with a full recomputation.
 *
 * Everything a spec holds is a small natural number, resolved modulo the current candidates
 * when it is applied, so fast-check shrinks towards "the first user, the first project".
 */
import fc from 'fast-check';
import type { Answer, SvcClient } from '@svc/client';
import type { Db } from '../../apps/core/src/db/db';
import { recomputeAllPermissions } from '../../apps/core/src/permissions/materialize';
import type { TestDeployment } from './deployment';
import { expectedView, Oracle, type World } from './permission-oracle';

// ---------- specs ----------

/** 1–3: can_read, can_write, can_manage; 0: can_login, which counts as level 1 (§1). */
export type LinkLevel = 0 | 1 | 2 | 3;
const LINK_NAMES = { 0: 'can_login', 1: 'can_read', 2: 'can_write', 3: 'can_manage' } as const;
type LinkName = (typeof LINK_NAMES)[LinkLevel];
const levelOfName = (name: LinkName): 1 | 2 | 3 =>
  name === 'can_manage' ? 3 : name === 'can_write' ? 2 : 1;
/** §3: "At most one link per (tail, head) among can_read, can_write and can_manage". */
const isLevelName = (name: LinkName): boolean => name !== 'can_login';

export interface LinkSpec {
  /** Into [users…, roles…, all-users group]. */
  tail: number;
  /** Into [projects…, collections…, users…, roles…]. */
  head: number;
  level: LinkLevel;
}

export type Change =
  | ({ kind: 'addLink' } & LinkSpec)
  | { kind: 'deleteLink'; pick: number }
  | { kind: 'relevelLink'; pick: number; level: LinkLevel }
  /** owner: into [users…, projects…]. */
  | { kind: 'move'; project: number; owner: number }
  /** owner: into [users…, projects…]. */
  | { kind: 'moveCollection'; collection: number; owner: number }
  | { kind: 'trash'; project: number; includeTrash: boolean }
  | { kind: 'untrash'; project: number }
  | { kind: 'trashRole'; role: number }
  | { kind: 'untrashRole'; role: number }
  | { kind: 'setActive'; user: number; active: boolean };

export interface GraphSpec {
  users: { active: boolean; admin: boolean }[];
  /** creator: a user index (if that user is active), or null for root. */
  roles: { creator: number | null }[];
  /** owner: into [users…, the projects before this one]; byOwner: made with the owner's token. */
  projects: { owner: number; byOwner: boolean }[];
  /** owner: into [users…, projects…]. */
  collections: { owner: number; byOwner: boolean }[];
  links: LinkSpec[];
  changes: Change[];
  /** Whether the n-th check (0: after the build) lists and probes with include_trash=true. */
  trashChecks: boolean[];
}

export interface SpecSizes {
  maxChanges: number;
  maxLinks: number;
}

/** Mostly the three levels (shrinking to can_read), sometimes can_login. */
const level: fc.Arbitrary<LinkLevel> = fc
  .nat({ max: 9 })
  .map((n) => (n === 9 ? 0 : ((Math.floor(n / 3) + 1) as LinkLevel)));
const pick = fc.nat({ max: 40 });
const linkSpec = fc.record({ tail: pick, head: pick, level });

export const changeArb: fc.Arbitrary<Change> = fc.oneof(
  { weight: 4, arbitrary: linkSpec.map((l) => ({ kind: 'addLink' as const, ...l })) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('deleteLink' as const), pick }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('relevelLink' as const), pick, level }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('move' as const), project: pick, owner: pick }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('trash' as const),
      project: pick,
      includeTrash: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('moveCollection' as const),
      collection: pick,
      owner: pick,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('untrash' as const), project: pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('trashRole' as const), role: pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('untrashRole' as const), role: pick }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('setActive' as const),
      user: pick,
      active: fc.boolean(),
    }),
  },
);

export function graphSpecArb(sizes: SpecSizes): fc.Arbitrary<GraphSpec> {
  return fc
    .record({
      users: fc.array(
        fc.record({
          active: fc.nat({ max: 3 }).map((n) => n > 0),
          admin: fc.constant<boolean>(false),
        }),
        { minLength: 3, maxLength: 6 },
      ),
      admin: fc.option(pick, { freq: 4 }),
      roles: fc.array(fc.record({ creator: fc.option(pick, { freq: 3 }) }), {
        minLength: 1,
        maxLength: 3,
      }),
      projects: fc.array(fc.record({ owner: pick, byOwner: fc.boolean() }), {
        minLength: 2,
        maxLength: 6,
      }),
      collections: fc.array(fc.record({ owner: pick, byOwner: fc.boolean() }), {
        minLength: 1,
        maxLength: 6,
      }),
      links: fc.array(linkSpec, { maxLength: sizes.maxLinks }),
      changes: fc.array(changeArb, { minLength: 1, maxLength: sizes.maxChanges }),
      trashChecks: fc.array(fc.boolean(), { maxLength: sizes.maxChanges + 1 }),
    })
    .map(({ admin, ...spec }) => {
      if (admin !== null) {
        const i = admin % spec.users.length;
        spec.users[i] = { active: true, admin: true };
      }
      return spec;
    });
}

// ---------- the graph as built ----------

interface GUser {
  name: string;
  uuid: string;
  client: SvcClient;
  active: boolean;
  admin: boolean;
}
interface GGroup {
  name: string;
  uuid: string;
  owner: string;
  trashed: boolean;
}
interface GCollection {
  name: string;
  uuid: string;
  owner: string;
}
interface GLink {
  uuid: string;
  tail: string;
  head: string;
  name: LinkName;
}

export class PermissionCheckFailure extends Error {}

const ROLLBACK = new Error('rollback');

/** One random graph in a running deployment: its objects, a model of them, and a call log. */
export class GraphRun {
  readonly users: GUser[] = [];
  readonly roles: GGroup[] = [];
  readonly projects: GGroup[] = [];
  readonly collections: GCollection[] = [];
  links: GLink[] = [];
  /** The API calls that changed something, for the report. */
  readonly log: string[] = [];
  private readonly names = new Map<string, string>();
  readonly allUsers: string;
  stats = { requests: 0, checks: 0, checkMs: 0, dbMs: 0 };

  constructor(
    private readonly d: TestDeployment,
    private readonly clusterId = d.home.id,
  ) {
    this.allUsers = `${clusterId}-j7d0g-fffffffffffffff`;
    this.names.set(this.allUsers, 'ALL');
    this.names.set(`${clusterId}-tpzed-000000000000000`, 'SYSTEM');
  }

  private get root(): SvcClient {
    return this.d.root;
  }

  /** Replaces every uuid of this graph with its short name. */
  private symbolic(text: string): string {
    return text.replace(/[a-z0-9]{5}-[a-z0-9]{5}-[a-z0-9]{15}/g, (u) => this.names.get(u) ?? u);
  }

  private describeCall(
    who: string,
    method: string,
    path: string,
    query: Record<string, unknown> | undefined,
    json: unknown,
  ): string {
    const q =
      query && Object.keys(query).length > 0
        ? `?${new URLSearchParams(query as Record<string, string>)}`
        : '';
    const body = json === undefined ? '' : ` ${JSON.stringify(json)}`;
    return this.symbolic(`${who}: ${method} ${path}${q}${body}`);
  }

  /** A call that changes something: logged with its answer, its status checked. */
  private async change(
    who: { name: string; client: SvcClient },
    method: string,
    path: string,
    opts: { query?: Record<string, unknown>; json?: unknown },
    expected: number,
  ): Promise<Answer<any>> {
    const line = this.describeCall(who.name, method, path, opts.query, opts.json);
    // The log keeps the order in which calls were issued (builds issue some at once).
    const slot = this.log.push(`${line} -> (no answer)`) - 1;
    const res = await who.client.request(method, path, opts);
    this.stats.requests += 1;
    this.log[slot] = `${line} -> ${res.status}`;
    if (res.status !== expected) {
      throw new PermissionCheckFailure(
        this.report([
          `${line}: expected status ${expected}, got ${res.status} ${this.symbolic(res.text.slice(0, 300))}`,
        ]),
      );
    }
    return res;
  }

  private rootCaller() {
    return { name: 'root', client: this.root };
  }

  private userCaller(u: GUser) {
    return { name: u.name, client: u.client };
  }

  // ---------- building ----------

  /**
   * Makes the graph's objects. Independent creations go out together (users; roles;
   * projects of one depth; collections); links one after the other, in order.
   */
  async build(spec: GraphSpec): Promise<void> {
    // Users one at a time: concurrent activations race on the all-users group's rows of the
    // materialized table (see the report: 422 "duplicate key value violates unique constraint").
    // Their tokens may go out meanwhile.
    const withTokens: Promise<GUser>[] = [];
    for (const [i, u] of spec.users.entries()) {
      const uuid = await this.makeUser(`U${i}`, u);
      withTokens.push(this.withToken({ name: `U${i}`, uuid, ...u }));
    }
    this.users.push(...(await Promise.all(withTokens)));
    const roles = await Promise.all(spec.roles.map((r, i) => this.makeRole(`R${i}`, r.creator)));
    for (const { role, creatorLink } of roles) {
      this.roles.push(role);
      if (creatorLink) this.links.push(creatorLink);
    }
    // Owners resolve against the users and the projects before each one.
    const n = this.users.length;
    const ownerIndex = spec.projects.map((p, i) => p.owner % (n + i));
    const depth: number[] = [];
    ownerIndex.forEach((k, i) => (depth[i] = k < n ? 0 : depth[k - n]! + 1));
    const made: GGroup[] = [];
    for (let level = 0; level <= Math.max(-1, ...depth); level += 1) {
      const batch = spec.projects.map((p, i) => ({ p, i })).filter(({ i }) => depth[i] === level);
      await Promise.all(
        batch.map(async ({ p, i }) => {
          const k = ownerIndex[i]!;
          const owner = k < n ? this.users[k]!.uuid : made[k - n]!.uuid;
          made[i] = await this.makeOwned('groups', `P${i}`, owner, p.byOwner);
        }),
      );
    }
    for (const p of made) this.projects.push({ ...p, trashed: false });
    const owners = [...this.users.map((u) => u.uuid), ...this.projects.map((g) => g.uuid)];
    const collections = await Promise.all(
      spec.collections.map((c, i) =>
        this.makeOwned('collections', `C${i}`, owners[c.owner % owners.length]!, c.byOwner),
      ),
    );
    this.collections.push(...collections);
    for (const l of spec.links) await this.addLink(l);
  }

  private async makeUser(name: string, u: { active: boolean; admin: boolean }): Promise<string> {
    const made = await this.change(
      this.rootCaller(),
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
    this.names.set(uuid, name);
    return uuid;
  }

  /** A token for the user, and a client using it (sharing root's connections). */
  private async withToken(u: Omit<GUser, 'client'>): Promise<GUser> {
    const token = await this.root.request('POST', '/svc/v1/api_client_authorizations', {
      json: { api_client_authorization: { owner_uuid: u.uuid } },
    });
    this.stats.requests += 1;
    if (token.status !== 200) throw new Error(`token: ${token.text}`);
    return { ...u, client: this.root.withToken(`v2/${token.body.uuid}/${token.body.api_token}`) };
  }

  /** A role, made by an active creator (who gets a can_manage link) or by root. */
  private async makeRole(
    name: string,
    creatorPick: number | null,
  ): Promise<{ role: GGroup; creatorLink: GLink | null }> {
    const creator = creatorPick === null ? null : this.users[creatorPick % this.users.length]!;
    const by = creator?.active ? this.userCaller(creator) : this.rootCaller();
    const res = await this.change(
      by,
      'POST',
      '/svc/v1/groups',
      { json: { group: { group_class: 'role', name: `role ${name}` } } },
      200,
    );
    const uuid = res.body.uuid as string;
    this.names.set(uuid, name);
    const role = { name, uuid, owner: res.body.owner_uuid as string, trashed: false };
    if (by.client === this.root) return { role, creatorLink: null };
    // permissions.md §4: "creates a can_manage link from the creator to the new role".
    const found = await this.root.request('GET', '/svc/v1/links', {
      query: {
        filters: [
          ['link_class', '=', 'permission'],
          ['tail_uuid', '=', creator!.uuid],
          ['head_uuid', '=', uuid],
        ],
      },
    });
    this.stats.requests += 1;
    const items = found.body.items as { uuid: string; name: string }[];
    if (items.length !== 1 || items[0]!.name !== 'can_manage') {
      throw new PermissionCheckFailure(
        this.report([`role ${name}: creator link is ${this.symbolic(JSON.stringify(items))}`]),
      );
    }
    return {
      role,
      creatorLink: { uuid: items[0]!.uuid, tail: creator!.uuid, head: uuid, name: 'can_manage' },
    };
  }

  /** A project or collection in `owner`: made by the owner if asked and able, else by root. */
  private async makeOwned(
    type: 'groups' | 'collections',
    name: string,
    owner: string,
    byOwner: boolean,
  ): Promise<GGroup> {
    const user = this.users.find((u) => u.uuid === owner);
    const mine = byOwner && user?.active;
    const attrs = {
      ...(type === 'groups'
        ? { group_class: 'project', name: `project ${name}` }
        : { name: `collection ${name}` }),
      ...(mine ? {} : { owner_uuid: owner }),
    };
    const res = await this.change(
      mine ? this.userCaller(user!) : this.rootCaller(),
      'POST',
      `/svc/v1/${type}`,
      { json: { [type === 'groups' ? 'group' : 'collection']: attrs } },
      200,
    );
    this.names.set(res.body.uuid, name);
    return { name, uuid: res.body.uuid, owner, trashed: false };
  }

  // ---------- the model ----------

  world(): World {
    return {
      allUsersGroup: this.allUsers,
      users: this.users.map((u) => ({ uuid: u.uuid, active: u.active, admin: u.admin })),
      groups: [
        ...this.roles.map((g) => ({
          uuid: g.uuid,
          groupClass: 'role' as const,
          ownerUuid: g.owner,
          trashed: g.trashed,
        })),
        ...this.projects.map((g) => ({
          uuid: g.uuid,
          groupClass: 'project' as const,
          ownerUuid: g.owner,
          trashed: g.trashed,
        })),
      ],
      collections: this.collections.map((c) => ({ uuid: c.uuid, ownerUuid: c.owner })),
      links: this.links.map((l) => ({ tail: l.tail, head: l.head, level: levelOfName(l.name) })),
    };
  }

  private tails(): string[] {
    return [...this.users.map((u) => u.uuid), ...this.roles.map((r) => r.uuid), this.allUsers];
  }

  private heads(): string[] {
    return [
      ...this.projects.map((p) => p.uuid),
      ...this.collections.map((c) => c.uuid),
      ...this.users.map((u) => u.uuid),
      ...this.roles.map((r) => r.uuid),
    ];
  }

  private isUser(uuid: string): boolean {
    return this.users.some((u) => u.uuid === uuid);
  }

  /** Is `maybe` the project itself or beneath it? */
  private isWithin(maybe: string, project: string): boolean {
    let at: string | undefined = maybe;
    const seen = new Set<string>();
    while (at !== undefined && !seen.has(at)) {
      if (at === project) return true;
      seen.add(at);
      at = this.projects.find((p) => p.uuid === at)?.owner;
    }
    return false;
  }

  // ---------- changes ----------

  async apply(change: Change): Promise<boolean> {
    switch (change.kind) {
      case 'addLink':
        return this.addLink(change);
      case 'deleteLink': {
        const l = this.links[change.pick % Math.max(1, this.links.length)];
        if (!l) return false;
        await this.change(this.rootCaller(), 'DELETE', `/svc/v1/links/${l.uuid}`, {}, 200);
        this.links = this.links.filter((x) => x !== l);
        return true;
      }
      case 'relevelLink': {
        const l = this.links[change.pick % Math.max(1, this.links.length)];
        if (!l) return false;
        const res = await this.change(
          this.rootCaller(),
          'PUT',
          `/svc/v1/links/${l.uuid}`,
          { json: { link: { name: LINK_NAMES[change.level] } } },
          200,
        );
        this.expectField(res, 'name', LINK_NAMES[change.level]);
        l.name = LINK_NAMES[change.level];
        // §3: "Updating a link to a level keeps the link and deletes any other overlapping
        // link" (can_login links do not overlap: they are not among the three levels).
        if (isLevelName(l.name)) {
          this.links = this.links.filter(
            (x) => x === l || x.tail !== l.tail || x.head !== l.head || !isLevelName(x.name),
          );
        }
        return true;
      }
      case 'move':
        return this.move(change.project, change.owner);
      case 'moveCollection':
        return this.moveCollection(change.collection, change.owner);
      case 'trash':
        return this.trash(change.project, change.includeTrash);
      case 'untrash':
      case 'untrashRole': {
        const g =
          change.kind === 'untrash'
            ? this.projects[change.project % this.projects.length]!
            : this.roles[change.role % this.roles.length]!;
        await this.change(
          this.rootCaller(),
          'PUT',
          `/svc/v1/groups/${g.uuid}`,
          { query: { include_trash: 'true' }, json: { group: { trash_at: null } } },
          200,
        );
        g.trashed = false;
        return true;
      }
      case 'trashRole': {
        const r = this.roles[change.role % this.roles.length]!;
        // groups.md §6: "The group is found even if it is itself trashed … If it is already
        // trashed, nothing changes."
        await this.change(this.rootCaller(), 'DELETE', `/svc/v1/groups/${r.uuid}`, {}, 200);
        if (!r.trashed) {
          r.trashed = true;
          // permissions.md §4: "Trashing a role deletes every permission link whose tail_uuid
          // is the role."
          this.links = this.links.filter((l) => l.tail !== r.uuid);
        }
        return true;
      }
      case 'setActive': {
        const u = this.users[change.user % this.users.length]!;
        // other-resources.md §5: "is_admin: true with is_active: false: 422".
        const refused = u.admin && !change.active;
        await this.change(
          this.rootCaller(),
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

  private expectField(res: Answer<any>, field: string, value: unknown): void {
    if (res.body?.[field] !== value) {
      throw new PermissionCheckFailure(
        this.report([
          `${this.log.at(-1)}: expected ${field} ${JSON.stringify(value)}, got ${this.symbolic(JSON.stringify(res.body?.[field]))}`,
        ]),
      );
    }
  }

  private async addLink(spec: LinkSpec): Promise<boolean> {
    const tails = this.tails();
    const heads = this.heads();
    const tail = tails[spec.tail % tails.length]!;
    const head = heads[spec.head % heads.length]!;
    if (tail === head) return false;
    // The all-users group's links into users are the server's (activation); leave them alone.
    if (tail === this.allUsers && this.isUser(head)) return false;
    const oracle = new Oracle(this.world());
    // permissions.md §7: read visibility applies to "the checks on references", and "O must
    // also not be hidden" (admins see hidden objects only with include_trash=true, §6); §3:
    // "unreadable tail: tail_uuid '<uuid>' not found", head: "head_uuid '<uuid>' not found".
    const refused = oracle.isHidden(tail) || oracle.isHidden(head);
    const name = LINK_NAMES[spec.level];
    const res = await this.change(
      this.rootCaller(),
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
      ? this.links.find((l) => l.tail === tail && l.head === head && isLevelName(l.name))
      : undefined;
    if (existing) {
      this.expectField(res, 'uuid', existing.uuid);
      if (levelOfName(name) > levelOfName(existing.name)) existing.name = name;
      this.expectField(res, 'name', existing.name);
    } else {
      this.expectField(res, 'name', name);
      this.links.push({ uuid: res.body.uuid, tail, head, name });
    }
    return true;
  }

  private async move(projectPick: number, ownerPick: number): Promise<boolean> {
    const p = this.projects[projectPick % this.projects.length]!;
    const owners = [...this.users.map((u) => u.uuid), ...this.projects.map((g) => g.uuid)];
    const owner = owners[ownerPick % owners.length]!;
    const oracle = new Oracle(this.world());
    // groups.md §6: "Moving a hidden subproject (update with include_trash=true)".
    const includeTrash = oracle.isHidden(p.uuid);
    // permissions.md §2: "A group's new owner would be itself or one of its descendants: 422";
    // "Owner does not exist or is not readable: 422" — hidden owners are not readable (§7)
    // unless include_trash=true.
    const refused = this.isWithin(owner, p.uuid) || (!includeTrash && oracle.isHidden(owner));
    await this.change(
      this.rootCaller(),
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

  private async moveCollection(collectionPick: number, ownerPick: number): Promise<boolean> {
    const c = this.collections[collectionPick % this.collections.length]!;
    const owners = [...this.users.map((u) => u.uuid), ...this.projects.map((g) => g.uuid)];
    const owner = owners[ownerPick % owners.length]!;
    const oracle = new Oracle(this.world());
    // As for projects: a hidden collection is found with include_trash=true (§7), and a hidden
    // new owner is not readable without it (§2, §7).
    const includeTrash = oracle.isHidden(c.uuid);
    const refused = !includeTrash && oracle.isHidden(owner);
    await this.change(
      this.rootCaller(),
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

  private async trash(projectPick: number, includeTrash: boolean): Promise<boolean> {
    const p = this.projects[projectPick % this.projects.length]!;
    const oracle = new Oracle(this.world());
    const byAncestor = oracle.isHiddenByAncestor(p.uuid);
    // groups.md §6: "The group is found even if it is itself trashed. A group hidden only by a
    // trashed ancestor needs include_trash=true (else 404)." (Trashed itself and beneath a
    // trashed ancestor is not "only": the test always asks with include_trash then.)
    const withTrash = includeTrash || (byAncestor && p.trashed);
    const notFound = byAncestor && !p.trashed && !withTrash;
    await this.change(
      this.rootCaller(),
      'DELETE',
      `/svc/v1/groups/${p.uuid}`,
      withTrash ? { query: { include_trash: 'true' } } : {},
      notFound ? 404 : 200,
    );
    if (!notFound) p.trashed = true;
    return true;
  }

  // ---------- checks ----------

  /** Compares what every non-admin user of the graph sees with the oracle, and the table. */
  async check(db: Db | null, includeTrash = false): Promise<void> {
    this.stats.checks += 1;
    const t0 = Date.now();
    const oracle = new Oracle(this.world());
    const problems: string[] = [];
    const trashNote = includeTrash ? ' (include_trash=true)' : '';
    const collectionUuids = this.collections.map((c) => c.uuid);
    const groupUuids = [...this.roles, ...this.projects].map((g) => g.uuid).concat(this.allUsers);
    const userUuids = this.users.map((u) => u.uuid);
    const list = async (u: GUser, type: string, uuids: string[], select: string[]) => {
      const res = await u.client.request('GET', `/svc/v1/${type}`, {
        query: {
          filters: [['uuid', 'in', uuids]],
          limit: 1000,
          select,
          ...(includeTrash ? { include_trash: 'true' } : {}),
        },
      });
      this.stats.requests += 1;
      if (res.status !== 200)
        throw new Error(`list ${type} as ${u.name}: ${res.status} ${res.text}`);
      return res.body.items as Record<string, unknown>[];
    };
    await Promise.all(
      this.users
        .filter((u) => !u.admin)
        .map(async (u) => {
          const want = expectedView(oracle, u.uuid, includeTrash);
          const flags = ['uuid', 'can_write', 'can_manage'];
          const [cols, groups, users] = await Promise.all([
            list(u, 'collections', collectionUuids, ['uuid']),
            list(u, 'groups', groupUuids, flags),
            list(u, 'users', userUuids, flags),
          ]);
          const compareSet = (what: string, expected: string[], actual: string[]) => {
            const missing = expected.filter((x) => !actual.includes(x));
            const extra = actual.filter((x) => !expected.includes(x));
            if (missing.length > 0 || extra.length > 0) {
              problems.push(
                `${u.name} lists ${what}${trashNote}: expected [${expected.map((x) => this.names.get(x) ?? x).join(', ')}]` +
                  ` got [${actual.map((x) => this.names.get(x) ?? x).join(', ')}]` +
                  (missing.length
                    ? ` (missing ${missing.map((x) => this.names.get(x)).join(', ')})`
                    : '') +
                  (extra.length
                    ? ` (extra ${extra.map((x) => this.names.get(x)).join(', ')})`
                    : ''),
              );
            }
          };
          compareSet(
            'collections',
            Object.keys(want.collections),
            cols.map((c) => String(c['uuid'])),
          );
          compareSet(
            'groups',
            Object.keys(want.groups),
            groups.map((c) => String(c['uuid'])),
          );
          compareSet(
            'users',
            Object.keys(want.users),
            users.map((c) => String(c['uuid'])),
          );
          for (const [kind, items, expected] of [
            ['group', groups, want.groups],
            ['user', users, want.users],
          ] as const) {
            for (const item of items) {
              const e = expected[String(item['uuid'])];
              if (!e) continue;
              if (item['can_write'] !== e.can_write || item['can_manage'] !== e.can_manage) {
                problems.push(
                  `${u.name} on ${kind} ${this.names.get(String(item['uuid']))}: expected can_write=${e.can_write} can_manage=${e.can_manage}, got can_write=${String(item['can_write'])} can_manage=${String(item['can_manage'])} (oracle level ${oracle.levelOf(u.uuid, String(item['uuid']))})`,
                );
              }
            }
          }
          // Write probes: an empty update changes nothing, but the write check runs first
          // (crud.ts `update`): 200 with write permission, 403 without.
          await Promise.all(
            cols.map(async (c) => {
              const uuid = String(c['uuid']);
              const e = want.collections[uuid];
              if (!e) return;
              const res = await u.client.request('PUT', `/svc/v1/collections/${uuid}`, {
                json: {},
                ...(includeTrash ? { query: { include_trash: 'true' } } : {}),
              });
              this.stats.requests += 1;
              if (res.status !== e.update) {
                problems.push(
                  `${u.name}: PUT /svc/v1/collections/${this.names.get(uuid)}${trashNote} {} expected ${e.update}, got ${res.status} ${this.symbolic(res.text.slice(0, 200))} (oracle level ${oracle.levelOf(u.uuid, uuid)})`,
                );
              }
            }),
          );
        }),
    );
    const t1 = Date.now();
    if (db) problems.push(...(await this.compareMaterialized(db)));
    this.stats.checkMs += t1 - t0;
    this.stats.dbMs += Date.now() - t1;
    if (problems.length > 0) throw new PermissionCheckFailure(this.report(problems));
  }

  /**
   * permissions.md §9: "The result MUST equal a full recomputation." Only the rows of this
   * graph's users and objects: the built-in rows are checked once, by their own test.
   */
  private async compareMaterialized(db: Db): Promise<string[]> {
    const diff = await materializedDiff(db, this.clusterId, this.uuids());
    if (diff.length === 0) return [];
    return [
      `materialized_permissions differs from a full recomputation:${this.symbolic(diff.join(''))}`,
    ];
  }

  /** The objects, the call log and the problems, with short names. */
  report(problems: string[]): string {
    const w = this.world();
    const state = [
      `users: ${this.users.map((u) => `${u.name}${u.active ? '' : ' (inactive)'}${u.admin ? ' (admin)' : ''}`).join(', ')}`,
      `groups: ${w.groups.map((g) => `${this.names.get(g.uuid)} owner ${this.names.get(g.ownerUuid)}${g.trashed ? ' (trashed)' : ''}`).join(', ')}`,
      `collections: ${w.collections.map((c) => `${this.names.get(c.uuid)} owner ${this.names.get(c.ownerUuid)}`).join(', ')}`,
      `links: ${this.links.map((l) => `${this.names.get(l.tail)} ${l.name} ${this.names.get(l.head)}`).join(', ') || '(none)'}`,
    ];
    return [
      'permission model mismatch',
      ...problems.map((p) => `  - ${p}`),
      'state (the model):',
      ...state.map((s) => `  ${s}`),
      'API calls:',
      ...this.log.map((l) => `  ${l}`),
    ].join('\n');
  }

  /** Every uuid this graph made. */
  uuids(): string[] {
    return [
      ...this.users.map((u) => u.uuid),
      ...this.roles.map((g) => g.uuid),
      ...this.projects.map((g) => g.uuid),
      ...this.collections.map((c) => c.uuid),
    ];
  }
}

/**
 * The rows of materialized_permissions (those of `scope`'s users and targets, or all) that
 * differ from a full recomputation made in a transaction that is rolled back.
 */
export async function materializedDiff(
  db: Db,
  clusterId: string,
  scope: string[] | null,
): Promise<string[]> {
  const q = {
    text: `SELECT user_uuid, target_uuid, perm_level, traverse_owned FROM materialized_permissions
            WHERE $1::text[] IS NULL OR user_uuid = ANY($1::text[]) OR target_uuid = ANY($1::text[])
            ORDER BY 1, 2`,
    values: [scope],
  };
  const key = (r: Record<string, unknown>) =>
    `${String(r['user_uuid'])} ${String(r['target_uuid'])} ${String(r['perm_level'])} ${String(r['traverse_owned'])}`;
  const incremental = (await db.query(q)).rows.map(key);
  let full: string[] = [];
  try {
    await db.transaction(async (tx) => {
      await recomputeAllPermissions(tx, clusterId);
      full = (await tx.query(q)).rows.map(key);
      throw ROLLBACK;
    });
  } catch (err) {
    if (err !== ROLLBACK) throw err;
  }
  const a = new Set(incremental);
  const b = new Set(full);
  return [
    ...incremental.filter((r) => !b.has(r)).map((r) => `\n    only in the table:         ${r}`),
    ...full.filter((r) => !a.has(r)).map((r) => `\n    only in the recomputation: ${r}`),
  ];
}

/**
 * Removes a finished graph from the database directly, keeping the materialized table equal
 * to a full recomputation (no other graph's user reaches this graph's objects but through the
 * all-users group, whose links into the graph go too). Keeps later full recomputations small.
 */
export async function removeGraph(db: Db, uuids: string[]): Promise<void> {
  if (uuids.length === 0) return;
  await db.transaction(async (tx) => {
    for (const text of [
      'DELETE FROM materialized_permissions WHERE user_uuid = ANY($1::text[]) OR target_uuid = ANY($1::text[])',
      'DELETE FROM links WHERE tail_uuid = ANY($1::text[]) OR head_uuid = ANY($1::text[])',
      'DELETE FROM trashed_groups WHERE group_uuid = ANY($1::text[])',
      'DELETE FROM collections WHERE uuid = ANY($1::text[]) OR owner_uuid = ANY($1::text[])',
      'DELETE FROM groups WHERE uuid = ANY($1::text[])',
      'DELETE FROM api_client_authorizations WHERE owner_uuid = ANY($1::text[])',
      'DELETE FROM users WHERE uuid = ANY($1::text[])',
    ]) {
      await tx.query({ text, values: [uuids] });
    }
  });
}
