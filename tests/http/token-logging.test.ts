/**
 * No token reaches a log line, wherever the request carried it and however it spelled its path
 * (docs/api/auth.md §1, docs/api/storage.md §9): headers (Bearer, OAuth2, Basic, cookie), `api_token` in a query
 * string, a form or a JSON body, `t=` in a file path with `/` as `%2F` or as it is, the whole
 * `/c=` prefix percent-encoded, unknown paths holding a token, `/logout?api_token=`. Every line
 * the servers write (debug level included) is read back; request lines name route templates
 * only.
 */
import { capturingLogger } from '../harness/log-capture';
import { useDeployment } from '../harness/deployment';
import { raw, volumeDirs, withVolumes } from '../harness/storage';
import { makeUser, type TestUser } from '../harness/users';

const capture = capturingLogger('debug');
const dirs = volumeDirs(1);
const d = useDeployment({ ...withVolumes(dirs), logger: capture.logger });

let u: TestUser;
let secret: string;
let collection: string;
beforeAll(async () => {
  u = await makeUser(d.current);
  secret = u.token.split('/')[2]!;
  collection = (await u.client.request('POST', '/svc/v1/collections', { json: { collection: {} } }))
    .body.uuid;
  const put = await raw(d.current.url, 'PUT', `/c=${collection}/a.txt`, {
    token: u.token,
    body: 'a',
  });
  expect(put.status).toBe(201);
});

const enc = encodeURIComponent;

it('writes no token into any log line, whatever the placement or spelling', async () => {
  const v2 = u.token;
  const basic = Buffer.from(`x:${v2}`).toString('base64');
  const asked: [string, string, Record<string, string>?, string?][] = [
    // the API: header forms, query string, form body, JSON body
    ['GET', '/svc/v1/collections', { authorization: `Bearer ${v2}` }],
    ['GET', '/svc/v1/collections', { authorization: `OAuth2 ${secret}` }],
    ['GET', `/svc/v1/collections?api_token=${enc(v2)}`],
    ['GET', `/svc/v1/collections?api_token=${secret}`],
    ['GET', `/svc/v1/collections/${collection}?api_token=${v2}`],
    [
      'POST',
      '/svc/v1/collections',
      { 'content-type': 'application/x-www-form-urlencoded' },
      `_method=GET&api_token=${enc(v2)}`,
    ],
    [
      'POST',
      '/svc/v1/collections',
      { 'content-type': 'application/json' },
      JSON.stringify({ api_token: v2, collection: {} }),
    ],
    // file access: t= (encoded, bare secret, plain slashes), the prefix encoded, query, headers
    ['GET', `/c=${collection}/t=${enc(v2)}/a.txt`],
    ['GET', `/c=${collection}/t=${secret}/a.txt`],
    ['GET', `/c=${collection}/t=${v2}/a.txt`],
    ['GET', `/c%3D${collection}/t%3D${enc(v2)}/a.txt`],
    ['GET', `/c%3d${collection}/t=${enc(v2)}/a.txt`],
    ['GET', `/c=${collection}/a.txt?api_token=${enc(v2)}`],
    ['GET', `/c=${collection}/a.txt`, { cookie: `svc_api_token=${enc(v2)}` }],
    ['GET', `/c=${collection}/a.txt`, { authorization: `Basic ${basic}` }],
    ['PUT', `/c=${collection}/t=${enc(v2)}/b.txt`, {}, 'b'],
    // paths nothing serves, holding a token
    ['GET', `/svc/v1/${secret}`],
    ['GET', `/t=${enc(v2)}/c=${collection}/a.txt`],
    ['GET', `/${secret}/x`],
    ['GET', `/discovery/v1/apis/${secret}/v1/rest`],
    // a browser's logout with its token (ends the token: last)
    ['GET', `/logout?api_token=${enc(v2)}`],
  ];
  const from = capture.lines.length;
  const statuses: number[] = [];
  for (const [method, path, headers, body] of asked) {
    const res = await raw(d.current.url, method, path, {
      headers: headers ?? {},
      ...(body ? { body } : {}),
    });
    statuses.push(res.status);
  }
  // Each was served (or refused) as the request it is, not as a server fault.
  expect(statuses.filter((s) => s >= 500)).toEqual([]);
  expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);

  await new Promise((r) => setTimeout(r, 100)); // the last lines are written after the answers
  const text = capture.lines.map((l) => JSON.stringify(l));
  for (const spelling of [secret, enc(secret), enc(v2)]) {
    expect(text.filter((l) => l.includes(spelling))).toEqual([]);
  }
  const routes = new Set(
    capture.lines
      .slice(from)
      .filter((l) => l['msg'] === 'request')
      .map((l) => l['route']),
  );
  // Templates only: the file route, the API's, the core's calls, and no path as sent.
  expect(routes).toEqual(
    new Set([
      '/svc/v1/collections',
      '/svc/v1/collections/{uuid}',
      '/_call/svc.collections.list',
      '/_call/svc.collections.get',
      '/_call/svc.collections.create',
      '/_call/svc.collections.update',
      '/_internal/tokens/validate',
      '/_internal/logout',
      '/c={collection}/{path}',
      '/discovery/v1/apis/{api}/{version}/rest',
      '/logout',
      '/{console}',
      '{unmatched}',
    ]),
  );
});
