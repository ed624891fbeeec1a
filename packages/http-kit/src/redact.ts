/**
 * Secrets that travel in URLs, written out of anything logged: tokens as query parameters
 * (`api_token=`, OAuth's `access_token=`…), a token in a file-access path (`/c=<id>/t=<token>/`),
 * and the permission signatures of block locators (`+A<signature>@<expiry>`), which grant reads.
 */
const SECRET_PARAMS =
  /([?&;](?:api_token|access_token|oauth_token|token|password|secret|code|state)(?:=|%3D))[^&;#]*/gi;
/** `/t=<token>/`, also as `/t%3D…`; a v2 token written with plain slashes is V2_TOKEN's. */
const PATH_TOKEN = /(\/t(?:=|%3D))[^/?#]*/gi;
const LOCATOR_SIGNATURE = /(\+A)[0-9a-f]+(@[0-9a-f]+)?/gi;
const BEARER = /\b(Bearer|OAuth2)\s+\S+/gi;
const V2_TOKEN = /\bv2(\/|%2F)([0-9a-z]{5}-gj3su-[0-9a-z]{15})(\/|%2F)[0-9a-zA-Z]+/gi;

export const REDACTED = '[redacted]';

/** A URL (or path) as it may be logged, whichever way its parts are percent-encoded. */
export function redactUrl(url: string): string {
  return url
    .replace(V2_TOKEN, `v2$1$2$3${REDACTED}`)
    .replace(SECRET_PARAMS, `$1${REDACTED}`)
    .replace(PATH_TOKEN, `$1${REDACTED}`)
    .replace(LOCATOR_SIGNATURE, `$1${REDACTED}`);
}

/** Any text that may quote a request (an error message): URL secrets, bearer and v2 tokens. */
export function redactText(text: string): string {
  return redactUrl(text).replace(BEARER, `$1 ${REDACTED}`);
}

/** Fields of logged objects that carry secrets (pino `redact` paths). */
export const LOG_REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  'password',
  '*.password',
  'api_token',
  '*.api_token',
  'token',
  '*.token',
  'secret',
  '*.secret',
];
