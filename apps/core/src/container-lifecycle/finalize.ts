import type { Row } from '../resources/common/row';
import { copyCollections, ownerTakesCollections, type CollectionCopy } from './collections';
import type { Lifecycle } from './context';

/**
 * What a Committed request becomes when the server finalizes it (containers.md §10 step 2):
 * Final, secrets scrubbed, the container's cost added, and its output and log collections.
 */

const isHash = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const succeeded = (c: Row): boolean =>
  c['state'] === 'Complete' && Number(c['exit_code']) === 0 && c['exit_code'] !== null;

/** The request's share of a container's cost. */
export const costOf = (c: Row | null): number =>
  c ? Number(c['cost'] ?? 0) + Number(c['subrequests_cost'] ?? 0) : 0;

/** The output collection a request gets from a successful container (§10 table). */
function outputCopy(request: Row, c: Row): CollectionCopy | null {
  if (!succeeded(c) || typeof c['output'] !== 'string') return null;
  const uuid = String(request['uuid']);
  return {
    pdh: c['output'],
    owner: String(request['owner_uuid']),
    name:
      typeof request['output_name'] === 'string' && request['output_name'] !== ''
        ? request['output_name']
        : `Container output for request ${uuid}`,
    properties: {
      type: request['requesting_container_uuid'] ? 'intermediate' : 'output',
      container_request: uuid,
      ...(isHash(c['output_properties']) ? c['output_properties'] : {}),
      ...(isHash(request['output_properties']) ? request['output_properties'] : {}),
    },
    storageClasses: request['output_storage_classes'] ?? ['default'],
    ttlSeconds: Number(request['output_ttl'] ?? 0),
  };
}

/** The log collection a request gets from a container with a log. */
function logCopy(request: Row, c: Row): CollectionCopy | null {
  if (typeof c['log'] !== 'string') return null;
  const uuid = String(request['uuid']);
  return {
    pdh: c['log'],
    owner: String(request['owner_uuid']),
    name: `Container log for request ${uuid}`,
    properties: { type: 'log', container_request: uuid },
    storageClasses: ['default'],
    ttlSeconds: 0,
  };
}

/** The scrub of §11 that every Final request gets. */
export const FINAL_SCRUB: Readonly<Row> = {
  state: 'Final',
  secret_mounts: {},
  runtime_token: null,
};

/** The changes that finalize `request`, whose container is `container` (already final). */
export async function finalChanges(
  lc: Lifecycle,
  request: Row,
  container: Row | null,
): Promise<Row> {
  const changes: Row = {
    ...FINAL_SCRUB,
    cumulative_cost: Number(request['cumulative_cost'] ?? 0) + costOf(container),
  };
  if (!container) return changes;
  const output = outputCopy(request, container);
  const log = logCopy(request, container);
  if ((!output && !log) || !(await ownerTakesCollections(lc, String(request['owner_uuid'])))) {
    return changes;
  }
  const copies = [output, log].filter((c): c is CollectionCopy => c !== null);
  const made = await copyCollections(lc, copies);
  changes['output_uuid'] = output ? made[copies.indexOf(output)] : null;
  changes['log_uuid'] = log ? made[copies.indexOf(log)] : null;
  return changes;
}
