import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { removeLeftoverCgroups, type RunnerInput } from '@svc/runner';
import type { Backend, RunnerRecord } from './backend';

const run = promisify(execFile);
const MiB = 1024 * 1024;

interface SlurmState extends RunnerRecord {
  jobId: string;
  nice: number;
}

/** `--nice` of a container priority: 1000 − floor(priority / 2^50) (execution.md §2.2). */
export const niceOf = (priority: bigint): number => 1000 - Number(priority / 2n ** 50n);

export interface SlurmOptions {
  stateDir: string;
  sbatchArguments?: string[];
  reserveExtraRAM?: number;
  runnerMain?: string;
  /** Environment of the Slurm commands (SLURM_CONF …). */
  env?: NodeJS.ProcessEnv;
  killAfterMs?: number;
}

/**
 * Runners as Slurm batch jobs named by container uuid (`sbatch`, `squeue`, `scontrol`,
 * `scancel`). Slurm decides placement; every queued container is submitted and Slurm's queue
 * follows container priorities through the jobs' nice values.
 */
export class SlurmBackend implements Backend {
  readonly name = 'slurm';
  private readonly gone: RunnerRecord[] = [];
  private readonly stopping = new Map<string, NodeJS.Timeout>();

  constructor(readonly opts: SlurmOptions) {
    mkdirSync(join(opts.stateDir, 'runners'), { recursive: true, mode: 0o700 });
    mkdirSync(join(opts.stateDir, 'work'), { recursive: true });
  }

  private cmd(file: string, args: string[]): Promise<{ stdout: string }> {
    return run(file, args, { env: { ...process.env, ...this.opts.env }, timeout: 30_000 });
  }

  private file(uuid: string): string {
    return join(this.opts.stateDir, 'runners', `${uuid}.json`);
  }

  private records(): SlurmState[] {
    const out: SlurmState[] = [];
    for (const name of readdirSync(join(this.opts.stateDir, 'runners'))) {
      if (!name.endsWith('.json')) continue;
      try {
        out.push(JSON.parse(readFileSync(join(this.opts.stateDir, 'runners', name), 'utf8')));
      } catch {
        /* being written */
      }
    }
    return out;
  }

  /** Jobs of this dispatcher that Slurm still has; a squeue failure throws (nothing changes). */
  async list(): Promise<Map<string, RunnerRecord>> {
    const { stdout } = await this.cmd('squeue', ['--noheader', '--format=%i %j %T']);
    const jobs = new Map<string, string>();
    for (const line of stdout.split('\n')) {
      const [id, name, state] = line.trim().split(/\s+/);
      if (id && name && state && !['COMPLETED', 'CANCELLED', 'FAILED'].includes(state)) {
        jobs.set(name, id);
      }
    }
    const out = new Map<string, RunnerRecord>();
    for (const r of this.records()) {
      if (jobs.get(r.uuid) === r.jobId) out.set(r.uuid, r);
      else {
        rmSync(this.file(r.uuid), { force: true });
        rmSync(join(this.opts.stateDir, 'work', r.uuid), { recursive: true, force: true });
        void removeLeftoverCgroups(r.uuid);
        const t = this.stopping.get(r.uuid);
        if (t) clearTimeout(t);
        this.stopping.delete(r.uuid);
        this.gone.push(r);
      }
    }
    return out;
  }

  neverFits(): string | null {
    return null; // Slurm holds jobs until a node has room
  }

  fitsNow(): boolean {
    return true;
  }

  /** The sbatch arguments of execution.md §2.2, then SbatchArguments. */
  sbatchArgs(
    record: RunnerRecord,
    priority: bigint,
    c: { maxRunTime: number; partitions: string[] },
  ) {
    const mem = Math.ceil((record.ram + (this.opts.reserveExtraRAM ?? 268435456)) / MiB);
    return [
      `--cpus-per-task=${record.vcpus}`,
      `--mem=${mem}M`,
      ...(c.partitions.length ? [`--partition=${c.partitions.join(',')}`] : []),
      ...(c.maxRunTime > 0 ? [`--time=${Math.ceil(c.maxRunTime / 60)}`] : []),
      `--job-name=${record.uuid}`,
      `--nice=${niceOf(priority)}`,
      ...(this.opts.sbatchArguments ?? []),
    ];
  }

  async start(
    record: RunnerRecord,
    input: RunnerInput,
    extra?: Record<string, unknown>,
  ): Promise<void> {
    const priority = BigInt(String(extra?.['priority'] ?? 0));
    const sched = (extra?.['scheduling_parameters'] ?? {}) as Record<string, unknown>;
    const runners = join(this.opts.stateDir, 'runners');
    // the tokens go in a file only the job can read, never in arguments or the environment
    const inputFile = join(runners, `${record.uuid}.input`);
    writeFileSync(inputFile, JSON.stringify(input), { mode: 0o600 });
    const work = join(this.opts.stateDir, 'work', record.uuid);
    const runner = this.opts.runnerMain ?? require.resolve('@svc/runner/dist/main.js');
    const args = [
      '--parsable',
      `--output=${join(runners, `${record.uuid}.log`)}`,
      ...this.sbatchArgs(record, priority, {
        maxRunTime: Number(sched['max_run_time'] ?? 0),
        partitions: (sched['partitions'] as string[] | undefined) ?? [],
      }),
      `--wrap=exec '${process.execPath}' '${runner}' ${record.uuid} '${inputFile}' '${work}'`,
    ];
    let stdout: string;
    try {
      ({ stdout } = await this.cmd('sbatch', args));
    } catch (err) {
      rmSync(inputFile, { force: true });
      throw new Error(
        `sbatch: ${(err as { stderr?: string }).stderr?.trim() || (err as Error).message}`,
        { cause: err },
      );
    }
    const jobId = stdout.trim().split(';')[0]!;
    const state: SlurmState = { ...record, jobId, nice: niceOf(priority) };
    writeFileSync(this.file(record.uuid), JSON.stringify(state));
  }

  /** Queued jobs follow priority changes (`scontrol update … nice=`). */
  async setPriority(uuid: string, priority: bigint): Promise<void> {
    const state = this.records().find((r) => r.uuid === uuid);
    const nice = niceOf(priority);
    if (!state || state.nice === nice || priority <= 0n) return;
    await this.cmd('scontrol', ['update', `jobid=${state.jobId}`, `nice=${nice}`]).catch(
      () => undefined,
    );
    writeFileSync(this.file(uuid), JSON.stringify({ ...state, nice }));
  }

  /** SIGTERM to the runner (it cancels its container); the whole job after killAfterMs. */
  async stop(uuid: string): Promise<void> {
    const state = this.records().find((r) => r.uuid === uuid);
    if (!state || this.stopping.has(uuid)) return;
    await this.cmd('scancel', ['--batch', '--signal=TERM', state.jobId]).catch(() =>
      // a job not started yet has no batch step to signal
      this.cmd('scancel', [state.jobId]).catch(() => undefined),
    );
    const t = setTimeout(() => {
      void this.cmd('scancel', [state.jobId]).catch(() => undefined);
    }, this.opts.killAfterMs ?? 60_000);
    t.unref();
    this.stopping.set(uuid, t);
  }

  changed(): boolean {
    return this.gone.length > 0;
  }

  ended(): RunnerRecord[] {
    return this.gone.splice(0);
  }
}
