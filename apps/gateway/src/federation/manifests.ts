import type { Endpoint } from '@svc/contract';
import { toLocalManifest, toRemoteManifest } from '@svc/blocks';

/**
 * Manifests crossing between clusters (storage.md §4, §7). A collection of another cluster
 * comes back with that cluster's `+A` signatures as `+R<id>-` (its blocks then read through
 * this gateway), and a manifest sent to cluster `<id>` has its `+R<id>-` turned back into `+A`.
 */

/** Does an answer of this operation carry collections' manifests? */
export const carriesManifests = (endpoint: Endpoint): boolean =>
  endpoint.resource === 'collections' ||
  (endpoint.resource === 'groups' && endpoint.name === 'contents');

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function rewriteObject(o: Obj, cluster: string): Obj {
  const text = o['manifest_text'];
  return typeof text === 'string' ? { ...o, manifest_text: toRemoteManifest(text, cluster) } : o;
}

/** An answer from `cluster` (one object or a list page) with its signatures as `+R<cluster>-`. */
export function fromCluster(body: unknown, cluster: string): unknown {
  if (!isObj(body)) return body;
  const items = body['items'];
  const out = rewriteObject(body, cluster);
  return Array.isArray(items)
    ? { ...out, items: items.map((i) => (isObj(i) ? rewriteObject(i, cluster) : i)) }
    : out;
}

/** Typed options of a call to `cluster` with `+R<cluster>-` in `manifest_text` back as `+A`. */
export function toCluster(
  options: Readonly<Record<string, unknown>>,
  cluster: string,
): Readonly<Record<string, unknown>> {
  const attributes = options['attributes'];
  if (!isObj(attributes) || typeof attributes['manifest_text'] !== 'string') return options;
  return {
    ...options,
    attributes: {
      ...attributes,
      manifest_text: toLocalManifest(attributes['manifest_text'], cluster),
    },
  };
}

const A_SIGNATURE = /\+A([0-9a-f]{40}@[0-9a-f]{8})/g;

/** A raw JSON answer from `cluster` with every `+A` signature as `+R<cluster>-`. */
export const rawFromCluster = (raw: Buffer, cluster: string): Buffer =>
  Buffer.from(raw.toString('utf8').replace(A_SIGNATURE, `+R${cluster}-$1`), 'utf8');

/**
 * A raw request body (JSON, or form and query encoding) passed through to `cluster`, with its
 * `+R<cluster>-` signatures back as `+A`.
 */
export function rawToCluster(raw: string, cluster: string): string {
  const literal = new RegExp(`\\+R${cluster}-([0-9a-f]{40}@[0-9a-f]{8})`, 'g');
  const encoded = new RegExp(`%2BR${cluster}-([0-9a-f]{40}(?:@|%40)[0-9a-f]{8})`, 'gi');
  return raw.replace(literal, '+A$1').replace(encoded, '%2BA$1');
}
