import { isTrustedOrigin } from '@svc/contract';
import { clientFor } from './client';
import { v2Token } from './session-store';
import type { PublicConfig, TokenRecord, User } from './types';

/** The login providers a person can use from the console (auth.md: exactly one is enabled). */
export function loginKind(config: PublicConfig | undefined): 'oidc' | 'password' | null {
  const login = config?.Login;
  if (login?.OpenIDConnect?.Enable) return 'oidc';
  if (login?.LDAP?.Enable || login?.PAM?.Enable || login?.Test?.Enable) return 'password';
  return null;
}

/** Whether a login may send its token back to `origin` (Login.TrustedClients). */
export const canReturnTo = (origin: string, trusted: readonly string[]): boolean =>
  isTrustedOrigin(new URL(origin), trusted);

/** Where the identity provider's login sends the browser back with `?api_token=`. */
export const oidcLoginUrl = (origin: string): string =>
  `/login?return_to=${encodeURIComponent(`${origin}/token`)}`;

/** A username and password checked by the login provider: the new token, as v2. */
export async function passwordSignIn(username: string, password: string): Promise<string> {
  const record = (await clientFor(null).api.users.authenticate({
    username,
    password,
  })) as TokenRecord;
  return v2Token(record);
}

/** Checks a token by asking who it belongs to; throws the server's refusal. */
export async function checkToken(token: string): Promise<User> {
  return (await clientFor(token).api.users.current()) as User;
}
