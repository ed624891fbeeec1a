import { containerEnv } from './environment';

/** execution.md §3.4: the command's environment. */
describe('containerEnv', () => {
  const image = { Env: ['PATH=/bin', 'A=image'], User: '', WorkingDir: '' };
  const api = { apiHost: 'http://127.0.0.1:8000', token: 'v2/t/s', insecure: false };

  it("takes the image's Env, then the container's environment; no API variables without API", () => {
    expect(containerEnv({ environment: { A: 'mine', B: 'b' } }, image, api)).toEqual({
      PATH: '/bin',
      A: 'mine',
      B: 'b',
    });
  });

  it('gives SVC_API_HOST as host:port, never a URL; a plain-HTTP gateway adds SVC_API_SCHEME', () => {
    const c = { runtime_constraints: { API: true } };
    expect(containerEnv(c, { ...image, Env: [] }, api)).toEqual({
      SVC_API_HOST: '127.0.0.1:8000',
      SVC_API_SCHEME: 'http',
      SVC_API_TOKEN: 'v2/t/s',
      SVC_API_HOST_INSECURE: '0',
      PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    });
    const tls = { apiHost: 'https://svc.example.org', token: 't', insecure: true };
    const env = containerEnv(c, image, tls);
    expect([env['SVC_API_HOST'], env['SVC_API_SCHEME'], env['SVC_API_HOST_INSECURE']]).toEqual([
      'svc.example.org',
      undefined,
      '1',
    ]);
  });
});
