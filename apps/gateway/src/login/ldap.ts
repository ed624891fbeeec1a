import { Client, ResultCodeError, type ClientOptions, type Entry } from 'ldapts';
import type { ClusterConfig } from '@svc/config';
import { BadGatewayError } from '@svc/errors';
import type { LoginIdentity, PasswordCheck } from './types';

type LdapConfig = ClusterConfig['Login']['LDAP'];

const TIMEOUT_MS = 10_000;

/** An assertion value for an LDAP filter (RFC 4515 §3): `*`, `(`, `)`, `\` and NUL escaped. */
export const escapeFilterValue = (value: string): string =>
  value.replace(/[*()\\\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`);

export const userFilter = (c: LdapConfig, username: string): string =>
  `(&(${c.SearchAttribute}=${escapeFilterValue(username)})${c.SearchFilters})`;

/** A failure that means "these credentials do not log in" (steps 3–5), not "the server is broken". */
class Refused extends Error {}

function first(entry: Entry, attribute: string): string | null {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === attribute.toLowerCase());
  const value = key === undefined ? undefined : entry[key];
  const v = Array.isArray(value) ? value[0] : value;
  const s = Buffer.isBuffer(v) ? v.toString('utf8') : v;
  return typeof s === 'string' && s !== '' ? s : null;
}

/** Steps 3–5 of auth.md §9.4 on a connected (and, if configured, search-bound) client. */
async function findAndBind(
  client: Client,
  c: LdapConfig,
  username: string,
  password: string,
): Promise<LoginIdentity> {
  let entries: Entry[];
  try {
    ({ searchEntries: entries } = await client.search(c.SearchBase, {
      scope: 'sub',
      filter: userFilter(c, username),
      attributes: [c.EmailAttribute, c.UsernameAttribute, 'givenName', 'sn'],
      sizeLimit: 2,
    }));
  } catch (err) {
    if (err instanceof ResultCodeError) throw new Refused(err.message);
    throw err;
  }
  if (entries.length !== 1) throw new Refused(`${entries.length} entries match`);
  const entry = entries[0]!;
  try {
    await client.bind(entry.dn, password);
  } catch (err) {
    if (err instanceof ResultCodeError) throw new Refused(err.message);
    throw err;
  }
  const email = first(entry, c.EmailAttribute);
  if (email === null) throw new Refused(`no ${c.EmailAttribute}`);
  return {
    email,
    username: first(entry, c.UsernameAttribute),
    firstName: first(entry, 'givenName'),
    lastName: first(entry, 'sn'),
    identityUrl: `ldap:${username}`,
  };
}

/** Steps 1–2 fail only when the directory or its configuration is broken: say which step. */
async function step(name: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (err) {
    throw new Error(`${name} failed: ${(err as Error).message.trim()}`, { cause: err });
  }
}

/** The LDAP provider (auth.md §9.4): null for refused credentials, 502 when the directory fails. */
export function ldapProvider(c: LdapConfig): PasswordCheck {
  const tls = { rejectUnauthorized: !c.InsecureTLS };
  const plain = c.URL.toLowerCase().startsWith('ldap://');
  // ldapts speaks TLS from the first byte whenever tlsOptions are given: only for ldaps://.
  const options: ClientOptions = {
    url: c.URL,
    timeout: TIMEOUT_MS,
    connectTimeout: TIMEOUT_MS,
    ...(plain ? {} : { tlsOptions: tls }),
  };
  return async (username, password) => {
    const client = new Client(options);
    try {
      if (c.StartTLS && plain) await step('StartTLS', () => client.startTLS(tls));
      if (c.SearchBindUser !== '')
        await step('search bind', () => client.bind(c.SearchBindUser, c.SearchBindPassword));
      return await findAndBind(client, c, username, password);
    } catch (err) {
      if (err instanceof Refused) return null;
      throw new BadGatewayError(`LDAP server error: ${(err as Error).message}`);
    } finally {
      await client.unbind().catch(() => undefined);
    }
  };
}
