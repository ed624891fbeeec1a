import type { Request, Response } from 'express';
import { authorizationToken } from '@svc/ids';
import type { GatewayDeps } from '../gateway-deps';
import type { FileTarget } from './target';

export const TOKEN_COOKIE = 'svc_api_token';

function cookieToken(req: Request): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === TOKEN_COOKIE) {
      try {
        return decodeURIComponent(v.join('='));
      } catch {
        return null;
      }
    }
  }
  return null;
}

function headerToken(req: Request): string | null {
  const header = req.headers.authorization ?? '';
  const bearer = authorizationToken(header);
  if (bearer) return bearer;
  const basic = /^Basic\s+(\S+)\s*$/i.exec(header);
  if (!basic) return null;
  const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  return i >= 0 && i < decoded.length - 1 ? decoded.slice(i + 1) : null;
}

const queryToken = (req: Request): string | null => {
  const v = (req.query as Record<string, unknown>)['api_token'];
  return typeof v === 'string' && v !== '' ? v : null;
};

/**
 * The tokens a /c= request carries, in the order they are tried (storage.md §9): the
 * Authorization header (Bearer, or Basic with the token as password), `t=` in the path,
 * `?api_token`, the cookie, then the anonymous token if configured.
 */
export function candidateTokens(deps: GatewayDeps, req: Request, target: FileTarget): string[] {
  const all = [
    headerToken(req),
    target.pathToken,
    queryToken(req),
    cookieToken(req),
    deps.home.Users.AnonymousUserToken || null,
  ];
  return [...new Set(all.filter((t): t is string => t !== null && t !== ''))];
}

/**
 * `?api_token=` on a GET or HEAD: 303 to the same URL without it, the token kept in an HttpOnly
 * cookie for /c= so that it does not stay in the address bar or in links. True when answered.
 */
export function redirectTokenToCookie(req: Request, res: Response): boolean {
  const token = queryToken(req);
  if (token === null || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
  const url = new URL(req.originalUrl, 'http://x');
  url.searchParams.delete('api_token');
  const secure = req.secure ? '; Secure' : '';
  res.setHeader(
    'Set-Cookie',
    `${TOKEN_COOKIE}=${encodeURIComponent(token)}; HttpOnly; SameSite=Lax; Path=/c=${secure}`,
  );
  res.redirect(303, `${url.pathname}${url.search}`);
  return true;
}
