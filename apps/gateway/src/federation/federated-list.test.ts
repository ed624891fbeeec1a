import { ApiError } from '@svc/errors';
import { keepAsked, mergeItems, planList } from './federated-list';
import type { Topology } from './topology';

const entry = {
  Host: 'x',
  Proxy: true,
  Scheme: 'https' as const,
  Insecure: false,
  ActivateUsers: false,
};
const t: Topology = {
  home: 'home1',
  cores: new Set(['home1']),
  remotes: new Map([['home1', new Map([['rmt02', entry]])]]),
};
const L1 = 'home1-4zz18-000000000000001';
const L2 = 'home1-4zz18-000000000000002';
const R1 = 'rmt02-4zz18-000000000000001';
const plan = (options: Record<string, unknown>, resource = 'collections', max = 1000) =>
  planList(resource, options, t, max);
const refusal = (options: Record<string, unknown>, max = 1000): [number, string] => {
  try {
    plan(options, 'collections', max);
  } catch (e) {
    return [(e as ApiError).status, (e as ApiError).messages[0]!];
  }
  throw new Error('accepted');
};

describe('planList (federation.md §5 steps 1–4)', () => {
  it('fans out uuids grouped by cluster, intersecting uuid filters', () => {
    expect(plan({ filters: [['uuid', 'in', [L1, R1]]], count: 'none' })).toEqual({
      kind: 'fanout',
      byCluster: new Map([
        ['home1', [L1]],
        ['rmt02', [R1]],
      ]),
    });
    expect(
      plan({
        filters: [
          ['uuid', 'in', [L1, R1]],
          ['uuid', 'in', [R1]],
        ],
        count: 'none',
      }),
    ).toEqual({ kind: 'fanout', byCluster: new Map([['rmt02', [R1]]]) });
  });

  it('keeps lists local without uuid filters, with only local uuids, or for other types', () => {
    expect(plan({ filters: [['name', '=', 'x']] })).toEqual({ kind: 'local' });
    expect(plan({ filters: [['uuid', 'in', [L1, L2]]], limit: 1, order: ['name'] })).toEqual({
      kind: 'local',
    });
    expect(plan({ filters: [['uuid', 'in', [R1]]] }, 'logs')).toEqual({ kind: 'local' });
    expect(
      planList('links', { filters: [['uuid', '=', R1]] }, { ...t, remotes: new Map() }, 10),
    ).toEqual({
      kind: 'local',
    });
  });

  it('answers an empty set without contacting anyone (uuids not 27 long dropped)', () => {
    expect(plan({ filters: [['uuid', 'in', []]] })).toEqual({ kind: 'empty' });
    expect(plan({ filters: [['uuid', 'in', ['short', 7]]] })).toEqual({ kind: 'empty' });
  });

  it.each([
    [
      { filters: [['uuid', 'in', 'teapot']] },
      'invalid operand type string in filter ["uuid","in","teapot"]',
    ],
    [{ filters: [['uuid', '=', 5]] }, 'invalid operand type number for filter ["uuid","=",5]'],
    [
      {
        filters: [
          ['uuid', 'in', [L1, R1]],
          ['name', '=', 'x'],
        ],
        count: 'none',
      },
      "cannot execute federated list query: each filter must be either 'uuid = ...' or 'uuid in [...]'",
    ],
    [
      { filters: [['uuid', 'in', [L1, R1]]] },
      'cannot execute federated list query unless count=="none"',
    ],
    [
      { filters: [['uuid', 'in', [L1, R1]]], count: 'none', limit: 5 },
      'cannot execute federated list query with limit (5), offset (0) > 0, or order ([]) parameter',
    ],
    [
      { filters: [['uuid', 'in', [L1, R1]]], count: 'none', offset: 1 },
      'cannot execute federated list query with limit (null), offset (1) > 0, or order ([]) parameter',
    ],
    [
      { filters: [['uuid', 'in', [L1, R1]]], count: 'none', order: ['name'] },
      'cannot execute federated list query with limit (null), offset (0) > 0, or order (["name"]) parameter',
    ],
  ])('refuses %j with 400', (options, message) => {
    expect(refusal(options)).toEqual([400, message]);
  });

  it('refuses more uuids than a page holds, then unknown clusters (404), in that order', () => {
    expect(refusal({ filters: [['uuid', 'in', [L1, R1, L2]]], count: 'none' }, 2)).toEqual([
      400,
      'cannot execute federated list query because number of UUIDs (3) exceeds page size limit 2',
    ]);
    expect(
      refusal({ filters: [['uuid', 'in', [L1, 'zz404-4zz18-000000000000000']]], count: 'none' }),
    ).toEqual([404, 'cannot execute federated list query: no proxy available for cluster "zz404"']);
  });
});

describe('keepAsked and mergeItems (steps 5–6)', () => {
  it('drops items not asked of a cluster, and fails a page with none asked', () => {
    const line = (uuid: string | null) => ({ uuid, modifiedAt: null, json: '{}' });
    expect(keepAsked('rmt02', new Set([R1]), [line(R1), line(L1), line(null)])).toEqual([line(R1)]);
    expect(() => keepAsked('rmt02', new Set([R1]), [line(L1)])).toThrow(
      'cannot make progress in federated list query: cluster "rmt02" returned 1 items but none had the requested UUIDs',
    );
  });

  it('sorts by modified_at descending then uuid when several clusters contributed', () => {
    const a = { uuid: 'b', modifiedAt: '2024-01-01T00:00:00.000000000Z', json: 'a' };
    const b = { uuid: 'a', modifiedAt: '2024-01-01T00:00:00.000000000Z', json: 'b' };
    const c = { uuid: 'c', modifiedAt: '2024-02-01T00:00:00.000000000Z', json: 'c' };
    expect(mergeItems([[a], [b, c]])).toEqual([c, b, a]);
    expect(mergeItems([[a, c], []])).toEqual([a, c]);
  });
});
