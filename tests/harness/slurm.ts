import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';

/** A single-node Slurm of its own (Debian's slurm-wlm and munge), for the Slurm backend tests. */
export interface TestSlurm {
  /** Environment of the Slurm commands: SLURM_CONF names this cluster's configuration. */
  env: NodeJS.ProcessEnv;
  dir: string;
  /** Job lines `<id> <name> <state>` Slurm still has. */
  jobs(): string[];
  stop(): void;
}

const running = (name: string): boolean =>
  readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .some((p) => {
      try {
        return readFileSync(`/proc/${p}/comm`, 'utf8').trim() === name;
      } catch {
        return false;
      }
    });

/** munged, started once for the machine when it is not running (it is shared). */
function ensureMunge(): void {
  if (running('munged')) return;
  mkdirSync('/run/munge', { recursive: true });
  execFileSync('chown', ['munge:munge', '/run/munge']);
  execFileSync('runuser', ['-u', 'munge', '--', 'munged']);
}

/**
 * Starts slurmctld and slurmd with a configuration in a temporary directory (ports of their
 * own, so several test files and engineers do not collide) and waits until the node is idle.
 */
export function startSlurm(): TestSlurm {
  ensureMunge();
  const dir = mkdtempSync(join(tmpdir(), 'svc-slurm-'));
  mkdirSync(join(dir, 'state'));
  mkdirSync(join(dir, 'spool'));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const memory = Math.floor(
    Number(/MemTotal:\s+(\d+)/.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1] ?? 0) / 1024 / 2,
  );
  const conf = join(dir, 'slurm.conf');
  writeFileSync(
    conf,
    [
      'ClusterName=svctest',
      `SlurmctldHost=${hostname()}`,
      `SlurmctldPort=${port}`,
      `SlurmdPort=${port + 1}`,
      'SlurmUser=root',
      'AuthType=auth/munge',
      `StateSaveLocation=${dir}/state`,
      `SlurmdSpoolDir=${dir}/spool`,
      `SlurmctldPidFile=${dir}/slurmctld.pid`,
      `SlurmdPidFile=${dir}/slurmd.pid`,
      `SlurmctldLogFile=${dir}/slurmctld.log`,
      `SlurmdLogFile=${dir}/slurmd.log`,
      // the runner makes the container's own cgroups; Slurm tracks the job by process
      'ProctrackType=proctrack/linuxproc',
      'TaskPlugin=task/none',
      'SchedulerType=sched/backfill',
      'SelectType=select/cons_tres',
      'SelectTypeParameters=CR_Core_Memory',
      'ReturnToService=2',
      'MpiDefault=none',
      'KillWait=5',
      `NodeName=${hostname()} CPUs=2 RealMemory=${memory} State=UNKNOWN`,
      `PartitionName=debug Nodes=${hostname()} Default=YES MaxTime=INFINITE State=UP`,
      '',
    ].join('\n'),
  );
  const env = { ...process.env, SLURM_CONF: conf };
  execFileSync('slurmctld', ['-f', conf], { env });
  execFileSync('slurmd', ['-f', conf], { env });
  const end = Date.now() + 30_000;
  for (;;) {
    let state = '';
    try {
      state = execFileSync('sinfo', ['--noheader', '-o', '%t'], { env, encoding: 'utf8' }).trim();
    } catch {
      /* not up yet */
    }
    if (state === 'idle') break;
    if (Date.now() > end) throw new Error(`slurm node not idle: ${state}`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  }
  const pidOf = (f: string) =>
    existsSync(join(dir, f)) ? Number(readFileSync(join(dir, f), 'utf8').trim()) : 0;
  return {
    env,
    dir,
    jobs: () =>
      execFileSync('squeue', ['--noheader', '--format=%i %j %T'], { env, encoding: 'utf8' })
        .split('\n')
        .filter((l) => l.trim() !== ''),
    stop() {
      const pids = ['slurmd.pid', 'slurmctld.pid'].map(pidOf).filter((p) => p > 0);
      const alive = (pid: number) => {
        try {
          process.kill(pid, 0);
          return true;
        } catch {
          return false;
        }
      };
      for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGTERM');
      // the daemons write their state on the way out: remove the directory after them
      const end = Date.now() + 10_000;
      while (pids.some(alive) && Date.now() < end) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
      }
      rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}
