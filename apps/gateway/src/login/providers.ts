import type { ClusterConfig } from '@svc/config';
import { safeEqual } from '@svc/ids';
import { ldapProvider } from './ldap';
import type { LoginIdentity, PasswordCheck } from './types';

export type { LoginIdentity, PasswordCheck };

/** The development provider: accounts from Login.Test.Users, by key or by email (auth.md §9.6). */
export function testProvider(c: Readonly<ClusterConfig>): PasswordCheck {
  return async (username, password) => {
    for (const [key, account] of Object.entries(c.Login.Test.Users)) {
      if (username !== key && username !== account.Email) continue;
      if (!safeEqual(password, account.Password)) return null;
      return {
        email: account.Email,
        username: key,
        firstName: null,
        lastName: null,
        identityUrl: `test:${key}`,
      };
    }
    return null;
  };
}

/**
 * The password provider this cluster uses, or null when passwords cannot be checked here: with
 * OpenID Connect, and with PAM, which needs a native module this build does not include.
 */
export function passwordProvider(c: Readonly<ClusterConfig>): PasswordCheck | null {
  if (c.Login.Test.Enable) return testProvider(c);
  if (c.Login.LDAP.Enable) return ldapProvider(c.Login.LDAP);
  return null;
}
