import { containerMsg as m } from '@svc/contract';
import { canonicalJson } from '../../container-lifecycle/canonical';
import { RUNTIME_CONSTRAINTS, SCHEDULING_PARAMETERS, withDefaults } from './constraints';

/**
 * The container request state machine (containers.md §1, §5), pure: which transitions exist,
 * which fields a client may change in which state, and when a field counts as changed.
 */

export const REQUEST_STATES = ['Uncommitted', 'Committed', 'Final'] as const;
export type RequestState = (typeof REQUEST_STATES)[number];

const U = 'Uncommitted';
const C = 'Committed';
const F = 'Final';

/** The "Settable" column of §1; fields not listed here are set by the server only. */
const SETTABLE: Readonly<Record<string, readonly RequestState[]>> = {
  name: [U, F],
  description: [U, F],
  properties: [U, F],
  owner_uuid: [U],
  command: [U],
  container_image: [U],
  cwd: [U],
  output_path: [U],
  environment: [U],
  mounts: [U],
  secret_mounts: [U],
  runtime_constraints: [U],
  scheduling_parameters: [U],
  priority: [U, C],
  container_count_max: [U, C],
  container_uuid: [C],
  use_existing: [U],
  output_name: [U],
  output_ttl: [U],
  output_storage_classes: [U],
  output_properties: [U],
  runtime_token: [U],
  expires_at: [U],
  filters: [U],
};

/** Fields the state machine itself governs, never "modified" in the §1 sense. */
const NOT_FIELDS = new Set(['state', 'uuid']);

const TRANSITIONS = new Set([`${U}>${C}`, `${C}>${F}`]);

/** null, [] and {} are one value; hashes compare without key order. */
function normalised(field: string, v: unknown): string {
  if (v === undefined || v === null) return 'null';
  if (Array.isArray(v) && v.length === 0) return 'null';
  if (typeof v === 'object' && !Array.isArray(v)) {
    const hash = v as Record<string, unknown>;
    if (field === 'runtime_constraints')
      return canonicalJson(withDefaults(RUNTIME_CONSTRAINTS, hash));
    if (field === 'scheduling_parameters')
      return canonicalJson(withDefaults(SCHEDULING_PARAMETERS, hash));
    if (Object.keys(hash).length === 0) return 'null';
  }
  return canonicalJson(v);
}

/** Does `next` differ from `stored` in the sense of §5? */
export const isChange = (field: string, stored: unknown, next: unknown): boolean =>
  normalised(field, stored) !== normalised(field, next);

/** 422 text for a state change that is not in the table, or null. */
export function transitionProblem(from: string, to: string): string | null {
  if (from === to || TRANSITIONS.has(`${from}>${to}`)) return null;
  return m.stateChange(from, to);
}

/**
 * The fields of `input` that change the stored row although the request's state does not let
 * the client change them. `isAdmin` matters for container_uuid only.
 */
export function forbiddenChanges(
  state: string,
  stored: Readonly<Record<string, unknown>>,
  input: Readonly<Record<string, unknown>>,
  isAdmin: boolean,
): string[] {
  const problems: string[] = [];
  for (const [field, value] of Object.entries(input)) {
    if (NOT_FIELDS.has(field) || !isChange(field, stored[field], value)) continue;
    if (field === 'requesting_container_uuid') {
      problems.push(m.requestingContainerSet());
      continue;
    }
    const states = SETTABLE[field] ?? [];
    if (!states.includes(state as RequestState)) {
      problems.push(m.cannotModify(field, state));
    } else if (field === 'container_uuid' && value !== null && !isAdmin) {
      problems.push(m.containerUuidOnlyNull());
    }
  }
  return problems;
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

function environmentProblems(env: unknown): string[] {
  if (typeof env !== 'object' || env === null) return [];
  const problems: string[] = [];
  for (const [k, v] of Object.entries(env)) {
    if (k === '' || k.includes('=') || k.includes('\0')) problems.push(m.environmentKey(k));
    else if (typeof v !== 'string' || v.includes('\0')) problems.push(m.environmentValue(k));
  }
  return problems;
}

/** The rules of §2 marked "always", on the request as it would be stored. */
export function alwaysProblems(row: Readonly<Record<string, unknown>>): string[] {
  const problems: string[] = [];
  const state = row['state'];
  if (!REQUEST_STATES.includes(state as RequestState)) problems.push(m.stateOneOf());
  const command = row['command'];
  if (command !== null && !(Array.isArray(command) && command.length > 0))
    problems.push(m.command());
  problems.push(...environmentProblems(row['environment']));
  const priority = row['priority'];
  if (priority !== null && !(isInt(priority) && priority >= 0 && priority <= 1000))
    problems.push(m.priorityRange());
  if (priority === null && state === C) problems.push(m.priorityNullWhenCommitted());
  const ttl = row['output_ttl'];
  if (!(isInt(ttl) && ttl >= 0 && ttl <= 2147483647)) problems.push(m.outputTtl());
  const max = row['container_count_max'];
  if (!(isInt(max) && max >= 1 && max <= 10)) problems.push(m.containerCountMax());
  const name = row['output_name'];
  if (typeof name === 'string' && name.length > 255) problems.push(m.outputNameTooLong());
  return problems;
}
