#!/usr/bin/env node
import { renameSync } from 'node:fs';
import { startContainer, type ContainerRun } from './run';
import type { WorkerMessage } from './worker-protocol';

/**
 * `svc-runner-worker`: a runner that the local dispatcher starts ahead of time and hands
 * containers to, one after another, over its IPC channel (tokens never in arguments or the
 * environment). Starting Node.js and loading the runner costs more than a short container's
 * whole run, so a slot's runner is started once, not once per container.
 *
 * When a container ends, its state file (`<uuid>.json`, written by the dispatcher) becomes
 * `<uuid>.done`, then the dispatcher is told. A worker whose dispatcher is gone (the channel
 * closed) finishes its container and exits; so does one sent SIGTERM.
 */
let current: { uuid: string; run: ContainerRun } | null = null;
let leaving = false;

function leave(): void {
  leaving = true;
  if (current) current.run.stop();
  else process.exit(0);
}

process.on('message', (msg: WorkerMessage) => {
  if (msg.kind === 'stop') {
    if (current?.uuid === msg.uuid) current.run.stop();
    return;
  }
  if (current || leaving) return; // the dispatcher hands out one container at a time
  const run = startContainer(msg.uuid, msg.input, msg.work);
  current = { uuid: msg.uuid, run };
  void run.done
    .catch((err: Error) => {
      process.stderr.write(`runner: ${err.stack ?? err}\n`);
      return 1;
    })
    .then((code) => {
      current = null;
      try {
        renameSync(msg.stateFile, msg.stateFile.replace(/\.json$/, '.done'));
      } catch {
        /* the dispatcher already forgot it */
      }
      if (process.connected) process.send?.({ kind: 'done', uuid: msg.uuid, code });
      if (leaving || !process.connected) process.exit(0);
    });
});
process.on('disconnect', () => {
  if (!current) process.exit(0);
  leaving = true;
});
process.on('SIGTERM', leave);
process.on('SIGINT', leave);
process.send?.({ kind: 'ready' });
