// The README's test command. PGlite needs Jest's VM-module support; everything else is Jest's.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const jest = require.resolve('jest/bin/jest');
const options = [
  '--experimental-vm-modules',
  '--no-warnings=ExperimentalWarning',
  process.env.NODE_OPTIONS ?? '',
]
  .join(' ')
  .trim();
const result = spawnSync(process.execPath, [jest, ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: {
    ...process.env,
    NODE_OPTIONS: options,
    SVC_LOG_LEVEL: process.env.SVC_LOG_LEVEL ?? 'silent',
  },
});
process.exit(result.status ?? 1);
