import { Authenticator as Passport, type AuthenticateOptions } from 'passport';
import OpenIDConnectStrategy from 'passport-openidconnect';
import { jwtVerify } from 'jose';
import type { ClusterConfig } from '@svc/config';
import { ClaimsError, loginFromClaims, needsUserInfo } from './claims';
import { fetchUserInfo, type ProviderMetadata } from './identity-provider';
import type { LoginIdentity } from './types';
import { makeState, readState } from './state';

export const STRATEGY = 'svc-oidc';

/** passport's options plus the per-request callbackURL passport-openidconnect reads. */
export type OidcAuthenticateOptions = AuthenticateOptions & { callbackURL: string };

type Done = (err: Error | null, user?: false | Express.User, info?: { message: string }) => void;

/**
 * passport-openidconnect keeps its state in a session by default. This store puts return_to and
 * the time into the signed `state` itself (auth.md §9.2), so the gateway keeps no session.
 */
function signedStateStore(key: string): OpenIDConnectStrategy.SessionStore {
  return {
    store(_req, _ctx, appState, _meta, cb) {
      cb(null, makeState(key, String(appState)));
    },
    verify(_req, handle, cb) {
      const returnTo = readState(key, handle);
      if (returnTo === null) cb(null, false, { message: 'invalid or expired login state' });
      else cb(null, {}, returnTo);
    },
  } as OpenIDConnectStrategy.SessionStore;
}

/**
 * passport-openidconnect checks issuer, audience and expiry of the ID token but not its
 * signature: that is checked here against the provider's JWKS. Claims the ID token lacks come
 * from UserInfo, whose subject must be the same.
 */
async function claimsOf(
  c: ClusterConfig['Login']['OpenIDConnect'],
  meta: ProviderMetadata,
  idToken: string,
  accessToken: string,
): Promise<LoginIdentity> {
  let claims: Record<string, unknown>;
  try {
    ({ payload: claims } = await jwtVerify(idToken, meta.jwks, {
      issuer: meta.issuer,
      audience: c.ClientID,
      requiredClaims: ['exp', 'sub'],
    }));
  } catch (err) {
    throw new ClaimsError(`ID token not valid: ${(err as Error).message}`);
  }
  if (needsUserInfo(c, claims) && meta.userinfoEndpoint !== null) {
    const info = await fetchUserInfo(meta.userinfoEndpoint, accessToken);
    if (info === null) throw new ClaimsError('the provider refused the UserInfo request');
    if (info['sub'] !== claims['sub'])
      throw new ClaimsError('UserInfo is about another subject than the ID token');
    claims = { ...info, ...claims };
  }
  return loginFromClaims(c, meta.issuer, claims);
}

/** A passport instance with the cluster's provider as strategy STRATEGY. */
export function oidcPassport(cluster: Readonly<ClusterConfig>, meta: ProviderMetadata) {
  const c = cluster.Login.OpenIDConnect;
  // Exactly 7 parameters: passport-openidconnect picks the call form by the function's arity.
  const verify = (
    _issuer: string,
    _profile: unknown,
    _context: unknown,
    idToken: string | object,
    accessToken: string | object,
    _refreshToken: string,
    done: Done,
  ): void => {
    claimsOf(c, meta, String(idToken), String(accessToken)).then(
      (login) => done(null, login as Express.User),
      (err: unknown) =>
        err instanceof ClaimsError
          ? done(null, false, { message: err.message })
          : done(err as Error),
    );
  };
  const strategy = new OpenIDConnectStrategy(
    {
      issuer: meta.issuer,
      authorizationURL: meta.authorizationEndpoint,
      tokenURL: meta.tokenEndpoint,
      userInfoURL: meta.userinfoEndpoint ?? '',
      clientID: c.ClientID,
      clientSecret: c.ClientSecret,
      callbackURL: '',
      scope: ['email', 'profile'],
      store: signedStateStore(cluster.SystemRootToken),
      skipUserProfile: true,
    },
    verify as OpenIDConnectStrategy.VerifyFunction,
  );
  // Response type, client id, redirect_uri, scope and state are set after these, so they win.
  strategy.authorizationParams = () => ({ ...c.AuthenticationRequestParameters });
  const passport = new Passport();
  passport.use(STRATEGY, strategy);
  return passport;
}

export type OidcPassport = ReturnType<typeof oidcPassport>;
