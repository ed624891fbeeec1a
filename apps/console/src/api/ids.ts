import { resourceOfUuid } from '@svc/contract';

/*
 * The shapes of identifiers the console recognises in a search box or a URL (requests-and-errors
 * §9): a uuid `<cluster>-<infix>-<15>`, and a portable data hash `<md5>+<size>`. The server's
 * own parsers live in @svc/ids, which needs node:crypto; these are the two patterns alone.
 */
const UUID = /^([0-9a-z]{5})-([0-9a-z]{5})-([0-9a-z]{15})$/;
const PDH = /^[0-9a-f]{32}\+[0-9]+$/;

export const isUuid = (s: string): boolean => UUID.test(s);
export const isPdh = (s: string): boolean => PDH.test(s);
export const clusterOf = (uuid: string): string | null => UUID.exec(uuid)?.[1] ?? null;

/** The resource type of a uuid (`groups`, `collections`, …), or null. */
export const typeOfUuid = (uuid: string): string | null =>
  isUuid(uuid) ? (resourceOfUuid(uuid)?.type ?? null) : null;

/** The console's page for an object, by its uuid or PDH; null when the console has none. */
export function pathOf(id: string): string | null {
  if (isPdh(id)) return `/collections/${id}`;
  switch (typeOfUuid(id)) {
    case 'groups':
      return `/projects/${id}`;
    case 'users':
      return `/projects/${id}`;
    case 'collections':
      return `/collections/${id}`;
    case 'container_requests':
      return `/processes/${id}`;
    case 'containers':
      return `/processes/${id}`;
    case 'workflows':
      return `/workflows/${id}`;
    default:
      return null;
  }
}
