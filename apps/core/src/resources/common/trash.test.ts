import { UnprocessableError } from '@svc/errors';
import type { Call } from '../../call';
import type { Row } from './row';
import type { WriteContext } from './rules';
import { applyTrashInput, isTrashedAt } from './trash';

const TTL = 3600; // Collections.BlobSigningTTL
const NOW = '2024-05-01T12:00:00.000000Z';
const AN_HOUR_LATER = '2024-05-01T13:00:00.000000Z';
const EARLIER = '2024-05-01T11:00:00.000000Z';
const LATER = '2024-05-02T00:00:00.000000Z';
const LATER_PLUS_TTL = '2024-05-02T01:00:00.000000Z';
const MUCH_LATER = '2024-06-01T00:00:00.000000Z';

/** The save of `input` onto `current` (null: a create), as the generic write path prepares it. */
function save(current: Row | null, input: Record<string, unknown>): Row {
  const call = { cluster: { Collections: { BlobSigningTTL: TTL } } } as unknown as Call;
  const ctx = { call, now: NOW, input } as unknown as WriteContext;
  const next: Row = { ...(current ?? { trash_at: null, delete_at: null }) };
  for (const name of ['trash_at', 'delete_at']) if (name in input) next[name] = input[name];
  applyTrashInput(ctx, current, next);
  return { trash_at: next['trash_at'], delete_at: next['delete_at'] };
}

const live: Row = { trash_at: null, delete_at: null };
const scheduled: Row = { trash_at: LATER, delete_at: LATER_PLUS_TTL };
const trashed: Row = { trash_at: EARLIER, delete_at: AN_HOUR_LATER };

describe('trash fields on create and update (groups.md §6)', () => {
  it.each<[string, Row | null, Record<string, unknown>, Row]>([
    [
      'trash_at earlier than now is stored as now',
      live,
      { trash_at: EARLIER },
      { trash_at: NOW, delete_at: AN_HOUR_LATER },
    ],
    [
      'trash_at set, delete_at not given: trash_at + TTL',
      null,
      { trash_at: LATER },
      { trash_at: LATER, delete_at: LATER_PLUS_TTL },
    ],
    ['trash_at: null, delete_at not given: null', scheduled, { trash_at: null }, live],
    [
      'is_trashed: true without trash_at: now, and now + TTL',
      live,
      { is_trashed: true },
      { trash_at: NOW, delete_at: AN_HOUR_LATER },
    ],
    ['is_trashed: false without trash_at: both null', trashed, { is_trashed: false }, live],
    [
      'trash_at wins over is_trashed',
      live,
      { trash_at: LATER, is_trashed: false },
      { trash_at: LATER, delete_at: LATER_PLUS_TTL },
    ],
    [
      'both given, delete_at later: kept',
      live,
      { trash_at: LATER, delete_at: MUCH_LATER },
      { trash_at: LATER, delete_at: MUCH_LATER },
    ],
    [
      'both given, delete_at equal: kept',
      live,
      { trash_at: LATER, delete_at: LATER },
      { trash_at: LATER, delete_at: LATER },
    ],
    [
      'delete_at alone moves only delete_at',
      scheduled,
      { delete_at: MUCH_LATER },
      { trash_at: LATER, delete_at: MUCH_LATER },
    ],
    ['no trash input changes nothing', scheduled, { name: 'x' }, scheduled],
  ])('%s', (_rule, current, input, expected) => {
    expect(save(current, input)).toEqual(expected);
  });

  it.each<[string, Row | null, Record<string, unknown>, string]>([
    [
      'only delete_at set',
      live,
      { delete_at: LATER },
      'delete_at must be set if trash_at is set, and must be null otherwise',
    ],
    [
      'only trash_at set',
      null,
      { trash_at: LATER, delete_at: null },
      'delete_at must be set if trash_at is set, and must be null otherwise',
    ],
    [
      'delete_at cleared on a trashed object',
      trashed,
      { delete_at: null },
      'delete_at must be set if trash_at is set, and must be null otherwise',
    ],
    [
      'delete_at < trash_at',
      null,
      { trash_at: MUCH_LATER, delete_at: LATER },
      'delete_at must not be earlier than trash_at',
    ],
    [
      'delete_at < trash_at stored as now',
      live,
      { trash_at: EARLIER, delete_at: EARLIER },
      'delete_at must not be earlier than trash_at',
    ],
  ])('refuses %s: 422', (_rule, current, input, message) => {
    let error: unknown;
    try {
      save(current, input);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UnprocessableError);
    expect((error as UnprocessableError).messages).toEqual([message]);
  });
});

describe('is_trashed (groups.md table: trash_at ≠ null and trash_at ≤ now)', () => {
  it.each<[string | null, boolean]>([
    [null, false],
    [EARLIER, true],
    [NOW, true],
    ['2024-05-01T12:00:00.000000000Z', true],
    [LATER, false],
  ])('trash_at %p at now: %p', (trashAt, expected) => {
    expect(isTrashedAt({ trash_at: trashAt }, NOW)).toBe(expected);
  });
});
