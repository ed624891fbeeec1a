import { parseV2Token, saltTokenFor } from '@svc/ids';

/**
 * The token as cluster `target` receives it (federation.md §3): unchanged at home and for the
 * issuer itself, else salted; a bare local secret is salted through its v2 form (known once
 * home has checked it), and any other bare token goes unchanged.
 */
export function tokenFor(
  target: string,
  home: string,
  token: string,
  v2Form: string | undefined,
): string {
  if (target === home) return token;
  const uuid = v2Form ? (parseV2Token(v2Form)?.uuid ?? null) : null;
  return saltTokenFor(target, token, () => uuid) ?? token;
}
