import { ConfigError } from './errors';
import { validateConfig } from './validate';

/** Defaults that keep a server safe when nobody set them: loopback cores, timeouts, throttle. */
const cluster = (extra: Record<string, unknown> = {}) =>
  validateConfig({
    Clusters: {
      home1: {
        SystemRootToken: 'a'.repeat(32),
        Database: { URL: 'postgres://localhost/x', ...extra },
        Login: { Test: { Enable: true } },
      },
    },
  }).Clusters['home1']!;

describe('hardening defaults', () => {
  it('cores listen on loopback', () => {
    expect(cluster().Core.Listen).toMatch(/^127\.0\.0\.1:/);
  });

  it('database connect and statement timeouts and pool size have defaults', () => {
    const { ConnectTimeout, StatementTimeout, MaxConnections } = cluster().Database;
    expect({ ConnectTimeout, StatementTimeout, MaxConnections }).toEqual({
      ConnectTimeout: 5,
      StatementTimeout: 30,
      MaxConnections: 10,
    });
    expect(cluster({ ConnectTimeout: 2 }).Database.ConnectTimeout).toBe(2);
  });

  it("faults and overload have the contract's bounds by default", () => {
    const { DatabaseWaitTimeout, LockTimeout, MaxListDuration, MaxFilterConditions } =
      cluster().API;
    expect({
      DatabaseWaitTimeout,
      LockTimeout,
      MaxListDuration,
      MaxFilterConditions,
      MaxConcurrentRequestsPerToken: cluster().API.MaxConcurrentRequestsPerToken,
    }).toEqual({
      DatabaseWaitTimeout: 5,
      LockTimeout: 10,
      MaxListDuration: 20,
      MaxFilterConditions: 1000,
      MaxConcurrentRequestsPerToken: 8,
    });
  });

  it('failed password logins are throttled by default', () => {
    expect(cluster().Login.Throttle).toEqual({
      MaxFailuresPerUsername: 10,
      MaxFailuresPerAddress: 50,
      Window: 300,
    });
  });

  it.each([{ ConnectTimeout: 0 }, { StatementTimeout: 'soon' }, { MaxConnections: 0 }])(
    'refuses %p, naming the key',
    (bad) => {
      expect(() => cluster(bad)).toThrow(ConfigError);
      expect(() => cluster(bad)).toThrow(`Clusters.home1.Database.${Object.keys(bad)[0]}`);
    },
  );
});
