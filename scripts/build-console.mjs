// `pnpm build` step for the web console (apps/console): a Vite build when any of its inputs
// changed since the last one, then a brotli and a gzip copy of each text file, which the
// gateway serves to browsers that accept them. `--force` builds whatever the dates say.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = new URL('..', import.meta.url).pathname;
const app = join(root, 'apps/console');
const dist = join(app, 'dist');
const stamp = join(dist, '.built');
const inputs = [
  join(app, 'src'),
  join(app, 'public'),
  join(app, 'index.html'),
  join(app, 'vite.config.ts'),
  join(app, 'package.json'),
  join(root, 'packages/client/src'),
  join(root, 'packages/contract/src'),
  join(root, 'pnpm-lock.yaml'),
];

function newest(path) {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(s.mtimeMs, ...readdirSync(path).map((n) => newest(join(path, n))));
}

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );
}

const upToDate =
  !process.argv.includes('--force') &&
  existsSync(stamp) &&
  statSync(stamp).mtimeMs >= Math.max(...inputs.filter(existsSync).map(newest));
if (upToDate) {
  console.log('console: up to date (apps/console/dist)');
  process.exit(0);
}

const vite = spawnSync(
  'pnpm',
  ['--filter', '@svc/console', 'exec', 'vite', 'build', '--logLevel', 'warn'],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
if (vite.status !== 0) process.exit(vite.status ?? 1);

for (const file of files(dist)) {
  if (!/\.(js|css|html|svg|json|txt)$/.test(file)) continue;
  const body = readFileSync(file);
  writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
  writeFileSync(
    `${file}.br`,
    brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
}
writeFileSync(stamp, new Date().toISOString());
console.log('console: built (apps/console/dist)');
