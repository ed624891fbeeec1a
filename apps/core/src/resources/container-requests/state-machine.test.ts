import { alwaysProblems, forbiddenChanges, isChange, transitionProblem } from './state-machine';

describe('request transitions (containers.md §5)', () => {
  it.each([
    ['Uncommitted', 'Committed', null],
    ['Committed', 'Final', null],
    ['Uncommitted', 'Uncommitted', null],
    ['Uncommitted', 'Final', 'State cannot change from Uncommitted to Final'],
    ['Committed', 'Uncommitted', 'State cannot change from Committed to Uncommitted'],
    ['Final', 'Committed', 'State cannot change from Final to Committed'],
    ['Final', 'Uncommitted', 'State cannot change from Final to Uncommitted'],
  ])('%s → %s', (from, to, problem) => expect(transitionProblem(from, to)).toBe(problem));
});

describe('what counts as a change', () => {
  it('treats null, [] and {} alike, and ignores key order', () => {
    expect(isChange('properties', null, {})).toBe(false);
    expect(isChange('output_storage_classes', [], null)).toBe(false);
    expect(isChange('mounts', { a: { x: 1, y: 2 } }, { a: { y: 2, x: 1 } })).toBe(false);
    expect(isChange('mounts', { a: { x: 1 } }, { a: { x: 2 } })).toBe(true);
  });

  it('compares constraints after defaults are filled in', () => {
    const stored = { API: false, keep_cache_disk: 0, keep_cache_ram: 0, ram: 1000000, vcpus: 1 };
    expect(isChange('runtime_constraints', stored, { ram: 1000000, vcpus: 1 })).toBe(false);
    expect(isChange('runtime_constraints', stored, { ram: 2000000, vcpus: 1 })).toBe(true);
    expect(
      isChange(
        'scheduling_parameters',
        { partitions: [], preemptible: false, max_run_time: 0, supervisor: false },
        {},
      ),
    ).toBe(false);
  });
});

describe('settable fields per state', () => {
  const stored = {
    state: 'Committed',
    name: null,
    priority: 1,
    command: ['a'],
    container_uuid: 'k',
    log_uuid: null,
  };
  it('lets a Committed request change only priority, container_count_max and container_uuid', () => {
    expect(
      forbiddenChanges('Committed', stored, { priority: 5, container_count_max: 2 }, false),
    ).toEqual([]);
    expect(forbiddenChanges('Committed', stored, { name: 'x', command: ['b'] }, false)).toEqual([
      "name cannot be modified in state 'Committed'",
      "command cannot be modified in state 'Committed'",
    ]);
    expect(forbiddenChanges('Committed', stored, { command: ['a'], name: null }, false)).toEqual(
      [],
    );
  });

  it('lets only admins point a request at a container', () => {
    expect(forbiddenChanges('Committed', stored, { container_uuid: null }, false)).toEqual([]);
    expect(forbiddenChanges('Committed', stored, { container_uuid: 'other' }, false)).toEqual([
      'container_uuid can only be updated to null',
    ]);
    expect(forbiddenChanges('Committed', stored, { container_uuid: 'other' }, true)).toEqual([]);
    expect(
      forbiddenChanges('Uncommitted', { container_uuid: null }, { container_uuid: 'k' }, true),
    ).toEqual(["container_uuid cannot be modified in state 'Uncommitted'"]);
  });

  it('lets a Final request change name, description and properties only', () => {
    const final = { ...stored, state: 'Final' };
    expect(
      forbiddenChanges('Final', final, { name: 'n', description: 'd', properties: { a: 1 } }, true),
    ).toEqual([]);
    expect(forbiddenChanges('Final', final, { priority: 2 }, true)).toEqual([
      "priority cannot be modified in state 'Final'",
    ]);
  });

  it('refuses server fields, and requesting_container_uuid with its own message', () => {
    expect(
      forbiddenChanges(
        'Uncommitted',
        { log_uuid: null },
        { log_uuid: 'x', cumulative_cost: 3 },
        true,
      ),
    ).toEqual([
      "log_uuid cannot be modified in state 'Uncommitted'",
      "cumulative_cost cannot be modified in state 'Uncommitted'",
    ]);
    expect(
      forbiddenChanges(
        'Committed',
        { requesting_container_uuid: 'p' },
        { requesting_container_uuid: 'p' },
        false,
      ),
    ).toEqual([]);
    expect(
      forbiddenChanges(
        'Committed',
        { requesting_container_uuid: 'p' },
        { requesting_container_uuid: 'q' },
        true,
      ),
    ).toEqual(['requesting_container_uuid cannot be set by clients']);
  });
});

describe('rules that always hold (§2)', () => {
  const valid = {
    state: 'Uncommitted',
    command: ['a'],
    environment: {},
    priority: 0,
    output_ttl: 0,
    container_count_max: 3,
    output_name: null,
  };
  it('accepts a valid request', () => expect(alwaysProblems(valid)).toEqual([]));
  it.each([
    [{ state: 'Running' }, 'state must be one of Uncommitted, Committed, Final'],
    [{ command: [] }, 'command must be a non-empty array of strings'],
    [{ environment: { '': 'x' } }, "environment key '' is invalid"],
    [{ environment: { 'A=B': 'x' } }, "environment key 'A=B' is invalid"],
    [{ environment: { 'A\u0000': 'x' } }, "environment key 'A\u0000' is invalid"],
    [{ environment: { A: 1 } }, "environment value for 'A' must be a string"],
    [{ environment: { A: 'x\u0000' } }, "environment value for 'A' must be a string"],
    [{ priority: 1001 }, 'priority must be an integer between 0 and 1000'],
    [{ priority: -1 }, 'priority must be an integer between 0 and 1000'],
    [{ priority: null, state: 'Committed' }, "priority can't be null when state is Committed"],
    [{ output_ttl: -1 }, 'output_ttl must be an integer >= 0'],
    [{ output_ttl: 2147483648 }, 'output_ttl must be an integer >= 0'],
    [{ container_count_max: 0 }, 'container_count_max must be an integer between 1 and 10'],
    [{ container_count_max: 11 }, 'container_count_max must be an integer between 1 and 10'],
    [{ output_name: 'x'.repeat(256) }, 'output_name is too long (maximum is 255 characters)'],
  ])('%j → %s', (change, message) => {
    expect(alwaysProblems({ ...valid, ...change })).toEqual([message]);
  });
  it('lets priority be null outside Committed', () => {
    expect(alwaysProblems({ ...valid, priority: null })).toEqual([]);
  });
});
