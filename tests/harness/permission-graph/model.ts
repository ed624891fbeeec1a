/**
 * The graph as built: the objects made through the API, what the test believes about them
 * (owners, trash, links, activity), and their short names for reports. The oracle reads it as
 * a `World`.
 */
import type { SvcClient } from '@svc/client';
import { Oracle, type World } from '../permission-oracle';
import type { LinkLevel } from './spec';

export const LINK_NAMES = {
  0: 'can_login',
  1: 'can_read',
  2: 'can_write',
  3: 'can_manage',
} as const;
export type LinkName = (typeof LINK_NAMES)[LinkLevel];
export const levelOfName = (name: LinkName): 1 | 2 | 3 =>
  name === 'can_manage' ? 3 : name === 'can_write' ? 2 : 1;
/** §3: "At most one link per (tail, head) among can_read, can_write and can_manage". */
export const isLevelName = (name: LinkName): boolean => name !== 'can_login';

export interface GUser {
  name: string;
  uuid: string;
  client: SvcClient;
  active: boolean;
  admin: boolean;
}
export interface GGroup {
  name: string;
  uuid: string;
  owner: string;
  trashed: boolean;
}
export interface GCollection {
  name: string;
  uuid: string;
  owner: string;
}
export interface GLink {
  uuid: string;
  tail: string;
  head: string;
  name: LinkName;
}

export class GraphModel {
  readonly users: GUser[] = [];
  readonly roles: GGroup[] = [];
  readonly projects: GGroup[] = [];
  readonly collections: GCollection[] = [];
  links: GLink[] = [];
  /** Short names (U0, P1, …) by uuid. */
  readonly names = new Map<string, string>();
  readonly allUsers: string;

  constructor(readonly clusterId: string) {
    this.allUsers = `${clusterId}-j7d0g-fffffffffffffff`;
    this.names.set(this.allUsers, 'ALL');
    this.names.set(`${clusterId}-tpzed-000000000000000`, 'SYSTEM');
  }

  /** Replaces every uuid of this graph with its short name. */
  symbolic(text: string): string {
    return text.replace(/[a-z0-9]{5}-[a-z0-9]{5}-[a-z0-9]{15}/g, (u) => this.names.get(u) ?? u);
  }

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

  /** The oracle of the graph as it is now. */
  oracle(): Oracle {
    return new Oracle(this.world());
  }

  tails(): string[] {
    return [...this.users.map((u) => u.uuid), ...this.roles.map((r) => r.uuid), this.allUsers];
  }

  heads(): string[] {
    return [
      ...this.projects.map((p) => p.uuid),
      ...this.collections.map((c) => c.uuid),
      ...this.users.map((u) => u.uuid),
      ...this.roles.map((r) => r.uuid),
    ];
  }

  /** Users, then projects: the candidates of an owner pick. */
  owners(): string[] {
    return [...this.users.map((u) => u.uuid), ...this.projects.map((g) => g.uuid)];
  }

  isUser(uuid: string): boolean {
    return this.users.some((u) => u.uuid === uuid);
  }

  /** Is `maybe` the project itself or beneath it? */
  isWithin(maybe: string, project: string): boolean {
    let at: string | undefined = maybe;
    const seen = new Set<string>();
    while (at !== undefined && !seen.has(at)) {
      if (at === project) return true;
      seen.add(at);
      at = this.projects.find((p) => p.uuid === at)?.owner;
    }
    return false;
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
