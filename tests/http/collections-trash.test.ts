/** other-resources.md §1: trash and untrash of collections, as groups.md §6 for groups. */
import { homeCore, useDeployment } from '../harness/deployment';
import { expectTrashNeedsWrite, makeProject, untrashed } from '../harness/groups';
import { makeUser, type TestUser } from '../harness/users';

const d = useDeployment();

const post = (u: TestUser, path: string, query: Record<string, unknown> = {}) =>
  u.client.request('POST', path, { query });
const get = (u: TestUser, path: string, query: Record<string, unknown> = {}) =>
  u.client.request('GET', path, { query });
const makeCollection = async (u: TestUser, attributes: Record<string, unknown> = {}) =>
  (await u.client.request('POST', '/svc/v1/collections', { json: { collection: attributes } }))
    .body as { uuid: string; name: string | null };

describe('typed client', () => {
  it('the typed client trashes and untrashes', async () => {
    const { api } = (await makeUser(d.current)).client;
    const c = await api.collections.create({ attributes: { name: `typed ${Date.now()}` } });
    expect((await api.collections.trash({ uuid: c.uuid })).is_trashed).toBe(true);
    const back = await api.collections.untrash({ uuid: c.uuid, ensure_unique_name: true });
    expect([back.uuid, back.is_trashed, back.name]).toEqual([c.uuid, false, c.name]);
  });
});

describe('trash and untrash', () => {
  let U: TestUser;
  beforeAll(async () => {
    U = await makeUser(d.current);
  });

  it('POST trash is delete: trash_at now, delete_at + BlobSigningTTL, hidden; again changes nothing', async () => {
    const c = await makeCollection(U);
    const res = await post(U, `/svc/v1/collections/${c.uuid}/trash`);
    expect([res.status, res.body.uuid, res.body.is_trashed]).toEqual([200, c.uuid, true]);
    expect(Math.abs(Date.parse(res.body.trash_at) - Date.now())).toBeLessThan(60_000);
    expect((Date.parse(res.body.delete_at) - Date.parse(res.body.trash_at)) / 1000).toBe(1209600);
    expect((await get(U, `/svc/v1/collections/${c.uuid}`)).status).toBe(404);
    const listed = await get(U, '/svc/v1/collections', { filters: [['uuid', '=', c.uuid]] });
    expect(listed.body.items).toEqual([]);
    const again = await post(U, `/svc/v1/collections/${c.uuid}/trash`);
    expect([again.status, again.body.trash_at]).toEqual([200, res.body.trash_at]);
    const deleted = await U.client.request('DELETE', `/svc/v1/collections/${c.uuid}`);
    expect([deleted.status, deleted.body.trash_at]).toEqual([200, res.body.trash_at]);
  });

  it('trash finds a collection hidden only by its trashed project with include_trash=true, else 404', async () => {
    const project = await makeProject(U.client);
    const inside = await makeCollection(U, { owner_uuid: project.uuid });
    await post(U, `/svc/v1/groups/${project.uuid}/trash`);
    expect((await post(U, `/svc/v1/collections/${inside.uuid}/trash`)).status).toBe(404);
    const res = await post(U, `/svc/v1/collections/${inside.uuid}/trash`, { include_trash: true });
    expect([res.status, res.body.uuid, res.body.is_trashed]).toEqual([200, inside.uuid, true]);
  });

  it('untrash finds the trashed collection and shows it again', async () => {
    const c = await makeCollection(U, { name: `back ${Date.now()}` });
    await post(U, `/svc/v1/collections/${c.uuid}/trash`);
    const res = await post(U, `/svc/v1/collections/${c.uuid}/untrash`);
    expect(untrashed(res)).toEqual([200, c.name, false, null, null]);
    expect((await get(U, `/svc/v1/collections/${c.uuid}`)).status).toBe(200);
  });

  it('a trashed collection holds no name; untrash then clashes, or renames with ensure_unique_name', async () => {
    const name = `clash ${Date.now()}`;
    const c = await makeCollection(U, { name });
    await post(U, `/svc/v1/collections/${c.uuid}/trash`);
    expect((await makeCollection(U, { name })).name).toBe(name);
    const clash = await post(U, `/svc/v1/collections/${c.uuid}/untrash`);
    expect([clash.status, clash.body.errors]).toEqual([
      422,
      [
        `duplicate key value violates unique constraint: collection named '${name}' already exists in '${U.uuid}'`,
      ],
    ]);
    expect((await get(U, `/svc/v1/collections/${c.uuid}`)).status).toBe(404);
    const res = await post(U, `/svc/v1/collections/${c.uuid}/untrash`, {
      ensure_unique_name: true,
    });
    expect([res.status, res.body.name, res.body.is_trashed]).toEqual([
      200,
      `${name} (${c.uuid.slice(-15)})`,
      false,
    ]);
  });

  it('refuses to untrash a collection that is not trashed, or hidden only by its project', async () => {
    const c = await makeCollection(U);
    const res = await post(U, `/svc/v1/collections/${c.uuid}/untrash`);
    expect([res.status, res.body.errors]).toEqual([422, ['Item is not trashed, cannot untrash']]);
    const project = await makeProject(U.client);
    const inside = await makeCollection(U, { owner_uuid: project.uuid });
    await post(U, `/svc/v1/groups/${project.uuid}/trash`);
    const hidden = await post(U, `/svc/v1/collections/${inside.uuid}/untrash`);
    expect([hidden.status, hidden.body.errors]).toEqual([
      422,
      ['Item is not trashed, cannot untrash'],
    ]);
  });

  it('refuses to untrash once delete_at has passed', async () => {
    const c = await makeCollection(U);
    await post(U, `/svc/v1/collections/${c.uuid}/trash`);
    await homeCore(d.current).db.query({
      text: `UPDATE collections SET trash_at = now() - interval '2 days', delete_at = now() - interval '1 day' WHERE uuid = $1`,
      values: [c.uuid],
    });
    const res = await post(U, `/svc/v1/collections/${c.uuid}/untrash`);
    expect([res.status, res.body.errors]).toEqual([
      422,
      ['delete_at time has already passed, cannot untrash'],
    ]);
  });

  it('need write: readers get 403, others 404', async () => {
    const owner = await makeUser(d.current);
    const project = await makeProject(owner.client);
    const c = await makeCollection(owner, { owner_uuid: project.uuid });
    await expectTrashNeedsWrite(d.current, owner, project.uuid, `collections/${c.uuid}`);
  });
});
