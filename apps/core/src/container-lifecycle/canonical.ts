import { createHash } from 'node:crypto';

/**
 * JSON with the keys of every object sorted (by UTF-16 code units), at every depth; arrays keep
 * their order. Two values that differ only in key order have the same text (containers.md §6).
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  if (typeof value === 'bigint') return value.toString();
  return JSON.stringify(value) ?? 'null';
}

/** Equal as JSON values, key order ignored at every depth. */
export const sameJson = (a: unknown, b: unknown): boolean => canonicalJson(a) === canonicalJson(b);

/** `{}` and absent secret mounts have the same digest, which the scrub keeps (§6, §11). */
export const secretMountsDigest = (secretMounts: unknown): string =>
  createHash('md5')
    .update(canonicalJson(secretMounts ?? {}))
    .digest('hex');

/** What two containers must share to serve the same request (containers.md §6 step 4). */
export interface ReuseAttributes {
  command: unknown;
  cwd: unknown;
  environment: unknown;
  output_path: unknown;
  container_image: unknown;
  mounts: unknown;
  runtime_constraints: unknown;
  secret_mounts_md5: string;
  runtime_user_uuid: unknown;
  runtime_auth_scopes: unknown;
}

/** One digest over every reuse attribute: the indexed column candidates are found by. */
export function reuseDigest(a: ReuseAttributes): string {
  const text = canonicalJson({
    command: a.command,
    cwd: a.cwd,
    environment: a.environment ?? {},
    output_path: a.output_path,
    container_image: a.container_image,
    mounts: a.mounts ?? {},
    runtime_constraints: a.runtime_constraints ?? {},
    secret_mounts_md5: a.secret_mounts_md5,
    runtime_user_uuid: a.runtime_user_uuid ?? null,
    runtime_auth_scopes: a.runtime_auth_scopes ?? null,
  });
  return createHash('sha256').update(text).digest('hex');
}
