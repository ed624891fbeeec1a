import { containerMsg as m } from '@svc/contract';

/**
 * runtime_constraints and scheduling_parameters (containers.md §4), pure: their keys, types and
 * defaults. The stored value is the submitted hash with every default filled in.
 */

type KeyRule = 'boolean' | 'count' | 'strings';

const RULE_TEXT: Record<KeyRule, string> = {
  boolean: 'a boolean',
  count: 'an integer >= 0',
  strings: 'an array of strings',
};

interface HashSpec {
  field: string;
  keys: Readonly<Record<string, { rule: KeyRule; default: unknown }>>;
}

export const RUNTIME_CONSTRAINTS: HashSpec = {
  field: 'runtime_constraints',
  keys: {
    ram: { rule: 'count', default: 0 },
    vcpus: { rule: 'count', default: 0 },
    keep_cache_ram: { rule: 'count', default: 0 },
    keep_cache_disk: { rule: 'count', default: 0 },
    API: { rule: 'boolean', default: false },
  },
};

export const SCHEDULING_PARAMETERS: HashSpec = {
  field: 'scheduling_parameters',
  keys: {
    partitions: { rule: 'strings', default: [] },
    preemptible: { rule: 'boolean', default: false },
    max_run_time: { rule: 'count', default: 0 },
    supervisor: { rule: 'boolean', default: false },
  },
};

function follows(v: unknown, rule: KeyRule): boolean {
  switch (rule) {
    case 'boolean':
      return typeof v === 'boolean';
    case 'count':
      return typeof v === 'number' && Number.isInteger(v) && v >= 0;
    case 'strings':
      return Array.isArray(v) && v.every((e) => typeof e === 'string');
  }
}

/** Unknown keys and values of the wrong type. */
export function hashProblems(spec: HashSpec, value: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    const rule = spec.keys[key]?.rule;
    if (rule === undefined) problems.push(m.unsupportedHashKey(spec.field, key));
    else if (!follows(v, rule)) problems.push(m.hashKeyType(spec.field, key, RULE_TEXT[rule]));
  }
  return problems;
}

/** The hash with every default filled in (what is stored and rendered). */
export function withDefaults(
  spec: HashSpec,
  value: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, k] of Object.entries(spec.keys)) out[key] = structuredClone(k.default);
  return { ...out, ...value };
}

/** On commit, `ram` and `vcpus` are positive integers. */
export function commitConstraintProblems(rc: Record<string, unknown>): string[] {
  return ['ram', 'vcpus']
    .filter((k) => !(typeof rc[k] === 'number' && Number.isInteger(rc[k]) && (rc[k] as number) > 0))
    .map((k) => m.notPositive(k, rc[k] ?? null));
}

const GIB = 2 ** 30;

/**
 * What the container gets (containers.md §6 step 2): defaults, then, when neither cache size is
 * given, a disk cache of `ram` clamped to [2 GiB, 32 GiB].
 */
export function resolvedConstraints(rc: Record<string, unknown>): Record<string, unknown> {
  const out = withDefaults(RUNTIME_CONSTRAINTS, rc);
  if (out['keep_cache_ram'] === 0 && out['keep_cache_disk'] === 0) {
    out['keep_cache_disk'] = Math.min(32 * GIB, Math.max(2 * GIB, Number(out['ram'])));
  }
  return out;
}
