import { containerMsg as m } from '@svc/contract';
import { sameJson } from '../../container-lifecycle/canonical';

/**
 * The container state machine (containers.md §9), pure: which states an update may move a
 * container between, and which fields it may change on the way.
 */

export const CONTAINER_STATES = ['Queued', 'Locked', 'Running', 'Complete', 'Cancelled'] as const;

/** Moves an update may make; Queued ↔ Locked happen only through lock and unlock (§12). */
const BY_UPDATE: Readonly<Record<string, readonly string[]>> = {
  Queued: ['Cancelled'],
  Locked: ['Running', 'Cancelled'],
  Running: ['Complete', 'Cancelled'],
  Complete: ['Cancelled'],
  Cancelled: [],
};

const RUNNING_FIELDS = [
  'progress',
  'runtime_status',
  'log',
  'output',
  'exit_code',
  'cost',
  'subrequests_cost',
  'output_properties',
];

/** The fields an update ending in state `to` (from `from`) may change. */
export function changeableFields(from: string, to: string): readonly string[] {
  switch (to) {
    case 'Locked':
      return ['runtime_status', 'log'];
    case 'Running':
      return RUNNING_FIELDS;
    case 'Complete':
      return from === 'Running' ? RUNNING_FIELDS : [];
    case 'Cancelled':
      if (from === 'Running') return RUNNING_FIELDS;
      return from === 'Queued' || from === 'Locked' ? ['log', 'runtime_status', 'cost'] : [];
    default:
      return [];
  }
}

/**
 * What the container's own token may change, and only while Running (§9): its progress, and
 * the output a process that assembles its own (a workflow runner) sets.
 */
export const OWN_TOKEN_FIELDS = [
  'progress',
  'runtime_status',
  'output',
  'output_properties',
  'exit_code',
  'cost',
  'subrequests_cost',
];

/** Fields of `input` whose value differs from the stored one (key order ignored). */
export const changedFields = (
  stored: Readonly<Record<string, unknown>>,
  input: Readonly<Record<string, unknown>>,
): string[] =>
  Object.keys(input).filter(
    (k) => k !== 'state' && k !== 'uuid' && !sameJson(stored[k] ?? null, input[k] ?? null),
  );

export function transitionProblem(from: string, to: string): string | null {
  if (from === to || BY_UPDATE[from]?.includes(to)) return null;
  return m.stateChange(from, to);
}

const STRING_STATUS_KEYS = ['error', 'errorDetail', 'warning', 'warningDetail', 'activity'];

/** Per-state rules of an update (§9), on the container as it would be stored. */
export function updateProblems(
  stored: Readonly<Record<string, unknown>>,
  next: Readonly<Record<string, unknown>>,
  input: Readonly<Record<string, unknown>>,
): string[] {
  const from = String(stored['state']);
  const to = String(next['state']);
  if (!CONTAINER_STATES.includes(to as never)) return [m.containerStateOneOf()];
  const transition = transitionProblem(from, to);
  if (transition) return [transition];
  const allowed = changeableFields(from, to);
  const problems = changedFields(stored, input)
    .filter((f) => !allowed.includes(f))
    .map((f) => m.cannotModify(f, to));
  problems.push(...runtimeStatusProblems(next['runtime_status']));
  if (to === 'Complete' && (next['exit_code'] === null || next['exit_code'] === undefined)) {
    problems.push(m.exitCodeRequired());
  }
  return problems;
}

export function runtimeStatusProblems(status: unknown): string[] {
  if (typeof status !== 'object' || status === null) return [];
  return STRING_STATUS_KEYS.filter((k) => {
    const v = (status as Record<string, unknown>)[k];
    return v !== undefined && typeof v !== 'string';
  }).map((k) => m.runtimeStatusString(k));
}
