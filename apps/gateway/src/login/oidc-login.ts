import type { Request, RequestHandler, Response } from 'express';
import { lastQueryValues } from '@svc/contract';
import { BadGatewayError } from '@svc/errors';
import { requestOrigin } from '../http/origin';
import type { GatewayDeps } from '../gateway-deps';
import { sendLoginError } from './html';
import type { IdentityProvider, ProviderMetadata } from './identity-provider';
import {
  oidcPassport,
  STRATEGY,
  type OidcAuthenticateOptions,
  type OidcPassport,
} from './oidc-strategy';
import type { LoginIdentity } from './types';
import { issueLoginToken } from './issue-token';
import { checkReturnTo, withApiToken } from './return-to';

/** `<ExternalURL or the request's origin>/login`, the same at the redirect and at the code exchange. */
export function callbackUrl(deps: GatewayDeps, req: Request): string {
  const base = deps.home.ExternalURL !== '' ? deps.home.ExternalURL : requestOrigin(req);
  return `${base.replace(/\/+$/, '')}/login`;
}

function messageOf(info: unknown): string {
  const message = (info as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' && message !== '' ? message : 'login failed';
}

/** Step 2 once passport has checked state, code and ID token: register, issue, redirect. */
async function finish(
  deps: GatewayDeps,
  res: Response,
  login: LoginIdentity,
  returnTo: string,
): Promise<void> {
  const target = checkReturnTo(returnTo, deps.home.Login.TrustedClients);
  const token = await issueLoginToken(deps, login, target.toString());
  res
    .status(302)
    .set({ Location: withApiToken(target, token), 'Cache-Control': 'no-store' })
    .end();
}

type PassportFor = () => Promise<OidcPassport>;

/** Why a provider callback cannot go on, or null. passport reads req.query, where a repeated parameter is an array. */
function callbackProblem(raw: Readonly<Record<string, unknown>>): string | null {
  if (raw['error'] !== undefined) {
    const detail =
      typeof raw['error_description'] === 'string' ? `: ${raw['error_description']}` : '';
    return `the provider refused the login (${String(raw['error'])}${detail})`;
  }
  if (typeof raw['code'] !== 'string' || typeof raw['state'] !== 'string') {
    return 'the callback needs one code and one state';
  }
  return null;
}

/** Step 1: check return_to (JSON 422s), then passport redirects to the provider. */
const start =
  (deps: GatewayDeps, passportFor: PassportFor): RequestHandler =>
  async (req, res, next) => {
    const query = lastQueryValues(req.query as Record<string, unknown>);
    const returnTo = checkReturnTo(query['return_to'], deps.home.Login.TrustedClients).toString();
    const options: OidcAuthenticateOptions = {
      session: false,
      callbackURL: callbackUrl(deps, req),
      state: returnTo,
    };
    (await passportFor()).authenticate(STRATEGY, options)(req, res, next);
  };

/** Step 2: passport checks state, exchanges the code and checks the ID token; failures are 400 pages. */
const callback =
  (deps: GatewayDeps, passportFor: PassportFor): RequestHandler =>
  async (req, res, next) => {
    const problem = callbackProblem(req.query as Record<string, unknown>);
    if (problem !== null) return sendLoginError(res, problem);
    let passport: OidcPassport;
    try {
      passport = await passportFor();
    } catch (err) {
      return sendLoginError(res, (err as Error).message);
    }
    const done = (err: unknown, login: LoginIdentity | false, info?: { state?: string }) => {
      if (err || !login || typeof info?.state !== 'string') {
        return sendLoginError(res, err ? (err as Error).message : messageOf(info));
      }
      finish(deps, res, login, info.state).catch((e: unknown) =>
        sendLoginError(res, (e as Error).message),
      );
    };
    const options: OidcAuthenticateOptions = {
      session: false,
      callbackURL: callbackUrl(deps, req),
    };
    passport.authenticate(STRATEGY, options, done)(req, res, next);
  };

/**
 * `GET /login` with OpenID Connect (auth.md §9.2): the redirect to the provider, or, when the
 * request carries `code`, `state` or `error`, the provider's callback.
 */
export function oidcLogin(deps: GatewayDeps, provider: IdentityProvider): RequestHandler {
  let built: { meta: ProviderMetadata; passport: OidcPassport } | null = null;
  const passportFor = async (): Promise<OidcPassport> => {
    let meta: ProviderMetadata;
    try {
      meta = await provider.metadata();
    } catch (err) {
      throw new BadGatewayError(
        `cannot reach the OpenID Connect provider: ${(err as Error).message}`,
      );
    }
    if (built?.meta !== meta) built = { meta, passport: oidcPassport(deps.home, meta) };
    return built.passport;
  };
  const begin = start(deps, passportFor);
  const end = callback(deps, passportFor);
  return (req, res, next) => {
    const query = req.query as Record<string, unknown>;
    const isCallback = ['code', 'state', 'error'].some((k) => query[k] !== undefined);
    return (isCallback ? end : begin)(req, res, next);
  };
}
