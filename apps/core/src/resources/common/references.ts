import { msg, type ResourceSpec } from '@svc/contract';
import { UnprocessableError } from '@svc/errors';
import type { Call } from '../../call';
import type { Db } from '../../db/db';
import { isReadable } from '../../permissions/readable';
import type { Row } from './row';

/**
 * Attributes that name other objects must name ones the caller can read
 * (requests-and-errors.md §9). Only values a write sets or changes are checked; owner_uuid is
 * the access policy's (permissions.md §2), and `skip` names attributes the resource checks itself.
 */
export async function checkReferences(
  call: Call,
  tx: Db,
  r: ResourceSpec,
  next: Row,
  previous: Row | null,
  skip: readonly string[] = [],
): Promise<void> {
  const problems: string[] = [];
  for (const [name, spec] of Object.entries(r.attributes)) {
    if (!spec.reference || name === 'owner_uuid' || skip.includes(name)) continue;
    const value = next[name];
    if (typeof value !== 'string' || (previous && previous[name] === value)) continue;
    if (!(await isReadable(tx, call, value))) problems.push(msg.referenceNotFound(name, value));
  }
  if (problems.length > 0) throw new UnprocessableError(problems);
}
