/**
 * Rules of permissions.md, other-resources.md and auth.md that no other test would catch if they
 * broke. Each test names the contract section it checks.
 */
import { createHash } from 'node:crypto';
import { hmacHex, secretDigest } from '@svc/ids';
import { useDeployment } from '../harness/deployment';
import { signManifestFor } from '../harness/signing';
import { login, makeUser, type TestUser } from '../harness/users';

const ANON = 'anonymousTokenForTheGaps00000000000';
const GONE = 'https://gone.example.com';
const d = useDeployment({
  configure: (_id, c) => {
    c['Login'] = {
      Test: {
        Enable: true,
        Users: { alice: { Email: 'alice@example.com', Password: 'alice-pw' } },
      },
      TrustedClients: [GONE],
    };
    c['Users'] = { NewUsersAreActive: true, AnonymousUserToken: ANON };
  },
});
const root = () => d.current.root;
const SYSTEM = 'home1-tpzed-000000000000000';
const insufficient = (uuid: string) => [
  403,
  [`Forbidden: insufficient permission to modify ${uuid}`],
];
const forbidden = [403, ['Forbidden']];
const inactive = [403, ['Forbidden: user is not active']];

async function project(by: TestUser, attrs: Record<string, unknown> = {}) {
  const res = await by.client.request('POST', '/svc/v1/groups', {
    json: { group: { group_class: 'project', ...attrs } },
  });
  expect(res.status).toBe(200);
  return res.body.uuid as string;
}
async function role(by: TestUser) {
  const res = await by.client.request('POST', '/svc/v1/groups', {
    json: { group: { group_class: 'role' } },
  });
  expect(res.status).toBe(200);
  return res.body.uuid as string;
}
async function workflow(by: TestUser) {
  const res = await by.client.request('POST', '/svc/v1/workflows', {
    json: { workflow: { name: 'wf' } },
  });
  expect(res.status).toBe(200);
  return res.body.uuid as string;
}
/** A permission link, made by root (which manages everything). */
async function grant(tail: string, name: string, head: string) {
  const res = await root().request('POST', '/svc/v1/links', {
    json: { link: { link_class: 'permission', name, tail_uuid: tail, head_uuid: head } },
  });
  expect([res.status, res.body.errors]).toEqual([200, undefined]);
  return res.body.uuid as string;
}
const answer = (res: { status: number; body: { errors?: unknown } }) => [
  res.status,
  res.body.errors,
];

