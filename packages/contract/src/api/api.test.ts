import { groups } from '../registry';
import { ENDPOINTS, endpointId } from '../endpoints';
import { bindApi, type Executor } from './bind';
import type { InputOf, OptionsOfId, SvcApi } from './types';

/** Calls that must compile, and calls that must not (`pnpm typecheck` checks this file). */
async function typedUses(api: SvcApi) {
  const g = await api.groups.get({ uuid: 'x', select: ['name'] });
  const name: string | null = g.name;
  const list = await api.containerRequests.list({ limit: 5, include_trash: true });
  const image: string | null | undefined = list.items[0]?.container_image;
  await api.groups.create({ attributes: { name: 'p', group_class: 'project' }, async: true });
  // @ts-expect-error a misspelled attribute does not compile
  await api.groups.create({ attributes: { nmae: 'p' } });
  // @ts-expect-error `uuid` is required
  await api.collections.get({});
  // @ts-expect-error links take no `recursive`
  await api.links.list({ recursive: true });
  const config = await api.configs.get();
  const login: OptionsOfId<'svc.users.authenticate'> = { username: 'a', password: 'b' };
  const input: InputOf<typeof groups> = { name: 'x', properties: {} };
  // @ts-expect-error `kind` is not client input
  const bad: InputOf<typeof groups> = { kind: 'x' };
  return [name, image, config.ClusterID, login, input, bad, await typedLists(api)];
}

/** The filter language, `select` and `order`, typed per resource. */
async function typedLists(api: SvcApi) {
  await api.collections.list({
    filters: [
      ['name', 'like', '%x%'],
      ['properties.color', '=', 'red'],
      ['any', 'ilike', '%genome%'],
      ['replication_desired', 'not in', [1, 2]],
      '(replication_desired > replication_confirmed)',
    ],
    select: ['uuid', 'name'],
    order: ['name desc', 'modified_at'],
  });
  await api.containerRequests.list({ filters: [['container.state', '=', 'Complete']] });
  // @ts-expect-error a misspelled attribute in a filter does not compile
  await api.collections.list({ filters: [['nmae', '=', 'x']] });
  // @ts-expect-error only hash attributes take the `<attribute>.<key>` form
  await api.collections.list({ filters: [['name.x', '=', 'x']] });
  // @ts-expect-error an unknown operator does not compile
  await api.collections.list({ filters: [['name', '~', 'x']] });
  // @ts-expect-error `container.<attr>` is for container requests only
  await api.collections.list({ filters: [['container.state', '=', 'x']] });
  // @ts-expect-error select names attributes of the resource
  await api.groups.get({ uuid: 'x', select: ['nmae'] });
  // @ts-expect-error order names attributes of the resource
  await api.links.list({ order: ['nmae asc'] });
  // @ts-expect-error a direction is asc or desc
  await api.links.list({ order: ['name up'] });
}

describe('the typed API', () => {
  it('binds every operation of the table to one executor, by endpoint id', async () => {
    const calls: [string, Record<string, unknown>][] = [];
    const execute: Executor = async (id, options) => {
      calls.push([id, options]);
      return { id };
    };
    const api = bindApi(execute);
    await api.containerRequests.get({ uuid: 'u' });
    await api.apiClientAuthorizations.current();
    await api.groups.list();
    expect(calls).toEqual([
      ['svc.container_requests.get', { uuid: 'u' }],
      ['svc.api_client_authorizations.current', {}],
      ['svc.groups.list', {}],
    ]);
    const bound = Object.entries(api).flatMap(([r, methods]) =>
      Object.keys(methods as object).map((m) => `${r}.${m}`),
    );
    expect(bound).toHaveLength(ENDPOINTS.length);
    expect(typeof typedUses).toBe('function');
  });

  it('has unique endpoint ids, and a response schema or plain JSON for each', () => {
    const ids = ENDPOINTS.map(endpointId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ENDPOINTS.find((e) => endpointId(e) === 'svc.configs.get')?.response).toBeNull();
    expect(ENDPOINTS.find((e) => endpointId(e) === 'svc.groups.list')?.response).toBe('GroupList');
    expect(ENDPOINTS.find((e) => endpointId(e) === 'svc.groups.update')?.methods).toEqual([
      'PUT',
      'PATCH',
    ]);
  });
});
