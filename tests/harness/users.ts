import type { SvcClient } from '@svc/client';
import type { TestDeployment } from './deployment';

export interface TestUser {
  uuid: string;
  /** `v2/<uuid>/<secret>` */
  token: string;
  tokenUuid: string;
  client: SvcClient;
}

let counter = 0;

/** A user made by the root token (active unless told otherwise), with a token of the trusted built-in client. */
export async function makeUser(
  d: TestDeployment,
  attrs: Record<string, unknown> = {},
  tokenAttrs: Record<string, unknown> = {},
): Promise<TestUser> {
  counter += 1;
  const user = await d.root.request('POST', '/svc/v1/users', {
    json: {
      user: { email: `user${counter}-${Date.now()}@example.com`, is_active: true, ...attrs },
    },
  });
  if (user.status !== 200) throw new Error(`user: ${user.text}`);
  const token = await d.root.request('POST', '/svc/v1/api_client_authorizations', {
    json: { api_client_authorization: { owner_uuid: user.body.uuid, ...tokenAttrs } },
  });
  if (token.status !== 200) throw new Error(`token: ${token.text}`);
  const v2 = `v2/${token.body.uuid}/${token.body.api_token}`;
  return { uuid: user.body.uuid, token: v2, tokenUuid: token.body.uuid, client: d.client(v2) };
}

/** Logs in through `POST /svc/v1/users/authenticate`; returns the answer. */
export function login(
  d: TestDeployment,
  username: string,
  password: string,
  extra: Record<string, unknown> = {},
) {
  return d.client(null).request('POST', '/svc/v1/users/authenticate', {
    raw: {
      body: JSON.stringify({ username, password, ...extra }),
      contentType: 'application/javascript',
    },
  });
}

/** The system user of a default deployment's home cluster (home1). */
export const SYSTEM = 'home1-tpzed-000000000000000';
