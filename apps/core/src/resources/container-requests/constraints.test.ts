import {
  commitConstraintProblems,
  hashProblems,
  resolvedConstraints,
  RUNTIME_CONSTRAINTS,
  SCHEDULING_PARAMETERS,
  withDefaults,
} from './constraints';

describe('runtime_constraints (containers.md §4)', () => {
  it('fills the defaults in', () => {
    expect(withDefaults(RUNTIME_CONSTRAINTS, { ram: 1000000, vcpus: 1 })).toEqual({
      API: false,
      keep_cache_disk: 0,
      keep_cache_ram: 0,
      ram: 1000000,
      vcpus: 1,
    });
  });

  it.each([
    [{ gpus: 1 }, "runtime_constraints: unsupported key 'gpus'"],
    [{ ram: -1 }, 'runtime_constraints [ram] must be an integer >= 0'],
    [{ vcpus: 1.5 }, 'runtime_constraints [vcpus] must be an integer >= 0'],
    [{ keep_cache_ram: '1' }, 'runtime_constraints [keep_cache_ram] must be an integer >= 0'],
    [{ API: 'yes' }, 'runtime_constraints [API] must be a boolean'],
  ])('%j → %s', (value, message) => {
    expect(hashProblems(RUNTIME_CONSTRAINTS, value)).toEqual([message]);
  });

  it('needs positive ram and vcpus on commit', () => {
    expect(commitConstraintProblems({ ram: 1, vcpus: 1 })).toEqual([]);
    expect(commitConstraintProblems({ ram: 0 })).toEqual([
      'runtime_constraints [ram]=0 must be a positive integer',
      'runtime_constraints [vcpus]=null must be a positive integer',
    ]);
  });

  it('gives the container a disk cache of ram clamped to [2 GiB, 32 GiB] when none is asked', () => {
    expect(resolvedConstraints({ ram: 300000000, vcpus: 1 })['keep_cache_disk']).toBe(2147483648);
    expect(resolvedConstraints({ ram: 5 * 2 ** 30, vcpus: 1 })['keep_cache_disk']).toBe(
      5 * 2 ** 30,
    );
    expect(resolvedConstraints({ ram: 64 * 2 ** 30, vcpus: 1 })['keep_cache_disk']).toBe(
      32 * 2 ** 30,
    );
    expect(resolvedConstraints({ ram: 1, vcpus: 1, keep_cache_ram: 5 })['keep_cache_disk']).toBe(0);
  });
});

describe('scheduling_parameters', () => {
  it('fills the defaults in and checks types', () => {
    expect(withDefaults(SCHEDULING_PARAMETERS, {})).toEqual({
      partitions: [],
      preemptible: false,
      max_run_time: 0,
      supervisor: false,
    });
    expect(
      hashProblems(SCHEDULING_PARAMETERS, { partitions: ['a', 1], max_run_time: -5, x: 1 }),
    ).toEqual([
      'scheduling_parameters [partitions] must be an array of strings',
      'scheduling_parameters [max_run_time] must be an integer >= 0',
      "scheduling_parameters: unsupported key 'x'",
    ]);
  });
});
