/**
 * With ExternalURL "", the URLs the server hands out come from the request's Host, and only for
 * a Host of Gateway.AllowedHosts (README, ExternalURL): any other Host is 421 "Misdirected
 * request" on every path, and `/logout` never redirects to a URL built from Host (docs/api/auth.md §9.8).
 */
import { rawExchange } from '../harness/raw-socket';
import { useDeployment } from '../harness/deployment';

const d = useDeployment({ gateway: { AllowedHosts: ['127.0.0.1', 'svc.example.com'] } });
const ERROR_TOKEN = /^\d+\+[0-9a-f]{8}$/;

async function get(path: string, host: string) {
  const out = await rawExchange(d.current.url, [
    `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
  ]);
  const [head, body] = [
    out.slice(0, out.indexOf('\r\n\r\n')),
    out.slice(out.indexOf('\r\n\r\n') + 4),
  ];
  return {
    status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(head)?.[1]),
    location: /\r\nLocation: ([^\r]*)/i.exec(head)?.[1],
    body: body === '' ? null : (JSON.parse(body) as Record<string, any>),
  };
}

const DISCOVERY = '/discovery/v1/apis/svc/v1/rest';

it('an allowed host (any port) builds the root URL', async () => {
  const res = await get(DISCOVERY, 'svc.example.com:8443');
  expect([res.status, res.body!['rootUrl']]).toEqual([200, 'http://svc.example.com:8443/']);
  expect((await get(DISCOVERY, 'SVC.Example.com')).body!['rootUrl']).toBe(
    'http://SVC.Example.com/',
  );
});

it.each([
  'evil.example',
  'evil.example:443',
  'svc.example.com.evil.example',
  'evil.example/phish?',
  'user@svc.example.com',
  'a b',
])('a Host of %p gets 421 on every path', async (host) => {
  for (const path of [DISCOVERY, '/logout', '/svc/v1/users/current', '/c=x/y', '/login']) {
    const res = await get(path, host);
    expect([path, res.status, res.body?.['errors']]).toEqual([path, 421, ['Misdirected request']]);
    expect(res.body!['error_token']).toMatch(ERROR_TOKEN);
  }
});

it('/logout without return_to redirects to the relative /, never to a URL built from Host', async () => {
  for (const host of ['svc.example.com', '127.0.0.1']) {
    const res = await get('/logout', host);
    expect([res.status, res.location]).toEqual([302, '/']);
  }
});
