/**
 * Links and roles (permissions.md §3, §4, §10; other-resources.md §3): who may create, change
 * and delete permission links, what happens to links when their ends go, what roles give their
 * members, the can_write / can_manage / writable_by attributes that follow from the links, and
 * the rules of ordinary (non-permission) links.
 */
import { useDeployment } from '../harness/deployment';
import { answer, insufficient } from '../harness/answers';
import { objectsIn } from '../harness/objects';
import { makeUser, SYSTEM, type TestUser } from '../harness/users';

const d = useDeployment();
const root = () => d.current.root;
const { project, role, workflow, grant, levelOn } = objectsIn(d);

describe('permission links (permissions.md §3, §8)', () => {
  it('need manage on the head, and merge duplicates', async () => {
    const owner = await makeUser(d.current);
    const writer = await makeUser(d.current);
    const other = await makeUser(d.current);
    const p = await project(owner);
    await grant(writer.uuid, 'can_write', p);
    const attempt = await writer.client.request('POST', '/svc/v1/links', {
      json: {
        link: { link_class: 'permission', name: 'can_read', tail_uuid: other.uuid, head_uuid: p },
      },
    });
    expect([attempt.status, attempt.body.errors]).toEqual([
      403,
      [`Forbidden: insufficient permission to modify ${p}`],
    ]);
    const first = await owner.client.request('POST', '/svc/v1/links', {
      json: {
        link: { link_class: 'permission', name: 'can_read', tail_uuid: other.uuid, head_uuid: p },
      },
    });
    expect([first.status, first.body.owner_uuid]).toEqual([200, 'home1-tpzed-000000000000000']);
    const lower = await owner.client.request('POST', '/svc/v1/links', {
      json: {
        link: { link_class: 'permission', name: 'can_read', tail_uuid: other.uuid, head_uuid: p },
      },
    });
    expect([lower.body.uuid, lower.body.name]).toEqual([first.body.uuid, 'can_read']);
    const higher = await owner.client.request('POST', '/svc/v1/links', {
      json: {
        link: { link_class: 'permission', name: 'can_manage', tail_uuid: other.uuid, head_uuid: p },
      },
    });
    expect([higher.status, higher.body.uuid, higher.body.name]).toEqual([
      200,
      first.body.uuid,
      'can_manage',
    ]);
    expect(await levelOn(other, p, 'groups')).toBe(3);
  });

  it('allow only the level to change', async () => {
    const owner = await makeUser(d.current);
    const other = await makeUser(d.current);
    const p = await project(owner);
    const link = await grant(other.uuid, 'can_read', p);
    const bad = await owner.client.request('PUT', `/svc/v1/links/${link}`, {
      json: { link: { tail_uuid: owner.uuid } },
    });
    expect([bad.status, bad.body.errors]).toEqual([422, ['Can only alter permission link level']]);
    const level = await owner.client.request('PUT', `/svc/v1/links/${link}`, {
      json: { link: { name: 'can_write' } },
    });
    expect([level.status, level.body.name]).toEqual([200, 'can_write']);
    expect(await levelOn(other, p, 'groups')).toBe(2);
    const del = await owner.client.request('DELETE', `/svc/v1/links/${link}`);
    expect(del.status).toBe(200);
    expect(await levelOn(other, p, 'groups')).toBe(0);
  });

  it('validate name, tail and head', async () => {
    const owner = await makeUser(d.current);
    const p = await project(owner);
    const other = await project(owner);
    const cases: [Record<string, unknown>, string][] = [
      [
        { name: 'can_fly', tail_uuid: owner.uuid, head_uuid: p },
        "name 'can_fly' is invalid permission, must be one of 'can_read', 'can_write', 'can_manage', 'can_login'",
      ],
      [
        { name: 'can_read', tail_uuid: other, head_uuid: p },
        'tail_uuid must be a user or role, was group with group_class project',
      ],
      [
        { name: 'can_read', tail_uuid: 'home1-tpzed-zzzzzzzzzzzzzzz', head_uuid: p },
        "tail_uuid 'home1-tpzed-zzzzzzzzzzzzzzz' not found",
      ],
      [
        { name: 'can_read', tail_uuid: owner.uuid, head_uuid: 'home1-4zz18-zzzzzzzzzzzzzzz' },
        "head_uuid 'home1-4zz18-zzzzzzzzzzzzzzz' not found",
      ],
    ];
    for (const [attrs, message] of cases) {
      const res = await owner.client.request('POST', '/svc/v1/links', {
        json: { link: { link_class: 'permission', ...attrs } },
      });
      expect([res.status, res.body.errors]).toEqual([422, [message]]);
    }
  });

  it('are visible to their tail, their head and whoever manages the head', async () => {
    const owner = await makeUser(d.current);
    const reader = await makeUser(d.current);
    const outsider = await makeUser(d.current);
    const p = await project(owner);
    const link = await grant(reader.uuid, 'can_read', p);
    const userLink = await grant(owner.uuid, 'can_read', outsider.uuid);
    for (const [who, uuid, status] of [
      [owner, link, 200],
      [reader, link, 200],
      [outsider, link, 404],
      [outsider, userLink, 200],
      [owner, userLink, 200],
      [reader, userLink, 404],
    ] as const) {
      expect([uuid, (await who.client.request('GET', `/svc/v1/links/${uuid}`)).status]).toEqual([
        uuid,
        status,
      ]);
    }
  });

  it('need can_manage on the head to be changed or deleted, also by their own tail', async () => {
    const owner = await makeUser(d.current);
    const reader = await makeUser(d.current);
    const writer = await makeUser(d.current);
    const P = await project(owner);
    const readLink = await grant(reader.uuid, 'can_read', P);
    const writeLink = await grant(writer.uuid, 'can_write', P);
    // The tail can read its own link …
    expect((await reader.client.request('GET', `/svc/v1/links/${readLink}`)).status).toBe(200);
    // … but neither raise it nor delete it.
    const raise = await reader.client.request('PUT', `/svc/v1/links/${readLink}`, {
      json: { link: { name: 'can_manage' } },
    });
    expect(answer(raise)).toEqual(insufficient(P));
    const drop = await reader.client.request('DELETE', `/svc/v1/links/${readLink}`);
    expect(answer(drop)).toEqual(insufficient(P));
    // can_write on the head is not enough either.
    const selfRaise = await writer.client.request('PUT', `/svc/v1/links/${writeLink}`, {
      json: { link: { name: 'can_manage' } },
    });
    expect(answer(selfRaise)).toEqual(insufficient(P));
    const selfDrop = await writer.client.request('DELETE', `/svc/v1/links/${writeLink}`);
    expect(answer(selfDrop)).toEqual(insufficient(P));
    const after = await root().request('GET', '/svc/v1/links', {
      query: { filters: [['head_uuid', '=', P]], select: ['uuid', 'name'] },
    });
    expect(
      after.body.items.map((l: { uuid: string; name: string }) => [l.uuid, l.name]).sort(),
    ).toEqual(
      [
        [readLink, 'can_read'],
        [writeLink, 'can_write'],
      ].sort(),
    );
    // The manager of the head may.
    const byOwner = await owner.client.request('PUT', `/svc/v1/links/${readLink}`, {
      json: { link: { name: 'can_write' } },
    });
    expect([byOwner.status, byOwner.body.name]).toEqual([200, 'can_write']);
  });

  it('are deleted with their head or tail, like every other link (§3, other-resources.md §3)', async () => {
    const u = await makeUser(d.current);
    const v = await makeUser(d.current);
    const wf = await workflow(u);
    const asHead = await grant(v.uuid, 'can_read', wf);
    const tagHead = await u.client.request('POST', '/svc/v1/links', {
      json: { link: { link_class: 'tag', name: 'h', head_uuid: wf } },
    });
    const tagTail = await u.client.request('POST', '/svc/v1/links', {
      json: { link: { link_class: 'tag', name: 't', tail_uuid: wf, head_uuid: u.uuid } },
    });
    expect([tagHead.status, tagTail.status]).toEqual([200, 200]);
    const del = await u.client.request('DELETE', `/svc/v1/workflows/${wf}`);
    expect(del.status).toBe(200);
    for (const link of [asHead, tagHead.body.uuid, tagTail.body.uuid]) {
      const got = await root().request('GET', `/svc/v1/links/${link}`);
      expect([link, got.status]).toEqual([link, 404]);
    }

    // A deleted user takes the links whose tail (or head) it is with it.
    const gone = await makeUser(d.current);
    const P = await project(u);
    await grant(gone.uuid, 'can_read', P);
    expect((await root().request('DELETE', `/svc/v1/users/${gone.uuid}`)).status).toBe(200);
    for (const end of ['tail_uuid', 'head_uuid']) {
      const left = await root().request('GET', '/svc/v1/links', {
        query: { filters: [[end, '=', gone.uuid]] },
      });
      expect([end, left.status, left.body.items]).toEqual([end, 200, []]);
    }
  });
});

