import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { ENDPOINTS, endpointId } from '@svc/contract';
import { useDeployment } from '../harness/deployment';
import { describeWith, PYTHON } from '../harness/system';

/**
 * A real discovery-driven client (Google's API client library, Debian's python3-googleapi)
 * built from the served document, calling every method it lists (discovery.md §4).
 * CI installs the library; elsewhere the test runs when the library is there.
 */

const LOGIN = { user: 'clientuser', password: 'client-password-1' };

describeWith('python3-googleapi', 'a discovery-driven client works unmodified', () => {
  const d = useDeployment({
    configure: (_id, section) => {
      section['Login'] = {
        Test: {
          Enable: true,
          Users: { [LOGIN.user]: { Email: 'client@example.com', Password: LOGIN.password } },
        },
      };
    },
  });

  interface Report {
    called: string[];
    failures: { method: string; why: string }[];
    listed: string[];
    checks: {
      '404': string[] | null;
      '422': string[] | null;
      long_get: {
        method: string;
        override: string | undefined;
        uuids: string[];
        wanted: string[];
        filter_size: number;
      };
    };
  }

  let report: Report;
  beforeAll(async () => {
    // Asynchronously: the cluster answering the client runs in this very process.
    const run = await promisify(execFile)(PYTHON, [join(__dirname, 'discovery_client.py')], {
      encoding: 'utf8',
      timeout: 120_000,
      maxBuffer: 16 * 1024 * 1024,
      env: {
        ...process.env,
        SVC_BASE: d.current.url,
        SVC_TOKEN: d.current.home.rootToken,
        SVC_LOGIN: `${LOGIN.user}:${LOGIN.password}`,
      },
    });
    report = JSON.parse(run.stdout) as Report;
  }, 150_000);

  it('builds from the served document and calls every listed method, getting parsed JSON', () => {
    expect(report.failures).toEqual([]);
    const served = ENDPOINTS.map(endpointId).sort();
    expect(report.listed).toEqual(served);
    expect([...new Set(report.called)].sort()).toEqual(served);
  });

  it('gets the contract error shape on a 404 and a 422', () => {
    expect(report.checks['404']).toEqual(['Object not found']);
    expect(report.checks['422']?.[0]).toMatch(/no_such_attribute/);
  });

  it('sends a too-long list as POST with X-HTTP-Method-Override: GET, and the server answers it', () => {
    const long = report.checks.long_get;
    expect(long.method).toBe('POST');
    expect(long.override).toBe('GET');
    expect(long.filter_size).toBeGreaterThan(3000);
    expect(long.uuids).toEqual(long.wanted);
  });
});
