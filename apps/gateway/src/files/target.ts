import { msg } from '@svc/contract';
import { NUL_IN_NAME } from '@svc/ids';
import { FileHttpError } from './respond';

/** What a `/c=<collection>[/t=<token>]/<path>` URL names (storage.md §9). */
export interface FileTarget {
  /** Collection uuid, or portable data hash (`+` restored). */
  id: string;
  isPdh: boolean;
  /** Token given in the path, decoded. */
  pathToken: string | null;
  /** Decoded path segments inside the collection. */
  path: string[];
  /** The URL ended with `/` (a directory was asked for). */
  trailingSlash: boolean;
  /** The URL's prefix up to the collection (and token), as the client wrote it. */
  base: string;
}

const PDH_DASH = /^([0-9a-f]{32})[-+]([0-9]+)$/;

const decode = (segment: string): string => {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new FileHttpError(400, 'invalid path');
  }
};

/** True for paths this part serves: `/c=…`, also with `=` percent-encoded. */
export const isFilePath = (rawPath: string): boolean => /^\/c(=|%3D)/i.test(rawPath);

export function parseTarget(rawPath: string): FileTarget {
  const raw = rawPath.slice(1).split('/');
  const first = decode(raw[0]!).slice(2);
  const pdh = PDH_DASH.exec(first);
  let rest = raw.slice(1);
  let base = `/${raw[0]}`;
  let pathToken: string | null = null;
  if (rest[0] !== undefined && decode(rest[0]).startsWith('t=')) {
    pathToken = decode(rest[0]).slice(2);
    base += `/${rest[0]}`;
    rest = rest.slice(1);
  }
  const trailingSlash = rest.length > 0 && rest[rest.length - 1] === '';
  const path = rest.filter((s) => s !== '').map(decode);
  // No collection can hold such a name (docs/api/other-resources.md §1): refused as the API refuses it.
  if (path.some((p) => p.includes('\u0000')))
    throw new FileHttpError(400, msg.invalidManifest(NUL_IN_NAME));
  if (path.some((p) => p === '.' || p === '..')) throw new FileHttpError(404, 'file not found');
  return {
    id: pdh ? `${pdh[1]}+${pdh[2]}` : first,
    isPdh: pdh !== null,
    pathToken,
    path,
    trailingSlash: trailingSlash || rest.length === 0,
    base,
  };
}

/** The href of a path under the target's collection. */
export const hrefOf = (target: FileTarget, path: readonly string[], dir: boolean): string =>
  `${target.base}/${path.map(encodeURIComponent).join('/')}${dir && path.length > 0 ? '/' : ''}`;
