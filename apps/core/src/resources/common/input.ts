import {
  camelSingular,
  inputMode,
  msg,
  parseTimestampInput,
  toObject,
  validateAttributes,
  type ResourceSpec,
} from '@svc/contract';
import { UnprocessableError } from '@svc/errors';
import type { Call } from '../../call';

/** Names that are never attributes of a bare body, whatever the method. */
const GENERAL_PARAMS = new Set([
  '_method',
  'alt',
  'fields',
  'key',
  'oauth_token',
  'api_token',
  'forwarded_for',
  'remote',
]);

/**
 * The attributes of a create or update (requests-and-errors.md §4): the `<singular>` (or
 * camelCase) wrapper, else every top-level key of a JSON body that is not a parameter.
 */
export function extractAttributes(call: Call, r: ResourceSpec): Record<string, unknown> {
  for (const key of [r.singular, camelSingular(r)]) {
    if (!(key in call.params)) continue;
    const wrapped = toObject(call.params[key]);
    if (wrapped === undefined) throw new UnprocessableError(msg.noWrapperHash(r.singular));
    return { ...wrapped };
  }
  const attrs: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(call.jsonBody ?? {})) {
    if (key in call.endpoint.params || GENERAL_PARAMS.has(key)) continue;
    attrs[key] = value;
  }
  return attrs;
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
