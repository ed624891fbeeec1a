#!/usr/bin/env node
import { renameSync, writeFileSync } from 'node:fs';
import { startContainer, type ContainerRun } from './run';
import type { WorkerMessage, WorkerReply } from './worker-protocol';

/**
 * `svc-runner-worker`: a runner that the local dispatcher starts ahead of time and hands
 * containers to, one after another, over its IPC channel (tokens never in arguments or the
 * environment). Starting Node.js and loading the runner costs more than a short container's
 * whole run, so a slot's runner is started once, not once per container.
 *
 * When a container's command has exited the worker writes `<uuid>.ended` beside its state
 * file and says `free`: its CPU and RAM are free, and the worker takes the next container
 * while it saves the last one's output and logs.
 * When a container is final, its state file (`<uuid>.json`, written by the dispatcher)
 * becomes `<uuid>.done`, then the dispatcher is told `done`. A worker whose dispatcher is
 * gone (the channel closed) finishes its containers and exits; so does one sent SIGTERM.
 */
const runs = new Map<string, ContainerRun>();
/** The container whose command runs now (one at a time), or null. */
let commandOf: string | null = null;
let leaving = false;

const reply = (m: WorkerReply): void => {
  if (process.connected) process.send?.(m);
};

function leave(): void {
  leaving = true;
  if (runs.size === 0) process.exit(0);
  for (const run of runs.values()) run.stop();
}

process.on('message', (msg: WorkerMessage) => {
  if (msg.kind === 'stop') {
    runs.get(msg.uuid)?.stop();
    return;
  }
  if (commandOf || leaving) return; // the dispatcher hands out one command at a time
  const run = startContainer(msg.uuid, msg.input, msg.work, msg.container ?? null);
  runs.set(msg.uuid, run);
  commandOf = msg.uuid;
  void run.commandEnded.then(() => {
    if (commandOf === msg.uuid) commandOf = null;
    if (!runs.has(msg.uuid)) return;
    try {
      // for a restarted dispatcher: this runner holds no slot any more
      writeFileSync(msg.stateFile.replace(/\.json$/, '.ended'), '');
    } catch {
      /* the dispatcher already forgot it */
    }
    reply({ kind: 'free', uuid: msg.uuid });
  });
  void run.done
    .catch((err: Error) => {
      process.stderr.write(`runner: ${err.stack ?? err}\n`);
      return 1;
    })
    .then((code) => {
      runs.delete(msg.uuid);
      if (commandOf === msg.uuid) commandOf = null;
      try {
        renameSync(msg.stateFile, msg.stateFile.replace(/\.json$/, '.done'));
      } catch {
        /* the dispatcher already forgot it */
      }
      reply({ kind: 'done', uuid: msg.uuid, code });
      if (runs.size === 0 && (leaving || !process.connected)) process.exit(0);
    });
});
process.on('disconnect', () => {
  if (runs.size === 0) process.exit(0);
  leaving = true;
});
process.on('SIGTERM', leave);
process.on('SIGINT', leave);
process.send?.({ kind: 'ready' });
