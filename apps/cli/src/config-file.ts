import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { usageError } from './exit-codes';

/** What `svc login` keeps for later commands. */
export interface SavedLogin {
  host: string;
  token: string;
}

/** `$XDG_CONFIG_HOME/svc/config.json`, or `~/.config/svc/config.json`. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env['XDG_CONFIG_HOME'] || join(env['HOME'] || homedir(), '.config');
  return join(base, 'svc', 'config.json');
}

export function readLogin(path: string): SavedLogin | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  try {
    const saved = JSON.parse(text) as Partial<SavedLogin>;
    if (typeof saved.host === 'string' && typeof saved.token === 'string') {
      return { host: saved.host, token: saved.token };
    }
  } catch {
    // reported below
  }
  throw usageError(`${path} is not a saved login: run \`svc login\` again`);
}

/** Written readable by its owner only: it holds a token. */
export function writeLogin(path: string, login: SavedLogin): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600); // the file may have existed with a wider mode
}
