import type { Request } from 'express';

/**
 * The presented token (auth.md §1): `Authorization: Bearer|OAuth2 <token>`, else the
 * `api_token` parameter. A header that is present decides, even if its token is bad.
 */
export function presentedToken(
  req: Request,
  params: Readonly<Record<string, unknown>>,
): string | null {
  const header = req.headers.authorization;
  if (header !== undefined) {
    const m = /^(?:Bearer|OAuth2)\s+(\S+)\s*$/i.exec(header);
    return m ? m[1]! : '';
  }
  const param = params['api_token'];
  return typeof param === 'string' ? param : null;
}
