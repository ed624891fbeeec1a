#!/usr/bin/env node
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDispatcher } from './start';

/**
 * `svc-dispatcher`: a local dispatcher for the cluster at SVC_API_HOST, with the admin token
 * SVC_API_TOKEN. SVC_DISPATCH_DIR keeps its state (default: a directory per host and token
 * under the system's temporary directory, so a restart finds its runners again);
 * SVC_DISPATCH_BACKEND (`local` or `slurm`) overrides the cluster's Containers.Dispatch.Backend.
 */
async function main(): Promise<void> {
  const apiHost = process.env['SVC_API_HOST'];
  const token = process.env['SVC_API_TOKEN'];
  if (!apiHost || !token) {
    process.stderr.write('svc-dispatcher: set SVC_API_HOST and SVC_API_TOKEN (an admin token)\n');
    process.exit(2);
  }
  const id = createHash('sha256').update(`${apiHost} ${token}`).digest('hex').slice(0, 16);
  const stateDir = process.env['SVC_DISPATCH_DIR'] ?? join(tmpdir(), `svc-dispatch-${id}`);
  const insecure = ['1', 'true', 'yes'].includes(
    (process.env['SVC_API_HOST_INSECURE'] ?? '').toLowerCase(),
  );
  const backend = process.env['SVC_DISPATCH_BACKEND'];
  const dispatcher = await startDispatcher({
    apiHost,
    token,
    stateDir,
    insecure,
    ...(backend ? { backend } : {}),
  });
  process.stderr.write(`svc-dispatcher: watching ${apiHost} (state in ${stateDir})\n`);
  const stop = () => void dispatcher.stop().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err) => {
  process.stderr.write(`svc-dispatcher: ${(err as Error).message}\n`);
  process.exit(1);
});
