/**
 * Where the console keeps the signed-in token: the browser's localStorage (so a new tab is
 * signed in too), and the cookie that file access at `/c=` reads, so that downloads, images and
 * links to files work without a token in their URL. The cookie is SameSite=Strict (no other site
 * can make the browser send it); its path is `/` because a cookie path `/c=` does not match
 * `/c=<id>/…` (cookie paths match whole segments). File answers are sandboxed by the gateway,
 * so a file's scripts cannot read it.
 */
const KEY = 'svc.console.token';
const FILE_COOKIE = 'svc_api_token';

export function storedToken(): string | null {
  try {
    return window.localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

function setFileCookie(token: string | null): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie =
    token === null
      ? `${FILE_COOKIE}=; Path=/; Max-Age=0; SameSite=Strict${secure}`
      : `${FILE_COOKIE}=${encodeURIComponent(token)}; Path=/; SameSite=Strict${secure}`;
}

export function storeToken(token: string | null): void {
  if (token === null) window.localStorage.removeItem(KEY);
  else window.localStorage.setItem(KEY, token);
  setFileCookie(token);
}

/** `v2/<uuid>/<secret>` from a token record, the form every client accepts. */
export const v2Token = (record: { uuid: string; api_token?: string | null }): string =>
  `v2/${record.uuid}/${record.api_token ?? ''}`;
