/**
 * What a random permission graph is made of, as fast-check arbitraries. Everything a spec holds
 * is a small natural number, resolved modulo the current candidates when it is applied, so
 * fast-check shrinks towards "the first user, the first project".
 */
import fc from 'fast-check';

/** 1–3: can_read, can_write, can_manage; 0: can_login, which counts as level 1 (§1). */
export type LinkLevel = 0 | 1 | 2 | 3;

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
