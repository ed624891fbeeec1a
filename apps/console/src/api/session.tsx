import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import { clientFor, type SvcClient } from './client';
import { isSignedOut } from './errors';
import { onSignedOut } from './query-client';
import { storedToken, storeToken } from './session-store';
import type { PublicConfig, User } from './types';

export interface Session {
  /** The API with the session's token (or none before signing in). */
  client: SvcClient;
  token: string | null;
  config: PublicConfig | undefined;
  /** The signed-in user, once known. */
  user: User | undefined;
  userError: unknown;
  /** Why the last session ended, shown on the sign-in page. */
  notice: string | null;
  signIn(token: string): void;
  /** Expires the token at the server (`/logout`), then forgets it here. */
  signOut(): Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

export const EXPIRED_NOTICE =
  'Your session has ended (the token expired or was revoked). Sign in again to continue.';

/** The session: token, client, the user it belongs to, and the public configuration. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const queries = useQueryClient();
  const [token, setToken] = useState<string | null>(() => {
    const kept = storedToken();
    if (kept) storeToken(kept); // renews the file-access cookie for this browser session
    return kept;
  });
  const [notice, setNotice] = useState<string | null>(null);
  const client = useMemo(() => clientFor(token), [token]);

  const config = useQuery({
    queryKey: ['config'],
    queryFn: () => clientFor(null).api.configs.get() as Promise<PublicConfig>,
    staleTime: Infinity,
  });
  const user = useQuery({
    queryKey: ['session', token, 'user'],
    queryFn: () => client.api.users.current() as Promise<User>,
    enabled: token !== null,
    staleTime: 60_000,
    retry: (n, err) => !isSignedOut(err) && n < 2,
  });

  const forget = useCallback(
    (why: string | null) => {
      storeToken(null);
      setToken(null);
      setNotice(why);
      queries.removeQueries({ predicate: (q) => q.queryKey[0] !== 'config' });
    },
    [queries],
  );

  useEffect(() => onSignedOut(() => forget(EXPIRED_NOTICE)), [forget]);

  const value = useMemo<Session>(
    () => ({
      client,
      token,
      config: config.data,
      user: user.data,
      userError: user.error,
      notice,
      signIn(next: string) {
        storeToken(next);
        setNotice(null);
        setToken(next);
      },
      async signOut() {
        if (token) {
          await fetch('/logout', {
            headers: { authorization: `Bearer ${token}` },
            redirect: 'manual',
          }).catch(() => undefined);
        }
        forget('You are signed out.');
      },
    }),
    [client, token, config.data, user.data, user.error, notice, forget],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside SessionProvider');
  return s;
}

/** The signed-in session: pages under RequireSession only. */
export function useSignedIn(): Session & { user: User } {
  const s = useSession();
  if (!s.user) throw new Error('useSignedIn before the user is known');
  return s as Session & { user: User };
}
