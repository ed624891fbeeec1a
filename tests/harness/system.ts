import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ociProblem } from '@svc/runner';
import { ENV } from './database-target';
import { BUSYBOX } from './run-images';

/**
 * What some tests need of the machine beyond Node.js, and whether it is there: a container
 * engine, or a PostgreSQL server (the tests otherwise run on the embedded database). The
 * README's test command runs on a machine with Node.js alone: tests that need more skip
 * there, visibly, naming what to install. CI installs it all and sets
 * SVC_REQUIRE_SYSTEM_TESTS=1 (and SVC_REQUIRE_CLIENT_TESTS=1 for the Python client library):
 * then anything missing fails those tests at once, with the reason, rather than letting
 * them wait for containers nothing runs.
 */
export type Need = 'bubblewrap' | 'podman' | 'slurm' | 'postgresql' | 'python3-googleapi';

const INSTALL: Record<Need, string> = {
  bubblewrap: 'install the Debian packages bubblewrap busybox-static',
  podman: 'install the Debian packages podman runc busybox-static',
  slurm: 'install the Debian packages slurm-wlm munge bubblewrap busybox-static',
  postgresql: 'start PostgreSQL at DATABASE_URL or 127.0.0.1:5432 (user postgres)',
  'python3-googleapi': 'install the Debian package python3-googleapi',
};

/** The variable by which CI requires what `need` names (the real-client tests have their own). */
const requiredBy = (need: Need): string =>
  need === 'python3-googleapi' ? 'SVC_REQUIRE_CLIENT_TESTS' : 'SVC_REQUIRE_SYSTEM_TESTS';

/** The Python of the real-client tests (Debian's, where python3-googleapi installs). */
export const PYTHON = '/usr/bin/python3';

/** Why `cmd` is not a program on PATH, or null. */
function onPath(cmd: string): string | null {
  const dirs = (process.env['PATH'] ?? '').split(':').filter((d) => d !== '');
  return dirs.some((d) => existsSync(join(d, cmd))) ? null : `${cmd} is not on PATH`;
}

/** Why `cmd args…` cannot run here, or null. */
function cannotRun(cmd: string, args: string[]): string | null {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 20_000 });
  if (r.error) return `${cmd}: ${r.error.message}`;
  if (r.status !== 0) return `${cmd} ${args.join(' ')}: ${(r.stderr || r.stdout).trim()}`;
  return null;
}

/**
 * The test image is Debian's static busybox: run alone in a sandbox of bubblewrap's, it also
 * proves that bubblewrap can make one here (user namespaces).
 */
const bubblewrapProblem = (): string | null =>
  cannotRun('bwrap', [
    '--unshare-all',
    '--tmpfs',
    '/',
    '--ro-bind',
    BUSYBOX,
    '/busybox',
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--',
    '/busybox',
    'true',
  ]);

/** The test image for podman: a static busybox (a dynamic one lacks its libraries there). */
const staticBusyboxProblem = (): string | null => {
  const r = spawnSync('ldd', [BUSYBOX], { encoding: 'utf8' });
  const text = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (r.error || /No such file|cannot access/i.test(text)) return `${BUSYBOX} is missing`;
  return /not a dynamic executable/.test(text) ? null : `${BUSYBOX} is not static`;
};

const CHECKS: Record<Need, () => string | null> = {
  bubblewrap: bubblewrapProblem,
  podman: () => ociProblem('podman') ?? staticBusyboxProblem(),
  // sbatch cannot say even its version before a Slurm is configured: the daemons can
  slurm: () =>
    onPath('sbatch') ??
    cannotRun('slurmctld', ['-V']) ??
    cannotRun('slurmd', ['-V']) ??
    cannotRun('munged', ['--version']) ??
    cannotRun('getent', ['passwd', 'munge']) ??
    bubblewrapProblem(),
  'python3-googleapi': () => cannotRun(PYTHON, ['-c', 'import googleapiclient']),
  // chosen once for the run by the global setup (tests/harness/database-target.ts)
  postgresql: () =>
    process.env[ENV.mode] === 'postgres' ? null : 'no PostgreSQL server was reachable',
};

const seen = new Map<Need, string | null>();

/** Why what `need` names is not usable here (checked once per test file), or null. */
export function systemProblem(need: Need): string | null {
  if (!seen.has(need)) seen.set(need, CHECKS[need]());
  return seen.get(need)!;
}

/**
 * `describe` for tests that need `need`. Where it is missing: skipped, with one line on stderr
 * naming the test file, the reason and what to install (a file's own hooks do not run when all
 * its tests are skipped); where CI requires everything, the file fails at once with that
 * reason, before any hook starts a cluster or a dispatcher.
 */
export function describeWith(need: Need, title: string, tests: () => void): void {
  const problem = systemProblem(need);
  if (problem === null) {
    describe(title, tests);
    return;
  }
  const variable = requiredBy(need);
  if (process.env[variable] === '1') {
    throw new Error(`${need} is required (${variable}=1): ${problem}; ${INSTALL[need]}`);
  }
  const file = relative(process.cwd(), expect.getState().testPath ?? title);
  process.stderr.write(`skipped ${file}: needs ${need} (${problem}); ${INSTALL[need]}\n`);
  describe.skip(`${title} [needs ${need}: ${INSTALL[need]}]`, tests);
}
