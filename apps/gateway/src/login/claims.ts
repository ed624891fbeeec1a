import type { ClusterConfig } from '@svc/config';
import type { LoginIdentity } from './types';

type OidcConfig = ClusterConfig['Login']['OpenIDConnect'];
type Claims = Readonly<Record<string, unknown>>;

/** A provider answer that cannot become a login; its message follows "Login error: ". */
export class ClaimsError extends Error {}

const text = (v: unknown): string | null =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : null;

/** given_name / family_name, or `name` split before its last word. */
function namesOf(claims: Claims): { firstName: string | null; lastName: string | null } {
  const first = text(claims['given_name']);
  const last = text(claims['family_name']);
  if (first !== null || last !== null) return { firstName: first, lastName: last };
  const words = (text(claims['name']) ?? '').split(/\s+/).filter((w) => w !== '');
  if (words.length === 0) return { firstName: null, lastName: null };
  if (words.length === 1) return { firstName: words[0]!, lastName: null };
  return { firstName: words.slice(0, -1).join(' '), lastName: words[words.length - 1]! };
}

/** Whether the ID token lacks something UserInfo may supply (providers often put only `sub` in it). */
export function needsUserInfo(c: OidcConfig, claims: Claims): boolean {
  const missing = (name: string) => name !== '' && claims[name] === undefined;
  const noNames = ['given_name', 'family_name', 'name'].every((n) => claims[n] === undefined);
  return (
    missing(c.EmailClaim) || missing(c.EmailVerifiedClaim) || missing(c.UsernameClaim) || noNames
  );
}

/**
 * The login a provider's claims vouch for (auth.md §9.2): email from EmailClaim, verified unless
 * EmailVerifiedClaim is "", names, preferred username from UsernameClaim, identity
 * `<issuer>#<sub>`. Throws ClaimsError when the claims do not allow a login.
 */
export function loginFromClaims(c: OidcConfig, issuer: string, claims: Claims): LoginIdentity {
  const sub = text(claims['sub']);
  if (sub === null)
    throw new ClaimsError('the provider did not say who logged in (no "sub" claim)');
  const email = text(claims[c.EmailClaim]);
  if (email === null)
    throw new ClaimsError(`the provider did not give an email address ("${c.EmailClaim}" claim)`);
  if (c.EmailVerifiedClaim !== '') {
    const verified = claims[c.EmailVerifiedClaim];
    // Some providers send the boolean as a string.
    if (verified !== true && verified !== 'true')
      throw new ClaimsError(`the email address ${email} is not verified`);
  }
  return {
    email,
    username: c.UsernameClaim === '' ? null : text(claims[c.UsernameClaim]),
    ...namesOf(claims),
    identityUrl: `${issuer}#${sub}`,
  };
}
