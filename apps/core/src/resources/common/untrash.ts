import { UnprocessableError } from '@svc/errors';
import { rowColumns } from '@svc/list-engine';
import { flagOption, stringOption, type Call, type Handler } from '../../call';
import { findVisible, readObject } from './crud';
import { checkFrozenUpdate } from './frozen';
import { compareTimes, nowCanonical, type Row } from './row';
import type { ResourceRules } from './rules';
import { isTrashedAt } from './trash';
import { enforceUniqueName } from './unique-name';
import { updateStatement } from './write-sql';

/** The same call, seeing hidden objects: untrash finds an object whatever hides it (groups.md §6). */
const seeingTrash = (call: Call): Call => ({
  ...call,
  options: { ...call.options, include_trash: true },
});

/**
 * `POST /<type>/<uuid>/untrash` (groups and collections): write permission; 422 unless the object
 * itself is trashed and its delete_at is still ahead; the unique-name rule applies, renaming
 * with ensure_unique_name (groups.md §6, other-resources.md §1).
 */
export function untrashHandler(rules: ResourceRules): Handler {
  const { resource } = rules;
  return async (call) => {
    const all = seeingTrash(call);
    const uuid = stringOption(call, 'uuid');
    await call.db.transaction(async (tx) => {
      const current = await findVisible(all, rules, tx, uuid, true);
      await rules.policy.write(call, tx, current, {}, 'update');
      await checkFrozenUpdate(tx, current, {});
      const now = nowCanonical();
      if (!isTrashedAt(current, now)) {
        throw new UnprocessableError('Item is not trashed, cannot untrash');
      }
      if (
        typeof current['delete_at'] === 'string' &&
        compareTimes(current['delete_at'], now) <= 0
      ) {
        throw new UnprocessableError('delete_at time has already passed, cannot untrash');
      }
      const next: Row = { ...current, trash_at: null, delete_at: null };
      await enforceUniqueName(tx, resource, next, now, flagOption(call, 'ensure_unique_name'));
      const changes: Row = {
        trash_at: null,
        delete_at: null,
        modified_at: now,
        modified_by_user_uuid: call.caller.uuid,
        ...(next['name'] !== current['name'] ? { name: next['name'] } : {}),
      };
      const { rows } = await tx.query<Row>(
        updateStatement(resource, uuid, changes, rowColumns(resource, null, false)),
      );
      await rules.afterWrite?.({ call, tx, now, input: changes }, rows[0]!, current);
    });
    return readObject(all, rules, uuid);
  };
}
