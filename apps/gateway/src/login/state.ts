import { hmacHex, safeEqual } from '@svc/ids';

/** How long a login may take at the provider before its state is refused (auth.md §9.2). */
export const STATE_LIFETIME_SECONDS = 600;

const sign = (key: string, payload: string): string =>
  hmacHex('sha256', key, `svc login state v1\n${payload}`);

/**
 * The OIDC `state`: the time and return_to, signed with HMAC-SHA256 under SystemRootToken. The
 * browser carries it, so the gateway keeps no session and any gateway of the cluster can finish
 * the login.
 */
export function makeState(key: string, returnTo: string, now = Date.now()): string {
  const payload = Buffer.from(
    JSON.stringify({ t: Math.floor(now / 1000), r: returnTo }),
    'utf8',
  ).toString('base64url');
  return `${payload}.${sign(key, payload)}`;
}

/** The return_to of a state this cluster signed less than 10 minutes ago, or null. */
export function readState(key: string, state: unknown, now = Date.now()): string | null {
  if (typeof state !== 'string') return null;
  const dot = state.lastIndexOf('.');
  if (dot <= 0) return null;
  const payload = state.slice(0, dot);
  if (!safeEqual(state.slice(dot + 1), sign(key, payload))) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const { t, r } = (parsed ?? {}) as { t?: unknown; r?: unknown };
  if (typeof t !== 'number' || typeof r !== 'string') return null;
  const age = now / 1000 - t;
  return age >= -60 && age <= STATE_LIFETIME_SECONDS ? r : null;
}
