import { containerMsg as m } from '@svc/contract';

/**
 * Mount validation (containers.md §3), pure: each function returns the problems it finds, in
 * the contract's words. `mounts` and `secret_mounts` share the rules with the differences the
 * contract lists.
 */

type KeyType = 'string' | 'boolean' | 'integer' | 'any';

const KIND_KEYS: Readonly<Record<string, Readonly<Record<string, KeyType>>>> = {
  collection: {
    portable_data_hash: 'string',
    uuid: 'string',
    path: 'string',
    writable: 'boolean',
    exclude_from_output: 'boolean',
  },
  tmp: { capacity: 'integer', device_type: 'string', exclude_from_output: 'boolean' },
  keep: { exclude_from_output: 'boolean' },
  git_tree: { uuid: 'string', commit: 'string', path: 'string' },
  file: { path: 'string' },
  json: { content: 'any' },
  text: { content: 'string' },
};

const DEVICE_TYPES = ['ram', 'ssd', 'disk', 'network'];
const STREAMS = ['stdin', 'stdout', 'stderr'];
const STDIN_KINDS = ['collection', 'file', 'json', 'text'];
const SECRET_KINDS = ['json', 'text'];

export type Mount = Record<string, unknown>;
export type Mounts = Record<string, unknown>;

const isHash = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Values that count as "not given" for a key the kind does not take. */
function isEmptyValue(v: unknown): boolean {
  if (v === null || v === false || v === 0 || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  return isHash(v) && Object.keys(v).length === 0;
}

function hasType(v: unknown, type: KeyType): boolean {
  switch (type) {
    case 'string':
      return typeof v === 'string';
    case 'boolean':
      return typeof v === 'boolean';
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v) && v >= 0;
    case 'any':
      return true;
  }
}

/** An absolute path without empty, `.` or `..` segments, and not `/` itself. */
export function isAbsoluteTarget(t: string): boolean {
  if (!t.startsWith('/') || t === '/') return false;
  return t
    .slice(1)
    .split('/')
    .every((s) => s !== '' && s !== '.' && s !== '..');
}

function targetProblem(field: string, t: string): string | null {
  const stream = field === 'secret_mounts' ? t === 'stdin' : STREAMS.includes(t);
  return stream || isAbsoluteTarget(t) ? null : m.invalidTarget(field, t);
}

function keyProblems(field: string, t: string, kind: string, mount: Mount): string[] {
  const allowed = KIND_KEYS[kind]!;
  const problems: string[] = [];
  for (const [key, value] of Object.entries(mount)) {
    if (key === 'kind') continue;
    const type = allowed[key];
    if (type === undefined) {
      if (!isEmptyValue(value)) problems.push(m.unsupportedKey(field, t, key, kind));
    } else if (!hasType(value, type)) {
      problems.push(m.incompatibleType(field, t, key, type));
    }
  }
  return problems;
}

function kindRuleProblems(field: string, t: string, kind: string, mount: Mount): string[] {
  const problems: string[] = [];
  const device = mount['device_type'];
  if (kind === 'tmp' && typeof device === 'string' && !DEVICE_TYPES.includes(device)) {
    problems.push(m.unsupportedValue(field, t, 'device_type', device));
  }
  if (kind === 'git_tree') {
    const commit = mount['commit'];
    if (typeof commit !== 'string' || !/^[0-9a-f]{40}$/.test(commit))
      problems.push(m.gitCommit(field, t));
    const path = mount['path'];
    if (typeof path === 'string' && path !== '/') problems.push(m.gitPath(field, t));
  }
  return problems;
}

/** The kinds a target takes, when narrower than every kind. */
function kindAllowedAt(field: string, t: string, kind: string): boolean {
  if (field === 'secret_mounts') return SECRET_KINDS.includes(kind);
  if (t === 'stdout' || t === 'stderr') return kind === 'file';
  if (t === 'stdin') return STDIN_KINDS.includes(kind);
  return true;
}

function mountProblems(field: string, t: string, mount: unknown): string[] {
  const target = targetProblem(field, t);
  if (target) return [target];
  if (!isHash(mount)) return [m.mountNotHash(field, t)];
  const kind = mount['kind'];
  if (typeof kind !== 'string' || !(kind in KIND_KEYS) || !kindAllowedAt(field, t, kind)) {
    return [m.unsupportedValue(field, t, 'kind', kind ?? '')];
  }
  return [...keyProblems(field, t, kind, mount), ...kindRuleProblems(field, t, kind, mount)];
}

/** Rules that hold whenever `mounts` or `secret_mounts` is set. */
export function mountsProblems(mounts: Mounts, secretMounts: Mounts): string[] {
  const problems: string[] = [];
  for (const [t, mount] of Object.entries(mounts))
    problems.push(...mountProblems('mounts', t, mount));
  for (const [t, mount] of Object.entries(secretMounts)) {
    problems.push(...mountProblems('secret_mounts', t, mount));
    if (t in mounts) problems.push(m.secretConflict(t));
  }
  return problems;
}

const isInside = (path: string, target: string): boolean =>
  path === target || path.startsWith(`${target}/`);

/** `file` mounts name a path inside another mount target (checked on commit). */
function fileProblems(field: string, mounts: Mounts, allTargets: readonly string[]): string[] {
  const problems: string[] = [];
  for (const [t, mount] of Object.entries(mounts)) {
    if (!isHash(mount) || mount['kind'] !== 'file') continue;
    const path = mount['path'];
    const others = allTargets.filter((o) => o !== t && o.startsWith('/'));
    if (typeof path !== 'string' || !others.some((o) => isInside(path, o))) {
      problems.push(m.fileOutside(field, t));
    }
  }
  return problems;
}

/** Below a local-disk `tmp` output directory only collection mounts may sit (output rule 1). */
function belowOutputProblems(mounts: Mounts, outputPath: unknown): string[] {
  if (typeof outputPath !== 'string') return [];
  const out = mounts[outputPath];
  const localDisk =
    isHash(out) && out['kind'] === 'tmp' && ['disk', 'ssd'].includes(String(out['device_type']));
  if (!localDisk) return [];
  return Object.entries(mounts)
    .filter(
      ([t, mount]) =>
        t.startsWith(`${outputPath}/`) && !(isHash(mount) && mount['kind'] === 'collection'),
    )
    .map(([t]) => m.belowOutputPath(t));
}

/** The further rules checked when a request is committed. */
export function commitMountsProblems(
  mounts: Mounts,
  secretMounts: Mounts,
  outputPath: unknown,
): string[] {
  const targets = [...Object.keys(mounts), ...Object.keys(secretMounts)];
  return [
    ...fileProblems('mounts', mounts, targets),
    ...fileProblems('secret_mounts', secretMounts, targets),
    ...belowOutputProblems(mounts, outputPath),
  ];
}

/** `output_path` names a mount target. */
export const outputPathProblems = (mounts: Mounts, outputPath: unknown): string[] =>
  typeof outputPath === 'string' && outputPath in mounts ? [] : [m.outputPathNotMount()];
