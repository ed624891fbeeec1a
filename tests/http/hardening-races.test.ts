/**
 * Every uniqueness rule of the contract under concurrency, not only in sequence: one permission
 * link per (tail, head) (permissions.md §3) and revocation through it, unique names of groups
 * (projects and roles share the namespace) and collections per owner
 * (requests-and-errors.md §12), with and without ensure_unique_name, on create, update and
 * untrash (an update of is_trashed), and unique usernames. Each case fires its writes at once, several rounds.
 */
import { useDeployment } from '../harness/deployment';
import { objectsIn } from '../harness/objects';
import { makeUser } from '../harness/users';

// The races here send up to 100 requests at once with one token: above the per-token limit
// (API.MaxConcurrentRequestsPerToken, tested in overload.test.ts), which is not what is tested.
const d = useDeployment({
  configure: (_id, c) => {
    c['API'] = { MaxConcurrentRequestsPerToken: 1000 };
  },
});
const root = () => d.current.root;
const { project, collection } = objectsIn(d);
const PARALLEL = 20;
const ROUNDS = 5;

const parallel = <T>(n: number, fn: (i: number) => Promise<T>): Promise<T[]> =>
  Promise.all(Array.from({ length: n }, (_, i) => fn(i)));

async function permissionLinks(tail: string, head: string): Promise<string[]> {
  const res = await root().request('GET', '/svc/v1/links', {
    query: {
      filters: [
        ['link_class', '=', 'permission'],
        ['tail_uuid', '=', tail],
        ['head_uuid', '=', head],
      ],
    },
  });
  expect(res.status).toBe(200);
  return res.body.items.map((l: { uuid: string }) => l.uuid);
}

describe('permission links under concurrency', () => {
  it('parallel creates of one pair store one link, and deleting it revokes access', async () => {
    const owner = await makeUser(d.current);
    for (let round = 0; round < ROUNDS; round++) {
      const reader = await makeUser(d.current);
      const p = await project(owner);
      const names = ['can_read', 'can_write', 'can_manage'];
      const answers = await parallel(PARALLEL, (i) =>
        owner.client.request('POST', '/svc/v1/links', {
          json: {
            link: {
              link_class: 'permission',
              name: names[i % 3],
              tail_uuid: reader.uuid,
              head_uuid: p,
            },
          },
        }),
      );
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
      const links = await permissionLinks(reader.uuid, p);
      expect(links).toHaveLength(1);
      expect(new Set(answers.map((a) => a.body.uuid))).toEqual(new Set(links));
      // The highest requested level wins whatever the order.
      const link = await root().request('GET', `/svc/v1/links/${links[0]}`);
      expect(link.body.name).toBe('can_manage');
      expect((await reader.client.request('GET', `/svc/v1/groups/${p}`)).status).toBe(200);
      const del = await owner.client.request('DELETE', `/svc/v1/links/${links[0]}`);
      expect(del.status).toBe(200);
      expect((await reader.client.request('GET', `/svc/v1/groups/${p}`)).status).toBe(404);
      expect(await permissionLinks(reader.uuid, p)).toEqual([]);
    }
  }, 120_000);

  it('parallel role memberships of one user store one link; removing it removes the access', async () => {
    const owner = await makeUser(d.current);
    const member = await makeUser(d.current);
    const roleRes = await owner.client.request('POST', '/svc/v1/groups', {
      json: { group: { group_class: 'role', name: `race role ${Date.now()}` } },
    });
    const role = roleRes.body.uuid as string;
    const p = await project(owner);
    const share = await owner.client.request('POST', '/svc/v1/links', {
      json: { link: { link_class: 'permission', name: 'can_read', tail_uuid: role, head_uuid: p } },
    });
    expect(share.status).toBe(200);
    await parallel(PARALLEL, () =>
      owner.client.request('POST', '/svc/v1/links', {
        json: {
          link: {
            link_class: 'permission',
            name: 'can_read',
            tail_uuid: member.uuid,
            head_uuid: role,
          },
        },
      }),
    );
    const links = await permissionLinks(member.uuid, role);
    expect(links).toHaveLength(1);
    expect((await member.client.request('GET', `/svc/v1/groups/${p}`)).status).toBe(200);
    expect((await owner.client.request('DELETE', `/svc/v1/links/${links[0]}`)).status).toBe(200);
    expect((await member.client.request('GET', `/svc/v1/groups/${p}`)).status).toBe(404);
  }, 60_000);
});

