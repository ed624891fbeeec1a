import {
  inputMode,
  msg,
  parseTimestampInput,
  validateAttributes,
  type ResourceSpec,
} from '@svc/contract';
import { UnprocessableError } from '@svc/errors';
import type { Call } from '../../call';

/** The attributes a create or update carries (the gateway unwrapped them from the body). */
export function extractAttributes(call: Call): Record<string, unknown> {
  const attrs = call.options['attributes'];
  return attrs !== null && typeof attrs === 'object'
    ? { ...(attrs as Record<string, unknown>) }
    : {};
}

const isBlank = (v: unknown): boolean => v === undefined || v === null || v === '';

/** Every rule a create or update body breaks, before any resource rule runs. */
function genericProblems(
  call: Call,
  r: ResourceSpec,
  attrs: Record<string, unknown>,
  mode: 'create' | 'update',
  currentUuid?: string,
): string[] {
  const problems: string[] = [];
  // A blank required attribute is reported as blank, not also as of the wrong type.
  const blankRequired = (name: string) =>
    mode === 'create' && r.attributes[name]?.required === true && isBlank(attrs[name]);
  const typed = Object.fromEntries(Object.entries(attrs).filter(([name]) => !blankRequired(name)));
  try {
    validateAttributes(r, typed);
  } catch (e) {
    if (!(e instanceof UnprocessableError)) throw e;
    problems.push(...e.messages);
  }
  if (mode === 'create') {
    for (const [name, spec] of Object.entries(r.attributes)) {
      if (spec.required && isBlank(attrs[name])) problems.push(msg.cantBeBlank(name));
    }
  }
  const uuid = attrs['uuid'];
  if (uuid !== undefined && uuid !== null) {
    if (mode === 'update') {
      if (uuid !== currentUuid) problems.push(msg.uuidChangeNotPermitted());
    } else if (!call.caller.isAdmin) {
      problems.push(msg.uuidAssignmentNotPermitted());
    } else if (
      typeof uuid === 'string' &&
      !new RegExp(`^[0-9a-z]{5}-${r.infix}-[0-9a-z]{15}$`).test(uuid)
    ) {
      problems.push(msg.invalidUuidForKind(uuid, r.kind));
    }
  }
  return problems;
}

/**
 * Checks a body against the schema (422 listing every failed rule) and returns the attributes
 * the write uses: `rw` and `hook` ones, datetimes in canonical form.
 */
export function checkedInput(
  call: Call,
  r: ResourceSpec,
  attrs: Record<string, unknown>,
  mode: 'create' | 'update',
  currentUuid?: string,
): Record<string, unknown> {
  const problems = genericProblems(call, r, attrs, mode, currentUuid);
  if (problems.length > 0) throw new UnprocessableError(problems);
  const input: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(attrs)) {
    const spec = r.attributes[name];
    if (!spec || inputMode(spec) === 'ignored') continue;
    if (name === 'uuid' && mode === 'update') continue;
    input[name] =
      spec.type === 'datetime' && typeof value === 'string' ? parseTimestampInput(value) : value;
  }
  return input;
}
