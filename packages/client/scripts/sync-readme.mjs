// Copies each example into README.md, between its `<!-- example: <file> -->` marker and the
// closing fence, so the README shows exactly the code that CI type-checks and runs.
// Usage: node scripts/sync-readme.mjs [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const readmePath = join(root, 'README.md');
const readme = readFileSync(readmePath, 'utf8');
const synced = readme.replace(
  /(<!-- example: ([\w.-]+) -->\n\n```ts\n)[\s\S]*?(\n```)/g,
  (_all, open, file, close) =>
    open + readFileSync(join(root, 'examples', file), 'utf8').trimEnd() + close,
);
if (process.argv.includes('--check')) {
  if (synced !== readme) {
    console.error('README.md examples differ from examples/: run node scripts/sync-readme.mjs');
    process.exit(1);
  }
} else {
  writeFileSync(readmePath, synced);
}