describe('permission links (permissions.md §3, §8)', () => {
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

describe('inactive users (permissions.md §6)', () => {
  it('get 403 "user is not active" on updates and deletes of what they own', async () => {
    const u = await makeUser(d.current);
    const wf = await workflow(u);
    const P = await project(u);
    const off = await root().request('PUT', `/svc/v1/users/${u.uuid}`, {
      json: { user: { is_active: false } },
    });
    expect([off.status, off.body.is_active]).toEqual([200, false]);
    expect((await u.client.request('GET', `/svc/v1/workflows/${wf}`)).status).toBe(200);
    const update = await u.client.request('PUT', `/svc/v1/workflows/${wf}`, {
      json: { workflow: { name: 'changed' } },
    });
    expect(answer(update)).toEqual(inactive);
    expect(answer(await u.client.request('DELETE', `/svc/v1/workflows/${wf}`))).toEqual(inactive);
    expect(answer(await u.client.request('DELETE', `/svc/v1/groups/${P}`))).toEqual(inactive);
    const unchanged = await root().request('GET', `/svc/v1/workflows/${wf}`);
    expect([unchanged.status, unchanged.body.name]).toEqual([200, 'wf']);
    const group = await root().request('GET', `/svc/v1/groups/${P}`);
    expect([group.status, group.body.is_trashed]).toEqual([200, false]);
  });
});

describe('owners (permissions.md §2)', () => {
  it('are set by the server for users and permission links; a non-admin cannot move a user', async () => {
    const u = await makeUser(d.current);
    const v = await makeUser(d.current);
    const P = await project(u);
    const link = await u.client.request('POST', '/svc/v1/links', {
      json: {
        link: {
          link_class: 'permission',
          name: 'can_read',
          tail_uuid: v.uuid,
          head_uuid: P,
          owner_uuid: u.uuid,
        },
      },
    });
    expect([link.status, link.body.owner_uuid]).toEqual([200, SYSTEM]);
    const user = await root().request('POST', '/svc/v1/users', {
      json: { user: { email: `owned-${Date.now()}@example.com`, owner_uuid: u.uuid } },
    });
    expect([user.status, user.body.owner_uuid]).toEqual([200, SYSTEM]);
    const move = await u.client.request('PUT', `/svc/v1/users/${u.uuid}`, {
      json: { user: { owner_uuid: u.uuid } },
    });
    expect(answer(move)).toEqual(forbidden);
    const me = await u.client.request('GET', '/svc/v1/users/current');
    expect(me.body.owner_uuid).toBe(SYSTEM);
  });

  it('are checked on an owner change: missing, unreadable, or not a user or project', async () => {
    const u = await makeUser(d.current);
    const v = await makeUser(d.current);
    const theirs = await project(v);
    const R = await role(u);
    const mine = await project(u);
    const missing = 'home1-j7d0g-zzzzzzzzzzzzzzz';
    const cases: [string, string][] = [
      [missing, `owner_uuid '${missing}' not found`],
      [theirs, `owner_uuid '${theirs}' not found`],
      [R, 'owner_uuid must be a user or a project'],
    ];
    for (const [owner, message] of cases) {
      const res = await u.client.request('PUT', `/svc/v1/groups/${mine}`, {
        json: { group: { owner_uuid: owner } },
      });
      expect([owner, ...answer(res)]).toEqual([owner, 422, [message]]);
    }
    const still = await u.client.request('GET', `/svc/v1/groups/${mine}`);
    expect(still.body.owner_uuid).toBe(u.uuid);
  });
});

describe('can_write, can_manage and writable_by (permissions.md §10)', () => {
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

describe('logs (other-resources.md §4)', () => {
  it('are written by admins only, and read through their object or their owner', async () => {
    const u = await makeUser(d.current);
    const v = await makeUser(d.current);
    const mine = await project(u);
    const theirs = await project(v);
    const log = async (attrs: Record<string, unknown>) => {
      const res = await root().request('POST', '/svc/v1/logs', {
        json: { log: { event_type: 'test', ...attrs } },
      });
      expect(res.status).toBe(200);
      return res.body.uuid as string;
    };
    const aboutMine = await log({ object_uuid: mine });
    const aboutTheirs = await log({ object_uuid: theirs });
    const owned = await log({ object_uuid: theirs, owner_uuid: u.uuid });
    for (const [uuid, status] of [
      [aboutMine, 200],
      [aboutTheirs, 404],
      [owned, 200],
    ] as const) {
      const got = await u.client.request('GET', `/svc/v1/logs/${uuid}`);
      expect([uuid, got.status]).toEqual([uuid, status]);
    }
    const listed = await u.client.request('GET', '/svc/v1/logs', {
      query: { filters: [['uuid', 'in', [aboutMine, aboutTheirs, owned]]] },
    });
    expect(listed.body.items.map((l: { uuid: string }) => l.uuid).sort()).toEqual(
      [aboutMine, owned].sort(),
    );
    const create = await u.client.request('POST', '/svc/v1/logs', {
      json: { log: { event_type: 'x', object_uuid: mine } },
    });
    expect(answer(create)).toEqual(forbidden);
    const update = await u.client.request('PUT', `/svc/v1/logs/${aboutMine}`, {
      json: { log: { summary: 'x' } },
    });
    expect(answer(update)).toEqual(forbidden);
    expect(answer(await u.client.request('DELETE', `/svc/v1/logs/${owned}`))).toEqual(forbidden);
  });
});

describe('users (other-resources.md §5)', () => {
  it('validate username and the admin flags', async () => {
    for (const username of ['bad name', '1abc', 'a_b']) {
      const res = await root().request('POST', '/svc/v1/users', { json: { user: { username } } });
      expect(answer(res)).toEqual([422, [`username '${username}' is invalid`]]);
    }
    const inactiveAdmin = await root().request('POST', '/svc/v1/users', {
      json: { user: { is_admin: true, is_active: false } },
    });
    expect(answer(inactiveAdmin)).toEqual([422, ['Admin users cannot be inactive']]);
    const demote = await root().request('PUT', `/svc/v1/users/${SYSTEM}`, {
      json: { user: { is_admin: false } },
    });
    expect(answer(demote)).toEqual([422, ['cannot remove admin from the system user']]);
    const system = await root().request('GET', '/svc/v1/users/system');
    expect([system.status, system.body.uuid, system.body.is_admin]).toEqual([200, SYSTEM, true]);
  });

  it('are created and deleted by admins only; a manager edits names and prefs only', async () => {
    const m = await makeUser(d.current);
    const v = await makeUser(d.current);
    const create = await m.client.request('POST', '/svc/v1/users', {
      json: { user: { email: `by-m-${Date.now()}@example.com` } },
    });
    expect(answer(create)).toEqual(forbidden);
    // Readable (all users), but not manageable: no update.
    const stranger = await m.client.request('PUT', `/svc/v1/users/${v.uuid}`, {
      json: { user: { first_name: 'No' } },
    });
    expect(answer(stranger)).toEqual(insufficient(v.uuid));
    await grant(m.uuid, 'can_manage', v.uuid);
    const edit = await m.client.request('PUT', `/svc/v1/users/${v.uuid}`, {
      json: {
        user: { first_name: 'Vee', last_name: 'Jay', prefs: { a: 1 }, is_admin: true },
      },
    });
    expect([edit.status, edit.body.first_name, edit.body.full_name, edit.body.is_admin]).toEqual([
      200,
      'Vee',
      'Vee Jay',
      false,
    ]);
    const stored = await root().request('GET', `/svc/v1/users/${v.uuid}`);
    expect([stored.body.prefs, stored.body.is_admin]).toEqual([{ a: 1 }, false]);
    for (const field of ['username', 'email', 'identity_url']) {
      const res = await m.client.request('PUT', `/svc/v1/users/${v.uuid}`, {
        json: { user: { [field]: field === 'email' ? 'new@example.com' : 'newvalue' } },
      });
      expect([field, ...answer(res)]).toEqual([
        field,
        403,
        [`Forbidden: only admins may change ${field}`],
      ]);
    }
    expect(answer(await m.client.request('DELETE', `/svc/v1/users/${v.uuid}`))).toEqual(forbidden);
    expect((await root().request('GET', `/svc/v1/users/${v.uuid}`)).status).toBe(200);
  });
});

describe('api_clients (other-resources.md §6, auth.md §7)', () => {
  it('are changed by admins only, and deleting one deletes its tokens', async () => {
    const res = await login(d.current, 'alice', 'alice-pw', { return_to: `${GONE}/cb` });
    expect(res.status).toBe(200);
    const clientUuid = res.body.api_client_uuid as string;
    const token = `v2/${res.body.uuid}/${res.body.api_token}`;
    expect((await d.current.client(token).request('GET', '/svc/v1/users/current')).status).toBe(
      200,
    );
    const u = await makeUser(d.current);
    const update = await u.client.request('PUT', `/svc/v1/api_clients/${clientUuid}`, {
      json: { api_client: { is_trusted: true } },
    });
    expect(answer(update)).toEqual(forbidden);
    expect(answer(await u.client.request('DELETE', `/svc/v1/api_clients/${clientUuid}`))).toEqual(
      forbidden,
    );
    const del = await root().request('DELETE', `/svc/v1/api_clients/${clientUuid}`);
    expect(del.status).toBe(200);
    const record = await root().request(
      'GET',
      `/svc/v1/api_client_authorizations/${res.body.uuid}`,
    );
    const after = await d.current.client(token).request('GET', '/svc/v1/users/current');
    expect({ record: record.status, use: answer(after) }).toEqual({
      record: 404,
      use: [401, ['Not logged in']],
    });
  });
});

describe('tokens (auth.md §2, §3, §5, §6)', () => {
  it('never show the secret in update and delete answers; a scope change applies at once', async () => {
    const u = await makeUser(d.current);
    const made = await u.client.request('POST', '/svc/v1/api_client_authorizations', {
      json: {},
    });
    expect(made.status).toBe(200);
    const t = d.current.client(`v2/${made.body.uuid}/${made.body.api_token}`);
    const path = `/svc/v1/api_client_authorizations/${made.body.uuid}`;
    const narrowed = await u.client.request('PUT', path, {
      json: { api_client_authorization: { scopes: ['GET /'] } },
    });
    expect([narrowed.status, narrowed.body.scopes, narrowed.body.api_token]).toEqual([
      200,
      ['GET /'],
      null,
    ]);
    expect(answer(await t.request('POST', '/svc/v1/workflows', { json: {} }))).toEqual(forbidden);
    expect((await t.request('GET', '/svc/v1/users/current')).status).toBe(200);
    const del = await u.client.request('DELETE', path);
    expect([del.status, del.body.uuid, del.body.api_token]).toEqual([200, made.body.uuid, null]);
  });

  it('accept the anonymous token salted for this cluster, not for another', async () => {
    const here = `v2/home1-gj3su-anonymouspublic/${hmacHex('sha1', ANON, 'home1')}`;
    const anon = d.current.client(here);
    const me = await anon.request('GET', '/svc/v1/users/current');
    expect([me.status, me.body.uuid]).toEqual([200, 'home1-tpzed-anonymouspublic']);
    expect(answer(await anon.request('POST', '/svc/v1/workflows', { json: {} }))).toEqual(
      forbidden,
    );
    const there = `v2/home1-gj3su-anonymouspublic/${hmacHex('sha1', ANON, 'rmt02')}`;
    // Keyed on the token's digest (the old rule), the salted form logs nobody in.
    const fromDigest = `v2/home1-gj3su-anonymouspublic/${hmacHex('sha1', secretDigest(ANON), 'home1')}`;
    const refused = await d.current.client(fromDigest).request('GET', '/svc/v1/users/current');
    expect(answer(refused)).toEqual([401, ['Not logged in']]);
    const other = await d.current.client(there).request('GET', '/svc/v1/users/current');
    expect(answer(other)).toEqual([401, ['Not logged in']]);
  });

  it('answer current for the anonymous token, with its GET / scope', async () => {
    const cur = await d.current
      .client(ANON)
      .request('GET', '/svc/v1/api_client_authorizations/current');
    expect([cur.status, cur.body.errors, cur.body.owner_uuid, cur.body.scopes]).toEqual([
      200,
      undefined,
      'home1-tpzed-anonymouspublic',
      ['GET /'],
    ]);
  });
});

describe('collections (other-resources.md §1)', () => {
  it('count distinct files, and are not found by hash once trashed', async () => {
    const u = await makeUser(d.current);
    const loc = `${createHash('md5').update(`gaps-${Date.now()}-${Math.random()}`).digest('hex')}+3`;
    const manifest = `. ${loc} 0:1:a.txt 1:2:a.txt 0:3:b.txt\n./sub ${loc} 0:3:a.txt\n`;
    const pdh = `${createHash('md5').update(manifest).digest('hex')}+${Buffer.byteLength(manifest)}`;
    const made = await u.client.request('POST', '/svc/v1/collections', {
      json: { collection: { manifest_text: signManifestFor(d.current, u.token, manifest) } },
    });
    expect([
      made.status,
      made.body.portable_data_hash,
      made.body.file_count,
      made.body.file_size_total,
    ]).toEqual([200, pdh, 3, 9]);
    expect((await u.client.request('GET', `/svc/v1/collections/${pdh}`)).status).toBe(200);
    const trash = await u.client.request('DELETE', `/svc/v1/collections/${made.body.uuid}`);
    expect([trash.status, trash.body.is_trashed]).toEqual([200, true]);
    const byHash = await u.client.request('GET', `/svc/v1/collections/${pdh}`);
    expect(answer(byHash)).toEqual([404, ['Object not found']]);
  });
});
