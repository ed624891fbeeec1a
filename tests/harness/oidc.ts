import { join } from 'node:path';
import { startHelperProcess, type HelperProcess } from './helper-process';

/**
 * A real OpenID Connect provider (npm oidc-provider, in a child process) with one confidential
 * client and these accounts (`{id: claims}`); its login form takes the account id.
 */
export const startOidcProvider = (
  client: { id: string; secret: string },
  accounts: Record<string, Record<string, unknown>>,
): Promise<HelperProcess<{ issuer: string }>> =>
  startHelperProcess(join(__dirname, 'oidc-provider.mjs'), {
    OIDC_CLIENT_ID: client.id,
    OIDC_CLIENT_SECRET: client.secret,
    OIDC_ACCOUNTS: JSON.stringify(accounts),
  });
