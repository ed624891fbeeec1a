import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomAlnum } from '@svc/ids';

/** A value generated once and kept in the data directory (0600: it may be a secret). */
export function keptValue(
  dir: string,
  name: string,
  make: () => string,
): { value: string; file: string } {
  const file = join(resolve(dir), name);
  if (existsSync(file)) return { value: readFileSync(file, 'utf8').trim(), file };
  mkdirSync(resolve(dir), { recursive: true });
  const value = make();
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { value, file };
}

export const newClusterId = (): string => `z${randomAlnum(4)}`;
export const newRootToken = (): string => randomAlnum(48);
