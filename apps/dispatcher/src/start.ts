import type { Json } from '@svc/runner';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { SvcClient } from '@svc/client';
import { ociProblem, sandboxProblem, type OciEngine } from '@svc/runner';
import { Dispatcher } from './dispatcher';
import { LocalBackend } from './local';
import { SlurmBackend } from './slurm';

/** The `Containers` keys a dispatcher uses (execution.md §1), as the public config has them. */
export interface DispatcherSettings {
  Dispatch?: { Backend?: string; PollInterval?: number };
  Local?: { MaxVCPUs?: number; MaxRAM?: number };
  Slurm?: { SbatchArguments?: string[]; ReserveExtraRAM?: number };
  RuntimeEngine?: string;
  LogUpdatePeriod?: number;
  LogBytesPerFile?: number;
  UsagePeriod?: number;
}

/** Why the configured engine cannot run containers here (then nothing is locked), or null. */
function engineProblem(engine: string, env?: NodeJS.ProcessEnv): string | null {
  if (engine === 'bubblewrap') return sandboxProblem();
  if (engine === 'podman' || engine === 'docker') return ociProblem(engine, env);
  return `runtime engine ${engine} is not supported (bubblewrap, podman and docker are)`;
}

/**
 * Starts a local dispatcher with an admin token of its own: `stateDir` keeps its runners'
 * pids, work directories and the image cache. The settings come from the cluster's public
 * config unless given.
 */
export async function startDispatcher(opts: {
  apiHost: string;
  token: string;
  stateDir: string;
  insecure?: boolean;
  settings?: DispatcherSettings;
  blobSigningTTL?: number;
  log?: (line: string) => void;
  /** `local` or `slurm`; default: the settings' Dispatch.Backend, or local. */
  backend?: string;
  /** Environment of the Slurm commands (SLURM_CONF …). */
  slurmEnv?: NodeJS.ProcessEnv;
  /** Environment in which the engine's availability is checked (default: this process's). */
  engineEnv?: NodeJS.ProcessEnv;
}): Promise<Dispatcher> {
  const client = new SvcClient({
    host: opts.apiHost,
    token: opts.token,
    insecure: opts.insecure ?? false,
  });
  let settings = opts.settings;
  let ttl = opts.blobSigningTTL;
  if (!settings) {
    const res = await client.request('GET', '/svc/v1/config', { retry: true });
    if (res.status !== 200) throw new Error(`reading the cluster config: ${res.status}`);
    settings = (res.body as Json).Containers ?? {};
    ttl ??= (res.body as Json).Collections?.BlobSigningTTL;
  }
  const s = settings ?? {};
  const kind = opts.backend ?? (s.Dispatch?.Backend === 'slurm' ? 'slurm' : 'local');
  const backend =
    kind === 'slurm'
      ? new SlurmBackend({
          stateDir: opts.stateDir,
          sbatchArguments: s.Slurm?.SbatchArguments ?? [],
          reserveExtraRAM: s.Slurm?.ReserveExtraRAM ?? 268435456,
          ...(opts.slurmEnv ? { env: opts.slurmEnv } : {}),
        })
      : new LocalBackend(
          opts.stateDir,
          s.Local?.MaxVCPUs || cpus().length,
          s.Local?.MaxRAM || Math.floor(totalmem() * 0.9),
        );
  const engine = s.RuntimeEngine ?? 'bubblewrap';
  const dispatcher = new Dispatcher({
    backend,
    client,
    pollInterval: s.Dispatch?.PollInterval ?? 2,
    cacheDir: join(opts.stateDir, 'images'),
    insecure: opts.insecure ?? false,
    sandboxProblem: engineProblem(engine, opts.engineEnv),
    settings: {
      ...(engine !== 'bubblewrap' ? { engine: engine as OciEngine } : {}),
      ...(s.LogUpdatePeriod ? { logUpdatePeriod: s.LogUpdatePeriod } : {}),
      ...(s.LogBytesPerFile ? { logBytesPerFile: s.LogBytesPerFile } : {}),
      ...(s.UsagePeriod ? { usagePeriod: s.UsagePeriod } : {}),
      ...(ttl ? { blobSigningTTL: ttl } : {}),
    },
    ...(opts.log ? { log: opts.log } : {}),
  });
  await dispatcher.start();
  return dispatcher;
}
