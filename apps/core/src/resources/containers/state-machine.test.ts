import { changeableFields, transitionProblem, updateProblems } from './state-machine';

describe('container transitions by update (containers.md §9)', () => {
  it.each([
    ['Queued', 'Cancelled', null],
    ['Locked', 'Running', null],
    ['Locked', 'Cancelled', null],
    ['Running', 'Complete', null],
    ['Running', 'Cancelled', null],
    ['Complete', 'Cancelled', null],
    ['Queued', 'Locked', 'State cannot change from Queued to Locked'],
    ['Locked', 'Queued', 'State cannot change from Locked to Queued'],
    ['Queued', 'Running', 'State cannot change from Queued to Running'],
    ['Running', 'Locked', 'State cannot change from Running to Locked'],
    ['Complete', 'Running', 'State cannot change from Complete to Running'],
    ['Cancelled', 'Queued', 'State cannot change from Cancelled to Queued'],
    ['Cancelled', 'Complete', 'State cannot change from Cancelled to Complete'],
  ])('%s → %s', (from, to, problem) => expect(transitionProblem(from, to)).toBe(problem));
});

describe('fields per state', () => {
  it('follows the table', () => {
    expect(changeableFields('Queued', 'Queued')).toEqual([]);
    expect(changeableFields('Locked', 'Locked')).toEqual(['runtime_status', 'log']);
    expect(changeableFields('Queued', 'Cancelled')).toEqual(['log', 'runtime_status', 'cost']);
    expect(changeableFields('Running', 'Cancelled')).toContain('output');
    expect(changeableFields('Complete', 'Cancelled')).toEqual([]);
  });

  const running = {
    state: 'Running',
    progress: 0,
    exit_code: null,
    priority: 5,
    runtime_status: {},
  };
  it('refuses other fields with the state after the update', () => {
    expect(
      updateProblems(
        running,
        { ...running, state: 'Complete', exit_code: 0 },
        { state: 'Complete', exit_code: 0, priority: 9 },
      ),
    ).toEqual(["priority cannot be modified in state 'Complete'"]);
    expect(
      updateProblems(running, { ...running, progress: 0.5 }, { progress: 0.5, priority: 5 }),
    ).toEqual([]);
  });

  it('needs exit_code for Complete and string status texts', () => {
    expect(
      updateProblems(running, { ...running, state: 'Complete' }, { state: 'Complete' }),
    ).toEqual(['exit_code must be set when state is Complete']);
    const status = { error: 1, activity: 'running', other: 5 };
    expect(
      updateProblems(running, { ...running, runtime_status: status }, { runtime_status: status }),
    ).toEqual(['runtime_status [error] must be a string']);
  });

  it('refuses unknown states', () => {
    expect(updateProblems(running, { ...running, state: 'Done' }, { state: 'Done' })).toEqual([
      'state must be one of Queued, Locked, Running, Complete, Cancelled',
    ]);
  });
});
