#!/usr/bin/env node
import { readFileSync, rmSync } from 'node:fs';
import { startContainer } from './run';
import type { RunnerInput } from './settings';

/**
 * `svc-runner <container uuid> <input file> <work dir>`: runs one container (a Slurm job).
 * The input file (tokens and settings) is read and removed at once. SIGTERM cancels it.
 */
async function main(): Promise<void> {
  const [uuid, inputFile, work] = process.argv.slice(2);
  if (!uuid || !inputFile || !work) {
    process.stderr.write('usage: svc-runner <container uuid> <input file> <work dir>\n');
    process.exit(2);
  }
  const input = JSON.parse(readFileSync(inputFile, 'utf8')) as RunnerInput;
  rmSync(inputFile, { force: true });
  const run = startContainer(uuid, input, work);
  process.on('SIGTERM', () => run.stop());
  process.on('SIGINT', () => run.stop());
  process.exit(await run.done);
}

main().catch((err) => {
  process.stderr.write(`runner: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
