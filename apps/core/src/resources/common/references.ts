import { msg, quoteIdent, resourceByInfix, type ResourceSpec } from '@svc/contract';
import { UnprocessableError } from '@svc/errors';
import { parseUuid } from '@svc/ids';
import { statement, type Db } from '../../db/db';
import type { Row } from './row';

/** Does this uuid name an existing object of this cluster? */
export async function objectExists(tx: Db, uuid: string): Promise<boolean> {
  const parsed = parseUuid(uuid);
  const target = parsed ? resourceByInfix(parsed.infix) : undefined;
  if (!target) return false;
  const { rows } = await tx.query(
    statement(`SELECT 1 FROM ${quoteIdent(target.type)} WHERE uuid = $1`, [uuid]),
  );
  return rows.length > 0;
}

/**
 * Attributes that name other objects must name existing ones (requests-and-errors.md §9).
 * Only the values a write sets or changes are checked; `skip` names attributes whose
 * resource applies its own rule.
 */
export async function checkReferences(
  tx: Db,
  r: ResourceSpec,
  next: Row,
  previous: Row | null,
  skip: readonly string[] = [],
): Promise<void> {
  const problems: string[] = [];
  for (const [name, spec] of Object.entries(r.attributes)) {
    if (!spec.reference || skip.includes(name)) continue;
    const value = next[name];
    if (typeof value !== 'string' || (previous && previous[name] === value)) continue;
    if (!(await objectExists(tx, value))) problems.push(msg.referenceNotFound(name, value));
  }
  if (problems.length > 0) throw new UnprocessableError(problems);
}