describe('roles (permissions.md §1, §4, §8)', () => {
  it('are owned by the system user, managed by their creator, readable by active users', async () => {
    const creator = await makeUser(d.current);
    const member = await makeUser(d.current);
    const res = await creator.client.request('POST', '/svc/v1/groups', {
      json: { group: { group_class: 'role', name: 'r', owner_uuid: creator.uuid } },
    });
    expect([res.status, res.body.owner_uuid, res.body.can_manage]).toEqual([
      200,
      'home1-tpzed-000000000000000',
      true,
    ]);
    const seen = await member.client.request('GET', `/svc/v1/groups/${res.body.uuid}`);
    expect([seen.status, seen.body.can_write]).toEqual([200, false]);
    const update = await member.client.request('PUT', `/svc/v1/groups/${res.body.uuid}`, {
      json: { group: { name: 'x' } },
    });
    expect([update.status, update.body.errors]).toEqual([
      403,
      [`Forbidden: insufficient permission to modify ${res.body.uuid}`],
    ]);
    const inRole = await member.client.request('POST', '/svc/v1/workflows', {
      json: { workflow: { owner_uuid: res.body.uuid } },
    });
    expect([inRole.status, inRole.body.errors]).toEqual([
      422,
      ['owner_uuid must be a user or a project'],
    ]);
  });

  it('lose their outgoing links when trashed, and their members keep their visibility', async () => {
    const owner = await makeUser(d.current);
    const member = await makeUser(d.current);
    const r = await role(owner);
    const p = await project(owner);
    await grant(member.uuid, 'can_read', r);
    const shared = await grant(r, 'can_read', p);
    expect(await levelOn(member, p, 'groups')).toBe(1);
    const trash = await owner.client.request('DELETE', `/svc/v1/groups/${r}`);
    expect(trash.status).toBe(200);
    expect(await levelOn(member, p, 'groups')).toBe(0);
    expect((await root().request('GET', `/svc/v1/links/${shared}`)).status).toBe(404);
    expect((await owner.client.request('GET', `/svc/v1/users/${member.uuid}`)).status).toBe(200);
  });

  it('cannot be renamed, trashed or given members by a can_write member', async () => {
    const creator = await makeUser(d.current);
    const member = await makeUser(d.current);
    const other = await makeUser(d.current);
    const R = await role(creator);
    await grant(member.uuid, 'can_write', R);
    const rename = await member.client.request('PUT', `/svc/v1/groups/${R}`, {
      json: { group: { name: 'taken over' } },
    });
    expect(answer(rename)).toEqual(insufficient(R));
    const trash = await member.client.request('DELETE', `/svc/v1/groups/${R}`);
    expect(answer(trash)).toEqual(insufficient(R));
    const add = await member.client.request('POST', '/svc/v1/links', {
      json: {
        link: { link_class: 'permission', name: 'can_read', tail_uuid: other.uuid, head_uuid: R },
      },
    });
    expect(answer(add)).toEqual(insufficient(R));
    const still = await creator.client.request('GET', `/svc/v1/groups/${R}`);
    expect([still.status, still.body.name, still.body.is_trashed]).toEqual([200, R, false]);
  });
});

