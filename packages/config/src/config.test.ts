import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from './errors';
import { buildConfig, parseConfigText, singleClusterConfig } from './load';
import { loadDeploymentConfig } from './load-deployment';
import { publicConfig } from './public-config';
import { validateConfig } from './validate';

const TOKEN = 'a'.repeat(32);
const minimal = (extra: Record<string, unknown> = {}) => ({
  Clusters: {
    home1: {
      SystemRootToken: TOKEN,
      Database: { URL: 'postgres://localhost/x' },
      Login: { Test: { Enable: true } },
      ...extra,
    },
  },
});

const failure = (input: unknown): string => {
  try {
    validateConfig(input);
  } catch (e) {
    if (e instanceof ConfigError) return e.message;
    throw e;
  }
  throw new Error('valid');
};

describe('validateConfig', () => {
  it('fills every default and freezes the result', () => {
    const c = validateConfig(minimal());
    const home = c.Clusters['home1']!;
    expect(home.ClusterID).toBe('home1');
    expect(home.API.MaxItemsPerResponse).toBe(1000);
    expect(home.API.MaxRequestSize).toBe(134217728);
    expect(home.Collections.BlobSigningTTL).toBe(1209600);
    expect(home.Containers.MaxRetryAttempts).toBe(3);
    expect(home.Login.OpenIDConnect.EmailClaim).toBe('email');
    expect(home.Login.LDAP.StartTLS).toBe(true);
    expect(home.Login.RemoteTokenRefresh).toBe(300);
    expect(c.Gateway.HomeCluster).toBe('home1');
    expect(Object.isFrozen(home.API)).toBe(true);
  });

  it.each([
    [minimal({ API: { MaxItemsPerResponse: 0 } }), 'Clusters.home1.API.MaxItemsPerResponse'],
    [minimal({ API: { MaxItemsPerResponse: 'ten' } }), 'Clusters.home1.API.MaxItemsPerResponse'],
    [minimal({ Bogus: 1 }), 'Clusters.home1.Bogus: unknown key'],
    [minimal({ SystemRootToken: 'short' }), 'Clusters.home1.SystemRootToken: must be at least 32'],
    [minimal({ Database: {} }), 'Clusters.home1.Database.URL: is required'],
    [minimal({ Database: { URL: 'mysql://x' } }), 'Clusters.home1.Database.URL'],
    [minimal({ Login: {} }), 'Clusters.home1.Login: exactly one of'],
    [
      minimal({ Login: { Test: { Enable: true }, PAM: { Enable: true } } }),
      'Clusters.home1.Login: exactly one of',
    ],
    [minimal({ RemoteClusters: { home1: { Host: 'x' } } }), 'RemoteClusters.home1: must not equal'],
    [minimal({ RemoteClusters: { BAD: { Host: 'x' } } }), 'RemoteClusters.BAD: cluster id'],
    [minimal({ ClusterID: 'other' }), 'Clusters.home1.ClusterID: must equal'],
    [minimal({ Core: { Listen: 'nope' } }), 'Clusters.home1.Core.Listen: must be host:port'],
    [{ Clusters: {} }, 'Clusters: at least one cluster'],
    [{}, 'Clusters: is required'],
  ])('names the bad key (%#)', (input, expected) => {
    expect(failure(input)).toContain(expected);
  });

  it('reduces a v2 root token to its secret', () => {
    const c = validateConfig(
      minimal({ SystemRootToken: `v2/home1-gj3su-000000000000000/${TOKEN}` }),
    );
    expect(c.Clusters['home1']!.SystemRootToken).toBe(TOKEN);
  });

  it('needs a home cluster when there are several', () => {
    const two = { Clusters: { ...minimal().Clusters, rmt02: minimal().Clusters.home1 } };
    expect(failure(two)).toContain('Gateway.HomeCluster: is required');
    expect(validateConfig({ ...two, Gateway: { HomeCluster: 'rmt02' } }).Gateway.HomeCluster).toBe(
      'rmt02',
    );
  });
});

describe('environment overrides', () => {
  it('apply to the only cluster', () => {
    const c = buildConfig(minimal(), {
      SVC_CLUSTER_ID: 'zzzzz',
      SVC_SYSTEM_ROOT_TOKEN: 'b'.repeat(40),
      DATABASE_URL: 'postgres://elsewhere/db',
      PORT: '9100',
    });
    const z = c.Clusters['zzzzz']!;
    expect(Object.keys(c.Clusters)).toEqual(['zzzzz']);
    expect(z.SystemRootToken).toBe('b'.repeat(40));
    expect(z.Database.URL).toBe('postgres://elsewhere/db');
    expect(c.Gateway.Listen).toBe('127.0.0.1:9100');
  });

  it('build a single-cluster config from defaults', () => {
    const c = buildConfig(
      singleClusterConfig({
        clusterId: 'abcde',
        systemRootToken: TOKEN,
        databaseUrl: 'pglite:./data/x',
      }),
      {},
    );
    expect(c.Clusters['abcde']!.Login.Test.Enable).toBe(true);
  });

  it('place the gateway with HOST, SVC_LISTEN and PORT', () => {
    expect(buildConfig(minimal(), { HOST: '0.0.0.0' }).Gateway.Listen).toBe('0.0.0.0:8000');
    expect(buildConfig(minimal(), { HOST: '0.0.0.0', PORT: '9000' }).Gateway.Listen).toBe(
      '0.0.0.0:9000',
    );
    expect(buildConfig(minimal(), { SVC_LISTEN: '10.1.2.3:8080' }).Gateway.Listen).toBe(
      '10.1.2.3:8080',
    );
    expect(buildConfig(minimal(), { SVC_LISTEN: '10.1.2.3:8080', PORT: '81' }).Gateway.Listen).toBe(
      '10.1.2.3:81',
    );
    expect(() => buildConfig(minimal(), { SVC_LISTEN: 'nowhere' })).toThrow(
      'SVC_LISTEN: must be host:port',
    );
  });

  it('reject a bad PORT', () => {
    expect(() => buildConfig(minimal(), { PORT: 'http' })).toThrow('PORT: must be a port number');
  });
});

