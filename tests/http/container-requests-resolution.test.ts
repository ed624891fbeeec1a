/** containers.md §6 step 2: what a commit resolves with the runtime user's permissions. */
import {
  committedRequest,
  createRequest,
  getContainer,
  makeCollection,
  makeImage,
} from '../harness/containers';
import { useDeployment } from '../harness/deployment';
import { makeUser, type TestUser } from '../harness/users';

const d = useDeployment();
const ERROR_TOKEN = /^\d+\+[0-9a-f]{8}$/;

let u: TestUser;
let image: string;
beforeAll(async () => {
  u = await makeUser(d.current);
  image = await makeImage(u.client);
});

const post = (body: Record<string, unknown>, user: TestUser = u) =>
  user.client.request('POST', '/svc/v1/container_requests', { json: { container_request: body } });

async function refused(body: Record<string, unknown>, errors: string[]) {
  const res = await post(body);
  expect([res.status, res.body]).toEqual([
    422,
    { errors, error_token: expect.stringMatching(ERROR_TOKEN) },
  ]);
}

describe('§6 step 2: resolution with the runtime user', () => {
  it('refuses an image the runtime user cannot read, or that is hidden', async () => {
    const other = await makeUser(d.current);
    const theirs = await makeImage(other.client);
    await refused(committedRequest(theirs), [`container_image "${theirs}" not found`]);
    await refused(committedRequest('acbd18db4cc2f85cedef654fccc4a4d8+3'), [
      'container_image "acbd18db4cc2f85cedef654fccc4a4d8+3" not found',
    ]);
    const trashed = await makeCollection(u.client);
    await u.client.request('DELETE', `/svc/v1/collections/${trashed.uuid}`);
    await refused(committedRequest(trashed.pdh), [`container_image "${trashed.pdh}" not found`]);
  });

  describe('an image name (registration convention)', () => {
    const id = (c: string) => `sha256:${c.repeat(64)}`;
    /** The two links `svc image put` writes for an image collection, with the user's token. */
    async function register(user: TestUser, pdhOf: { uuid: string }, tag: string, hash: string) {
      for (const [link_class, name] of [
        ['docker_image_hash', hash],
        ['docker_image_repo+tag', tag],
      ]) {
        const res = await user.client.request('POST', '/svc/v1/links', {
          json: {
            link: {
              link_class,
              name,
              head_uuid: pdhOf.uuid,
              properties: { image_timestamp: '2026-01-01T00:00:00Z' },
            },
          },
        });
        expect(res.status).toBe(200);
      }
    }

    it('resolves repo:tag, repo (as :latest), sha256 and its 12-hex prefix; the request keeps the name', async () => {
      const img = await makeCollection(u.client, { name: 'wf image' });
      await register(u, img, 'wf/runner:1.0', id('a'));
      const latest = await makeCollection(u.client, { name: 'wf image latest' });
      await register(u, latest, 'wf/runner:latest', id('b'));
      for (const [name, pdh] of [
        ['wf/runner:1.0', img.pdh],
        ['wf/runner', latest.pdh],
        [id('a'), img.pdh],
        [id('b').slice(0, 'sha256:'.length + 12), latest.pdh],
      ] as const) {
        const cr = await createRequest(u.client, committedRequest(name, { command: [name] }));
        expect(cr.container_image).toBe(name);
        expect((await getContainer(d.current, cr.container_uuid)).container_image).toBe(pdh);
      }
    });

    it('takes the newest registration; names the runtime user cannot read do not resolve', async () => {
      const old = await makeCollection(u.client, { name: 'old' });
      await register(u, old, 'wf/tool:2', id('c'));
      const newer = await makeCollection(u.client, { name: 'newer' });
      const later = await u.client.request('POST', '/svc/v1/links', {
        json: {
          link: {
            link_class: 'docker_image_repo+tag',
            name: 'wf/tool:2',
            head_uuid: newer.uuid,
            properties: { image_timestamp: '2026-06-01T00:00:00Z' },
          },
        },
      });
      expect(later.status).toBe(200);
      const cr = await createRequest(u.client, committedRequest('wf/tool:2'));
      expect((await getContainer(d.current, cr.container_uuid)).container_image).toBe(newer.pdh);
      // another user's registration, and an unknown name, are not found
      const other = await makeUser(d.current);
      const theirs = await makeCollection(other.client);
      await register(other, theirs, 'theirs/only:1', id('d'));
      for (const name of ['theirs/only:1', id('d'), 'nobody/has:this']) {
        await refused(committedRequest(name), [`container_image "${name}" not found`]);
      }
      // a trashed image collection no longer resolves
      await u.client.request('DELETE', `/svc/v1/collections/${newer.uuid}`);
      const back = await createRequest(u.client, committedRequest('wf/tool:2', { command: ['b'] }));
      expect((await getContainer(d.current, back.container_uuid)).container_image).toBe(old.pdh);
    });
  });

  it('gives the container the PDH of collection mounts named by uuid; the request keeps the uuid', async () => {
    const data = await makeCollection(u.client);
    const mounts = {
      '/out': { kind: 'tmp' },
      '/data': { kind: 'collection', uuid: data.uuid, path: '/' },
    };
    const cr = await createRequest(u.client, committedRequest(image, { mounts }));
    expect(cr.mounts['/data']).toEqual({ kind: 'collection', uuid: data.uuid, path: '/' });
    const c = await getContainer(d.current, cr.container_uuid);
    expect(c.mounts['/data']).toEqual({
      kind: 'collection',
      portable_data_hash: data.pdh,
      path: '/',
    });
    // A request naming the PDH resolves to the same container.
    const byPdh = await createRequest(
      u.client,
      committedRequest(image, {
        mounts: {
          '/out': { kind: 'tmp' },
          '/data': { kind: 'collection', portable_data_hash: data.pdh, path: '/' },
        },
      }),
    );
    expect(byPdh.container_uuid).toBe(cr.container_uuid);
  });

  it('refuses a mounted collection the runtime user cannot read', async () => {
    const other = await makeUser(d.current);
    const theirs = await makeCollection(other.client);
    await refused(
      committedRequest(image, {
        mounts: { '/out': { kind: 'tmp' }, '/d': { kind: 'collection', uuid: theirs.uuid } },
      }),
      [`cannot mount collection "${theirs.uuid}": not found`],
    );
  });

  it('gives the container a disk cache from ram when no cache size is asked', async () => {
    const cr = await createRequest(
      u.client,
      committedRequest(image, { runtime_constraints: { ram: 300000000, vcpus: 1 } }),
    );
    expect(cr.runtime_constraints.keep_cache_disk).toBe(0);
    const c = await getContainer(d.current, cr.container_uuid);
    expect(c.runtime_constraints).toEqual({
      API: false,
      keep_cache_disk: 2147483648,
      keep_cache_ram: 0,
      ram: 300000000,
      vcpus: 1,
    });
  });

  it("sets runtime_user_uuid and the committing token's scopes", async () => {
    const scoped = await makeUser(d.current, {}, { scopes: ['all'] });
    const img = await makeImage(scoped.client);
    const cr = await createRequest(scoped.client, committedRequest(img));
    expect([cr.runtime_user_uuid, cr.runtime_auth_scopes]).toEqual([scoped.uuid, ['all']]);
    const c = await getContainer(d.current, cr.container_uuid);
    expect([c.runtime_user_uuid, c.runtime_auth_scopes]).toEqual([scoped.uuid, ['all']]);
  });

  it("with a runtime_token, runs as that token's user with its scopes", async () => {
    const runner = await makeUser(
      d.current,
      {},
      { scopes: ['GET /svc/v1/collections/', 'GET /svc/v1/users/current'] },
    );
    const project = await u.client.request('POST', '/svc/v1/groups', {
      json: { group: { name: 'shared images', group_class: 'project' } },
    });
    const share = await u.client.request('POST', '/svc/v1/links', {
      json: {
        link: {
          link_class: 'permission',
          name: 'can_read',
          tail_uuid: runner.uuid,
          head_uuid: project.body.uuid,
        },
      },
    });
    expect(share.status).toBe(200);
    const img = (await makeCollection(u.client, { owner_uuid: project.body.uuid })).pdh;
    const cr = await createRequest(
      u.client,
      committedRequest(img, { runtime_token: runner.token }),
    );
    expect([cr.runtime_user_uuid, cr.runtime_auth_scopes]).toEqual([
      runner.uuid,
      ['GET /svc/v1/collections/', 'GET /svc/v1/users/current'],
    ]);
    expect(Object.keys(cr)).not.toContain('runtime_token');
  });
});
