import { EMPTY_PDH } from '@svc/ids';
import { statement } from '../../db/db';
import type { Lifecycle } from '../../container-lifecycle/context';
import { insertContainer } from '../../container-lifecycle/containers-sql';
import type { Row } from '../common/row';

/**
 * Container selection (containers.md §6 step 4). Candidates share the request's reuse digest,
 * found through the (reuse_digest, state) index, so a commit never scans the containers table.
 * Commits with the same digest are serialized by a transaction-scoped advisory lock, so that
 * concurrent matching commits end on one container.
 */

/** Each of the container's PDHs belongs to an existing collection that is not hidden. */
const kept = (column: string) => `(c.${column} = '${EMPTY_PDH}' OR EXISTS (
  SELECT 1 FROM collections k
   WHERE k.portable_data_hash = c.${column}
     AND (k.trash_at IS NULL OR k.trash_at > statement_timestamp())
     AND NOT EXISTS (SELECT 1 FROM hidden_groups tg
                      WHERE tg.group_uuid = k.owner_uuid AND tg.trash_at <= statement_timestamp())))`;

const REUSABLE = `(
  (c.state = 'Complete' AND c.exit_code = 0 AND ${kept('log')} AND ${kept('output')})
  OR (c.state = 'Running' AND c.priority > 0 AND NOT (c.runtime_status ? 'error'))
  OR c.state IN ('Locked', 'Queued'))`;

/** The preference order of §6: first found wins. */
const PREFERENCE = `
  CASE c.state WHEN 'Complete' THEN 1 WHEN 'Running' THEN 2 WHEN 'Locked' THEN 3 ELSE 4 END,
  CASE WHEN c.state = 'Complete' THEN c.finished_at END ASC,
  CASE WHEN c.state = 'Running' THEN coalesce(c.progress, 0) END DESC,
  CASE WHEN c.state = 'Running' THEN c.started_at END ASC,
  CASE WHEN c.state IN ('Locked', 'Queued') THEN c.priority END DESC,
  c.created_at ASC, c.uuid ASC`;

/** What commit reads of the chosen container (finalization needs its results). */
const CHOSEN = `c.uuid, c.state, c.exit_code, c.log, c.output, c.output_properties, c.cost,
  c.subrequests_cost`;

/**
 * The best reusable candidate, locked. A candidate another transaction changed meanwhile is
 * re-read under the lock and its conditions checked again (PostgreSQL rechecks a locking read
 * against the new row version); if it stopped being reusable (became Cancelled), it is skipped
 * and the next candidate in preference order is locked instead: selection runs again.
 */
async function lockedCandidate(lc: Lifecycle, digest: string): Promise<Row | null> {
  const { rows } = await lc.tx.query<Row>(
    statement(
      `SELECT ${CHOSEN} FROM containers c
        WHERE c.reuse_digest = $1 AND c.state IN ('Complete', 'Running', 'Locked', 'Queued')
          AND ${REUSABLE}
        ORDER BY ${PREFERENCE} LIMIT 1 FOR UPDATE OF c`,
      [digest],
      'reuse_candidate',
    ),
  );
  return rows[0] ?? null;
}

/**
 * The container a committed request gets: with `useExisting`, the best reusable one with the
 * same digest, re-read under its row lock (selection runs again if it stopped being reusable
 * meanwhile); otherwise, or without one, a new Queued container with `attrs`.
 */
export async function chooseContainer(
  lc: Lifecycle,
  attrs: Row,
  useExisting: boolean,
): Promise<Row> {
  if (!useExisting) return insertContainer(lc, attrs);
  const digest = String(attrs['reuse_digest']);
  await lc.tx.query(
    statement(
      `SELECT pg_advisory_xact_lock(hashtextextended('container reuse ' || $1, 0))`,
      [digest],
      'reuse_lock',
    ),
  );
  return (await lockedCandidate(lc, digest)) ?? insertContainer(lc, attrs);
}