describe('can_write, can_manage and writable_by (permissions.md §10)', () => {
  it('follow the example', async () => {
    const O = await makeUser(d.current);
    const W = await makeUser(d.current);
    const reader = await makeUser(d.current);
    const P = await project(O);
    await grant(W.uuid, 'can_write', P);
    await grant(reader.uuid, 'can_read', P);
    const view = async (u: TestUser) => {
      const g = await u.client.request('GET', `/svc/v1/groups/${P}`);
      return [g.body.can_write, g.body.can_manage, g.body.writable_by];
    };
    expect(await view(O)).toEqual([true, true, [O.uuid, W.uuid]]);
    expect(await view(W)).toEqual([true, false, [O.uuid, W.uuid]]);
    expect(await view(reader)).toEqual([false, false, [O.uuid]]);
  });

  it('lists the managing role on a user record', async () => {
    const U = await makeUser(d.current);
    const owner = await makeUser(d.current);
    const R = await role(owner);
    await grant(R, 'can_manage', U.uuid);
    const me = await U.client.request('GET', '/svc/v1/users/current');
    expect(me.body.writable_by).toEqual(['home1-tpzed-000000000000000', U.uuid, R]);
  });

  it('list the link tails for whoever manages the object or its owner, never ancestors', async () => {
    const O = await makeUser(d.current);
    const W = await makeUser(d.current);
    const M = await makeUser(d.current);
    const A = await makeUser(d.current);
    const D = await makeUser(d.current);
    const P = await project(O);
    const Q = await project(O, { owner_uuid: P });
    await grant(W.uuid, 'can_write', Q);
    await grant(D.uuid, 'can_manage', Q);
    await grant(M.uuid, 'can_manage', P);
    await grant(A.uuid, 'can_write', P);
    const view = async (client: TestUser['client']) => {
      const g = await client.request('GET', `/svc/v1/groups/${Q}`);
      expect(g.status).toBe(200);
      const w = g.body.writable_by as string[];
      return [g.body.can_write, g.body.can_manage, w.slice(0, 2), [...w.slice(2)].sort()];
    };
    const tails = [W.uuid, D.uuid].sort();
    // Level 3 on the owner P (rule 2), through a link on P or by owning it.
    expect(await view(M.client)).toEqual([true, true, [P, M.uuid], tails]);
    expect(await view(O.client)).toEqual([true, true, [P, O.uuid], tails]);
    // Level 3 on the object itself: D appears once, in second place.
    expect(await view(D.client)).toEqual([true, true, [P, D.uuid], [W.uuid]]);
    // Level 2, directly or from the ancestor P (rule 3); A's link on P is never listed.
    expect(await view(W.client)).toEqual([true, false, [P, W.uuid], []]);
    expect(await view(A.client)).toEqual([true, false, [P, A.uuid], []]);
    // Admins.
    expect(await view(root())).toEqual([true, true, [P, SYSTEM], tails]);
  });
});

