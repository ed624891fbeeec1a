/**
 * What a login provider vouches for (auth.md §9, §11): the gateway checks the credentials, the
 * home core registers the user and issues the token.
 */
export interface LoginIdentity {
  email: string | null;
  /** The provider's preferred username, if any. */
  username: string | null;
  firstName: string | null;
  lastName: string | null;
  /** `<issuer>#<sub>` for OIDC, `<provider>:<username>` for the others. */
  identityUrl: string;
}
