import { readFileSync } from 'node:fs';
import { usageError } from './exit-codes';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The text of `-f <file>`, or of standard input for `-f -`. */
export async function readInput(file: string): Promise<string> {
  if (file === '-') return readStdin();
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw usageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? err}`);
  }
}

/** The attributes of a create or update: a JSON object, bare or wrapped in the singular. */
export async function readAttributes(
  file: string,
  singular: string,
): Promise<Record<string, unknown>> {
  const text = await readInput(file);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw usageError(
      `${file === '-' ? 'standard input' : file}: not valid JSON (${(err as Error).message})`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw usageError(
      `${file === '-' ? 'standard input' : file}: expected a JSON object of attributes`,
    );
  }
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  const wrapped = keys.length === 1 && keys[0] === singular && typeof obj[singular] === 'object';
  return wrapped ? (obj[singular] as Record<string, unknown>) : obj;
}

/** `name=value` pairs of --param: values as JSON where they parse, else text. */
export function parsePairs(pairs: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw usageError(`bad parameter '${pair}': expected name=value`);
    const raw = pair.slice(eq + 1);
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      // plain text
    }
    out[pair.slice(0, eq)] = value;
  }
  return out;
}
