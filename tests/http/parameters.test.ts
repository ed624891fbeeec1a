/**
 * Parameters (requests-and-errors.md §3; the § numbers of test names are that chapter's): the
 * method override, where parameters come from and which source wins, and how their values are
 * converted and checked.
 */
import { useDeployment } from '../harness/deployment';
import { rootObjectsIn } from '../harness/objects';

const d = useDeployment();
const root = () => d.current.root;
const { newGroup, namedProject: project, create } = rootObjectsIn(d);

describe('method override and parameters', () => {
  it('handles a POST with _method or X-Http-Method-Override as that method', async () => {
    const g = await newGroup({ name: 'override' });
    const viaParam = await root().request('POST', `/svc/v1/groups/${g.uuid}`, {
      query: { _method: 'get' },
    });
    expect([viaParam.status, viaParam.body.uuid]).toEqual([200, g.uuid]);
    const viaHeader = await root().request('POST', '/svc/v1/groups', {
      headers: { 'x-http-method-override': 'GET' },
      form: { limit: '1', select: '["uuid"]' },
    });
    expect([viaHeader.status, viaHeader.body.kind, viaHeader.body.limit]).toEqual([
      200,
      'svc#groupList',
      1,
    ]);
    const paramWins = await root().request('POST', `/svc/v1/groups/${g.uuid}`, {
      headers: { 'x-http-method-override': 'DELETE' },
      form: { _method: 'PATCH', group: JSON.stringify({ description: 'via form' }) },
    });
    expect([paramWins.status, paramWins.body.description, paramWins.body.is_trashed]).toEqual([
      200,
      'via form',
      false,
    ]);
    const ignored = await root().request('GET', `/svc/v1/groups/${g.uuid}`, {
      query: { _method: 'DELETE' },
    });
    expect([ignored.status, ignored.body.is_trashed]).toEqual([200, false]);
    const unsupported = await root().request('POST', '/svc/v1/groups', {
      headers: { 'x-http-method-override': 'HEAD' },
      json: { group: { group_class: 'project' } },
    });
    expect([unsupported.status, unsupported.body.kind]).toEqual([200, 'svc#group']);
  });

  it('takes JSON-encoded strings and ignores unknown parameters', async () => {
    const res = await root().request('GET', '/svc/v1/groups', {
      query: {
        limit: '2',
        offset: '0',
        order: '["name asc"]',
        select: '["name"]',
        alt: 'json',
        bogus: 'x',
      },
    });
    expect([res.status, res.body.limit, res.body.items.length]).toEqual([200, 2, 2]);
  });

  it('lets the JSON body win over the query string', async () => {
    const res = await root().request('POST', '/svc/v1/groups', {
      query: { _method: 'GET', limit: '5' },
      json: { limit: 1 },
    });
    expect([res.status, res.body.limit]).toEqual([200, 1]);
  });

  it('§3: the path wins over the body and the query, a form body over the query', async () => {
    const a = await create('workflows', 'workflow', { name: 'path-a' });
    const b = await create('workflows', 'workflow', { name: 'path-b' });
    const viaBody = await root().request('POST', `/svc/v1/workflows/${a.uuid}`, {
      json: { _method: 'GET', uuid: b.uuid },
    });
    expect([viaBody.status, viaBody.body.uuid]).toEqual([200, a.uuid]);
    const viaQuery = await root().request('GET', `/svc/v1/workflows/${a.uuid}`, {
      query: { uuid: b.uuid },
    });
    expect([viaQuery.status, viaQuery.body.uuid]).toEqual([200, a.uuid]);
    const formOverQuery = await root().request('POST', '/svc/v1/workflows', {
      query: { _method: 'GET', limit: '5', select: '["name"]' },
      form: { limit: '1' },
    });
    expect([formOverQuery.status, formOverQuery.body.limit]).toEqual([200, 1]);
    expect(Object.keys(formOverQuery.body.items[0]).sort()).toEqual(['kind', 'name']);
  });

  it('§3: converts string values at the top level of a JSON body', async () => {
    const owner = await project('top-level strings');
    for (const name of ['t1', 't2', 't3']) {
      await create('workflows', 'workflow', { name, owner_uuid: owner });
    }
    const res = await root().request('POST', '/svc/v1/workflows', {
      json: {
        _method: 'GET',
        filters: JSON.stringify([['owner_uuid', '=', owner]]),
        limit: '2',
        offset: '1',
        count: 'none',
        select: '["uuid"]',
      },
    });
    expect([res.status, res.body.limit, res.body.offset, res.body.items.length]).toEqual([
      200, 2, 1, 2,
    ]);
    expect(res.body).not.toHaveProperty('items_available');
    expect(Object.keys(res.body.items[0]).sort()).toEqual(['kind', 'uuid']);
  });

  it('§3: validates every boolean parameter, include_old_versions and bypass_federation too', async () => {
    const message = (name: string) => [`${name} parameter must be a boolean, true or false`];
    const got: unknown[] = [];
    const want: unknown[] = [];
    for (const name of ['distinct', 'include_trash', 'include_old_versions', 'bypass_federation']) {
      for (const value of ['maybe', 'yes', '2', 'true', '1', 'false', '0', '']) {
        const res = await root().request('GET', '/svc/v1/collections', {
          query: { limit: 0, [name]: value },
        });
        const valid = ['true', '1', 'false', '0', ''].includes(value);
        got.push([name, value, res.status, res.body.errors]);
        want.push([name, value, valid ? 200 : 422, valid ? undefined : message(name)]);
      }
    }
    for (const name of ['ensure_unique_name', 'async']) {
      const res = await root().request('POST', '/svc/v1/groups', {
        query: { [name]: 'maybe' },
        json: { group: { group_class: 'project' } },
      });
      got.push([name, 'maybe', res.status, res.body.errors]);
      want.push([name, 'maybe', 422, message(name)]);
    }
    expect(got).toEqual(want);
  });
});