describe('YAML', () => {
  it('parses a mapping and names the file otherwise', () => {
    expect(parseConfigText('Clusters: {}', 'svc.yml')).toEqual({ Clusters: {} });
    expect(() => parseConfigText('- 1', 'svc.yml')).toThrow('svc.yml: must hold a mapping');
    expect(() => parseConfigText('a: [', 'svc.yml')).toThrow('svc.yml: is not valid YAML');
  });
});

describe('publicConfig', () => {
  it('publishes no secret', () => {
    const c = validateConfig(
      minimal({
        Users: { AnonymousUserToken: 'c'.repeat(32) },
        Login: { Test: { Enable: true, Users: { dev: { Email: 'd@x', Password: 'pw-secret' } } } },
        RemoteClusters: { rmt02: { Host: 'rmt02.example' } },
      }),
    );
    const text = JSON.stringify(publicConfig(c.Clusters['home1']!, 'http://127.0.0.1:8000/'));
    for (const secret of [TOKEN, 'c'.repeat(32), 'pw-secret', 'postgres://']) {
      expect(text).not.toContain(secret);
    }
    expect(publicConfig(c.Clusters['home1']!, 'http://127.0.0.1:8000/')).toMatchObject({
      ClusterID: 'home1',
      RemoteClusters: { rmt02: { Host: 'rmt02.example', Proxy: true, Scheme: 'https' } },
      Login: { Test: { Enable: true } },
    });
  });
});

describe('Services in the public config', () => {
  const services = (cluster: Record<string, unknown>, base: string) =>
    publicConfig(validateConfig(minimal(cluster)).Clusters['home1']!, base)['Services'];

  it('derives every part svc has from the URL the request came in on; the others are ""', () => {
    expect(services({}, 'http://127.0.0.1:8000/')).toEqual({
      Controller: { ExternalURL: 'http://127.0.0.1:8000/' },
      Websocket: { ExternalURL: 'ws://127.0.0.1:8000/websocket' },
      WebDAV: { ExternalURL: 'http://127.0.0.1:8000/' },
      WebDAVDownload: { ExternalURL: 'http://127.0.0.1:8000/' },
      Keepproxy: { ExternalURL: '' },
      Workbench1: { ExternalURL: '' },
      Workbench2: { ExternalURL: 'http://127.0.0.1:8000/' },
    });
  });

  it('derives from ExternalURL when set (wss for https), and takes each configured URL', () => {
    const shown = services(
      {
        ExternalURL: 'https://home1.example/svc',
        Services: { WebDAVDownload: { ExternalURL: 'https://download.home1.example/' } },
      },
      'http://127.0.0.1:8000/',
    ) as Record<string, { ExternalURL: string }>;
    expect(shown['Controller']!.ExternalURL).toBe('https://home1.example/svc/');
    expect(shown['Websocket']!.ExternalURL).toBe('wss://home1.example/svc/websocket');
    expect(shown['WebDAVDownload']!.ExternalURL).toBe('https://download.home1.example/');
  });

  it('refuses a URL of the wrong scheme, naming the key', () => {
    expect(() =>
      validateConfig(minimal({ Services: { Websocket: { ExternalURL: 'https://x.example/' } } })),
    ).toThrow('Clusters.home1.Services.Websocket.ExternalURL: must use one of ws, wss');
    expect(() =>
      validateConfig(minimal({ Services: { Controller: { ExternalURL: 'nope' } } })),
    ).toThrow('Clusters.home1.Services.Controller.ExternalURL: is not a URL');
  });
});

describe('the embedded default', () => {
  it('keeps a management token in the data directory and takes HOST', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-config-'));
    try {
      const { config, notes } = loadDeploymentConfig({ SVC_DATA_DIR: dir, HOST: '0.0.0.0' });
      const home = config.Clusters[config.Gateway.HomeCluster]!;
      const file = join(dir, 'management-token');
      expect(home.ManagementToken).toBe(readFileSync(file, 'utf8').trim());
      expect(home.ManagementToken).toMatch(/^[a-zA-Z0-9]{32,}$/);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(notes).toContain(`management token (/_health, /metrics): in ${file}`);
      expect(config.Gateway.Listen).toBe('0.0.0.0:8000');
      // the same token on the next start
      const again = loadDeploymentConfig({ SVC_DATA_DIR: dir });
      expect(again.config.Clusters[config.Gateway.HomeCluster]!.ManagementToken).toBe(
        home.ManagementToken,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
