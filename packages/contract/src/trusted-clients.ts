/**
 * Whether a login may hand a token to `url`'s origin (auth.md §9.1): its scheme, host and port
 * equal an entry of Login.TrustedClients, where `scheme://*.example.com` stands for every
 * subdomain of example.com. Used by the gateway to check `return_to`, and by the web console
 * to tell whether an identity provider can send people back to it.
 */
export function isTrustedOrigin(url: URL, trustedClients: readonly string[]): boolean {
  return trustedClients.some((entry) => {
    let trusted: URL;
    try {
      trusted = new URL(entry.replace('://*.', '://wildcard-placeholder.'));
    } catch {
      return false;
    }
    if (trusted.protocol !== url.protocol || trusted.port !== url.port) return false;
    if (!entry.includes('://*.')) return trusted.hostname === url.hostname;
    const domain = trusted.hostname.slice('wildcard-placeholder.'.length);
    return url.hostname.endsWith(`.${domain}`);
  });
}
