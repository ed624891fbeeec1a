import Ajv2020 from 'ajv/dist/2020';
import { validate, compileErrors } from '@readme/openapi-parser';
import { buildOpenApi, ENDPOINTS, endpointId, RESOURCES, schemaName } from '@svc/contract';
import { useDeployment } from '../harness/deployment';
import { makeUser } from '../harness/users';

/** `GET /svc/v1/openapi.json`: public, valid, complete, and true to what the server answers. */
const d = useDeployment();
const fetchDoc = (token: string | null = null) =>
  d.current.client(token).request('GET', '/svc/v1/openapi.json');

describe('the served OpenAPI document', () => {
  it('needs no token, ignores a bad one, and is the document built from the table', async () => {
    const plain = await fetchDoc();
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toMatch(/^application\/json/);
    const withBadToken = await fetchDoc('nonsense');
    expect(withBadToken.status).toBe(200);
    expect(plain.body).toEqual(buildOpenApi({ serverUrl: '/svc/v1' }));
    expect(withBadToken.body).toEqual(plain.body);
  });

  it('validates as OpenAPI 3.1 and has every endpoint of the table', async () => {
    const doc = (await fetchDoc()).body;
    const result = await validate(doc);
    if (!result.valid) throw new Error(compileErrors(result));
    const served = Object.values<Record<string, any>>(doc.paths).flatMap((item) =>
      Object.values<any>(item).map((op) => op['x-svc-endpoint']),
    );
    const missing = ENDPOINTS.map(endpointId).filter((id) => !served.includes(id));
    expect(missing).toEqual([]);
  });

  it('describes the answers the server really gives', async () => {
    const doc = (await fetchDoc()).body;
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema(doc, 'openapi.json');
    const check = (schema: string, body: unknown) => {
      const fn = ajv.getSchema(`openapi.json#/components/schemas/${schema}`)!;
      expect([schema, fn(body), fn.errors ?? null]).toEqual([schema, true, null]);
    };
    const user = await makeUser(d.current);
    const api = user.client.api;
    const project = await api.groups.create({
      attributes: { name: 'openapi', group_class: 'project' },
    });
    check('Group', project);
    check('GroupList', await api.groups.list({ limit: 2 }));
    check('Collection', await api.collections.create({ attributes: { name: 'c' } }));
    check('User', await api.users.current());
    check('ApiClientAuthorization', await api.apiClientAuthorizations.current());
    check('LinkList', await api.links.list({ select: ['uuid', 'link_class'] }));
    const missing = await user.client.request('GET', '/svc/v1/groups/home1-j7d0g-000000000000zzz');
    check('Error', missing.body);
    const bad = await user.client.request('GET', '/svc/v1/groups', { query: { limit: 'x' } });
    check('Error', bad.body);
    // A rendered object lacking a declared type is refused: the check can fail.
    const fn = ajv.getSchema(`openapi.json#/components/schemas/${schemaName(RESOURCES[1]!)}`)!;
    expect(fn({ ...project, name: 5 })).toBe(false);
  });
});
