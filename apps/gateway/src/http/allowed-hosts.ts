import type { IncomingMessage, ServerResponse } from 'node:http';
import { hostname } from 'node:os';
import { msg } from '@svc/contract';
import { ApiError, toErrorBody } from '@svc/errors';
import { sendJson } from '@svc/http-kit';
import { splitListen, type ClusterConfig, type Config } from '@svc/config';

/** The host part of a Host header, lower case, without its port (`[::1]` keeps its brackets). */
export function hostName(header: string): string {
  const h = header.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const colon = h.indexOf(':');
  return (colon >= 0 ? h.slice(0, colon) : h).replace(/\.$/, '');
}

/** Listening on every address names no host a client would use. */
const ANY_ADDRESS = new Set(['', '0.0.0.0', '::', '[::]']);

const bracketed = (host: string): string => (host.includes(':') ? `[${host}]` : host);

/**
 * The host names URLs may be derived from when ExternalURL is "" (Gateway.AllowedHosts; its
 * default is loopback, the listen address's host and the machine's host name).
 */
export function allowedHosts(config: Readonly<Config>): ReadonlySet<string> {
  const given = config.Gateway.AllowedHosts;
  const listen = splitListen(config.Gateway.Listen).host;
  const names =
    given.length > 0
      ? given
      : [
          'localhost',
          '127.0.0.1',
          '[::1]',
          ...(ANY_ADDRESS.has(listen) ? [] : [listen]),
          hostname(),
        ];
  return new Set(names.map((n) => hostName(bracketed(n.replace(/^\[|\]$/g, '')))));
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|::1)$/i;

/**
 * What to tell whoever starts a gateway that others can reach while its URLs come from each
 * request's Host (README, ExternalURL); null otherwise.
 */
export function exposureWarning(config: Readonly<Config>, home: Readonly<ClusterConfig>) {
  const { host } = splitListen(config.Gateway.Listen);
  if (home.ExternalURL !== '' || LOOPBACK.test(host)) return null;
  return (
    `Gateway.Listen ${config.Gateway.Listen} is not a loopback address and ExternalURL is "": ` +
    `URLs are derived from the Host header, for Gateway.AllowedHosts only ` +
    `(${[...allowedHosts(config)].join(', ')}); set ExternalURL to the public URL`
  );
}

/**
 * With ExternalURL "", a request whose Host is not allowed is answered 421 "Misdirected
 * request" before anything reads it: no URL the server hands out can name another host. True
 * when answered. A request without Host (HTTP/1.0) uses the address it arrived at.
 */
export function refuseMisdirected(
  allowed: ReadonlySet<string> | null,
  req: IncomingMessage,
  res: ServerResponse,
): boolean {
  const host = req.headers.host;
  if (allowed === null || host === undefined || allowed.has(hostName(host))) return false;
  sendJson(
    res,
    421,
    toErrorBody(new ApiError(421, msg.misdirectedRequest())),
    req.method === 'HEAD',
  );
  return true;
}