describe('ordinary links (other-resources.md §3)', () => {
  it('need a link_class, readable ends and write on their owner, and follow owner visibility', async () => {
    const u = await makeUser(d.current);
    const v = await makeUser(d.current);
    const P = await project(u);
    await grant(v.uuid, 'can_read', P);
    for (const link of [{ link_class: '', name: 'x' }, { name: 'x' }]) {
      const res = await u.client.request('POST', '/svc/v1/links', { json: { link } });
      expect([link, ...answer(res)]).toEqual([link, 422, ["link_class can't be blank"]]);
    }
    const home = await u.client.request('POST', '/svc/v1/links', {
      json: { link: { link_class: 'tag', name: 'home' } },
    });
    expect([home.status, home.body.owner_uuid]).toEqual([200, u.uuid]);
    const inP = await u.client.request('POST', '/svc/v1/links', {
      json: { link: { link_class: 'tag', name: 'shared', owner_uuid: P } },
    });
    expect(inP.status).toBe(200);
    expect((await v.client.request('GET', `/svc/v1/links/${home.body.uuid}`)).status).toBe(404);
    expect((await v.client.request('GET', `/svc/v1/links/${inP.body.uuid}`)).status).toBe(200);
    const intoP = await v.client.request('POST', '/svc/v1/links', {
      json: { link: { link_class: 'tag', name: 'mine', owner_uuid: P } },
    });
    expect(answer(intoP)).toEqual([
      403,
      ['owner_uuid cannot be set or changed without write permission on new owner'],
    ]);
    const wf = await workflow(u);
    const hidden = await v.client.request('POST', '/svc/v1/links', {
      json: { link: { link_class: 'star', head_uuid: wf } },
    });
    expect(answer(hidden)).toEqual([422, [`head_uuid '${wf}' not found`]]);
  });
});
