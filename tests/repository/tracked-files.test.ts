import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The repository holds what the project means to ship: an empty file left by a command run by
 * hand (an `oom` at the root was committed twice) is a mistake, never content.
 */
const root = join(__dirname, '../..');
const tracked = (): string[] =>
  execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f !== '');

it('no tracked file is empty', () => {
  const files = tracked();
  expect(files.length).toBeGreaterThan(100);
  const empty = files.filter((f) => {
    try {
      return statSync(join(root, f)).size === 0;
    } catch {
      return false; // deleted in the work tree, not yet committed
    }
  });
  expect(empty).toEqual([]);
});
