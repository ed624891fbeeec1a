import { statement, type Db } from '../../db/db';

/** An email's local part (or a preferred username), reduced to `[A-Za-z][A-Za-z0-9]*`. */
export function baseUsername(source: string | null | undefined): string | null {
  const cleaned = (source ?? '').replace(/[^A-Za-z0-9]/g, '').replace(/^[0-9]+/, '');
  return cleaned === '' ? null : cleaned;
}

/**
 * `base`, or `base2`, `base3`, … : the first not taken by another user and not on the
 * blacklist (`Users.AutoSetupUsernameBlacklist`: names such as `root` are never given
 * automatically).
 */
export async function freeUsername(
  tx: Db,
  base: string | null,
  self = '',
  blacklist: readonly string[] = [],
): Promise<string | null> {
  if (base === null) return null;
  const blocked = new Set(blacklist);
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? base : `${base}${n}`;
    if (blocked.has(candidate)) continue;
    const { rows } = await tx.query(
      statement('SELECT 1 FROM users WHERE username = $1 AND uuid <> $2', [candidate, self]),
    );
    if (rows.length === 0) return candidate;
  }
}
