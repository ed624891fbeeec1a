import { BadGatewayError, NotLoggedInError } from '@svc/errors';
import { parseV2Token } from '@svc/ids';

/** What a token's issuer says of it and its user (federation.md §4 steps 2–3). */
export interface IssuerAnswer {
  token: { uuid: string; scopes: string[]; expires_at: string | null };
  user: {
    uuid: string;
    email: string | null;
    username: string | null;
    first_name: string | null;
    last_name: string | null;
    is_active: boolean;
  };
}

/** A `current` call at the issuer: its status and parsed body (null when not JSON). */
export type CurrentAt = (
  what: 'api_client_authorizations' | 'users',
) => Promise<{ status: number; body: unknown }>;

const failed = (issuer: string, detail: string) =>
  new BadGatewayError(`failed to validate remote token with cluster ${issuer}: ${detail}`);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** 401/403/404 refuse the token; no answer, a 5xx, a 429 or garbage are the issuer's fault (502). */
async function ask(
  issuer: string,
  current: CurrentAt,
  what: 'api_client_authorizations' | 'users',
) {
  let res: { status: number; body: unknown };
  try {
    res = await current(what);
  } catch (err) {
    throw err instanceof NotLoggedInError || err instanceof BadGatewayError
      ? err
      : failed(issuer, (err as Error).message);
  }
  if ([401, 403, 404].includes(res.status)) throw new NotLoggedInError();
  if (res.status !== 200) throw failed(issuer, `${what}/current answered ${res.status}`);
  if (!isObject(res.body) || typeof res.body['uuid'] !== 'string') {
    throw failed(issuer, `${what}/current answered something other than the expected JSON`);
  }
  return res.body;
}

/**
 * Validates a token of cluster `issuer` there (federation.md §4 steps 2–3): the token record
 * must be the presented token's, and the user must be one of the issuer's own users.
 */
export async function validateAtIssuer(
  issuer: string,
  token: string,
  current: CurrentAt,
): Promise<IssuerAnswer> {
  const tokenUuid = parseV2Token(token)?.uuid;
  const record = await ask(issuer, current, 'api_client_authorizations');
  if (record['uuid'] !== tokenUuid) throw new NotLoggedInError();
  const user = await ask(issuer, current, 'users');
  if (!String(user['uuid']).startsWith(`${issuer}-`)) throw new NotLoggedInError();
  const scopes = Array.isArray(record['scopes']) ? record['scopes'].map(String) : ['all'];
  return {
    token: { uuid: tokenUuid!, scopes, expires_at: str(record['expires_at']) },
    user: {
      uuid: String(user['uuid']),
      email: str(user['email']),
      username: str(user['username']),
      first_name: str(user['first_name']),
      last_name: str(user['last_name']),
      is_active: user['is_active'] === true,
    },
  };
}
