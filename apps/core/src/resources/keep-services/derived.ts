import { createHash } from 'node:crypto';
import { builtInUuids, keepServices } from '@svc/contract';

/** When this process started: the derived record's created_at and modified_at. */
const STARTED = new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z');

/**
 * The block service a client should use while no record is stored (storage.md §8): the gateway
 * as the client reached it (`origin`, from ExternalURL or the request), with a uuid derived from
 * that origin.
 */
export function derivedKeepService(clusterId: string, origin: string): Record<string, unknown> {
  const url = new URL(origin);
  const ssl = url.protocol === 'https:';
  const port = url.port !== '' ? Number(url.port) : ssl ? 443 : 80;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const id = createHash('md5')
    .update(`${url.protocol}//${url.hostname}:${port}/`)
    .digest('hex')
    .slice(0, 15);
  const record = {
    kind: keepServices.kind,
    uuid: `${clusterId}-${keepServices.infix}-${id}`,
    owner_uuid: builtInUuids(clusterId).systemUser,
    created_at: STARTED,
    modified_at: STARTED,
    modified_by_user_uuid: null,
    service_host: host,
    service_port: port,
    service_ssl_flag: ssl,
    service_type: 'proxy',
    read_only: false,
  };
  const etag = createHash('md5').update(JSON.stringify(record)).digest('hex');
  return { ...record, etag };
}