describe('unique names under concurrency', () => {
  const DUPLICATE = /^duplicate key value violates unique constraint/;

  it.each([
    ['groups', 'group', { group_class: 'project' }],
    ['groups', 'group', { group_class: 'role' }],
    ['collections', 'collection', {}],
  ])(
    'parallel %s creates (%j) with one name: one succeeds, the rest 422',
    async (type, singular, attrs) => {
      const owner = await makeUser(d.current);
      const home = attrs['group_class' as never] === 'role' ? undefined : owner.uuid;
      for (let round = 0; round < ROUNDS; round++) {
        const name = `race ${type} ${round} ${Date.now()}`;
        const answers = await parallel(PARALLEL, () =>
          owner.client.request('POST', `/svc/v1/${type}`, {
            json: { [singular]: { ...attrs, name, ...(home ? { owner_uuid: home } : {}) } },
          }),
        );
        const statuses = answers.map((a) => a.status).sort();
        expect(statuses.filter((s) => s === 200)).toHaveLength(1);
        expect(statuses.filter((s) => s !== 200)).toEqual(Array(PARALLEL - 1).fill(422));
        for (const a of answers.filter((x) => x.status === 422)) {
          expect(a.body.errors[0]).toMatch(DUPLICATE);
        }
      }
    },
    120_000,
  );

  it('parallel creates with ensure_unique_name all succeed with distinct names', async () => {
    const owner = await makeUser(d.current);
    const name = `race unique ${Date.now()}`;
    const answers = await parallel(PARALLEL, () =>
      owner.client.request('POST', '/svc/v1/collections', {
        json: { collection: { name }, ensure_unique_name: true },
      }),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const names = answers.map((a) => a.body.name as string);
    expect(new Set(names).size).toBe(PARALLEL);
  }, 60_000);

  it('parallel renames to one name: one succeeds', async () => {
    const owner = await makeUser(d.current);
    const uuids = await parallel(PARALLEL, () => collection(owner, owner.uuid));
    const name = `race rename ${Date.now()}`;
    const answers = await parallel(PARALLEL, (i) =>
      owner.client.request('PUT', `/svc/v1/collections/${uuids[i]}`, {
        json: { collection: { name } },
      }),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 422)).toHaveLength(PARALLEL - 1);
  }, 60_000);

  it('parallel untrashes of same-named groups: one succeeds', async () => {
    const owner = await makeUser(d.current);
    const name = `race untrash ${Date.now()}`;
    const uuids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const p = await project(owner, { name });
      const trashed = await owner.client.request('PUT', `/svc/v1/groups/${p}`, {
        json: { group: { is_trashed: true } },
      });
      expect([trashed.status, trashed.body.errors]).toEqual([200, undefined]);
      uuids.push(p);
    }
    const answers = await parallel(uuids.length, (i) =>
      owner.client.request('PUT', `/svc/v1/groups/${uuids[i]}`, {
        query: { include_trash: true },
        json: { group: { is_trashed: false } },
      }),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 422)).toHaveLength(uuids.length - 1);
  }, 60_000);

  it('parallel users with one username: one succeeds, the rest 422', async () => {
    const username = `race${Date.now()}`;
    const answers = await parallel(PARALLEL, (i) =>
      root().request('POST', '/svc/v1/users', {
        json: { user: { username, email: `race${i}-${username}@example.com` } },
      }),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.map((a) => a.status)).toEqual(refused.map(() => 422));
    for (const a of refused) expect(a.body.errors[0]).toMatch(DUPLICATE);
  }, 60_000);
});
