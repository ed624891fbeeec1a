// Runs `prisma generate` without the native schema engine, which cannot be downloaded here:
// generate does not run the engine, it only checks that a binary exists.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const schema = join(root, 'prisma', 'schema.prisma');
const marker = join(root, 'apps', 'core', 'src', 'generated', 'prisma', '.schema-mtime');
const mtime = String(statSync(schema).mtimeMs);
if (existsSync(marker) && (await import('node:fs')).readFileSync(marker, 'utf8') === mtime) {
  process.exit(0);
}
const engineStandIn = join(root, 'node_modules', '.cache', 'svc', 'schema-engine-stand-in');
if (!existsSync(engineStandIn)) {
  mkdirSync(dirname(engineStandIn), { recursive: true });
  writeFileSync(engineStandIn, '#!/bin/sh\nexit 1\n', { mode: 0o755 });
}
const result = spawnSync('pnpm', ['exec', 'prisma', 'generate'], {
  cwd: root,
  stdio: ['ignore', 'inherit', 'inherit'],
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? engineStandIn,
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
    CHECKPOINT_DISABLE: '1',
  },
});
if (result.status !== 0) process.exit(result.status ?? 1);
writeFileSync(marker, mtime);
