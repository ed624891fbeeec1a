import type { ClusterConfig } from '@svc/config';
import { safeEqual } from '@svc/ids';

/** What a password provider vouches for; the core turns it into a user and a token. */
export interface LoginIdentity {
  email: string | null;
  username: string | null;
  firstName: string | null;
  lastName: string | null;
  identityUrl: string;
}

export type PasswordCheck = (username: string, password: string) => Promise<LoginIdentity | null>;

/** The development provider: accounts from Login.Test.Users, by key or by email (auth.md §9.6). */
export function testProvider(c: Readonly<ClusterConfig>): PasswordCheck {
  return async (username, password) => {
    for (const [key, account] of Object.entries(c.Login.Test.Users)) {
      if (username !== key && username !== account.Email) continue;
      if (!safeEqual(password, account.Password)) return null;
      return { email: account.Email, username: key, firstName: null, lastName: null, identityUrl: `test:${key}` };
    }
    return null;
  };
}

/** The password provider this cluster uses, or null with OpenID Connect (no passwords then). */
export function passwordProvider(c: Readonly<ClusterConfig>): PasswordCheck | null {
  if (c.Login.Test.Enable) return testProvider(c);
  return null;
}
