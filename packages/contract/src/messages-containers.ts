/**
 * The messages of container requests and containers (containers.md), each defined once as a
 * function of its `<...>` parts. HTTP tests assert these texts literally.
 */
const json = (v: unknown): string => JSON.stringify(v) ?? 'null';

export const containerMsg = {
  // §2 validation
  stateOneOf: () => 'state must be one of Uncommitted, Committed, Final',
  containerStateOneOf: () => 'state must be one of Queued, Locked, Running, Complete, Cancelled',
  command: () => 'command must be a non-empty array of strings',
  environmentKey: (k: string) => `environment key '${k}' is invalid`,
  environmentValue: (k: string) => `environment value for '${k}' must be a string`,
  priorityRange: () => 'priority must be an integer between 0 and 1000',
  priorityNullWhenCommitted: () => "priority can't be null when state is Committed",
  outputTtl: () => 'output_ttl must be an integer >= 0',
  containerCountMax: () => 'container_count_max must be an integer between 1 and 10',
  outputNameTooLong: () => 'output_name is too long (maximum is 255 characters)',
  outputPathNotMount: () => 'output_path must be a mount target',
  notPositive: (key: string, v: unknown) =>
    `runtime_constraints [${key}]=${json(v)} must be a positive integer`,
  runtimeTokenInvalid: () => 'runtime_token failed validation',
  requestingContainerSet: () => 'requesting_container_uuid cannot be set by clients',
  imageNotFound: (x: string) => `container_image "${x}" not found`,
  mountCollectionNotFound: (uuid: string) => `cannot mount collection "${uuid}": not found`,
  // §3 mounts
  invalidTarget: (field: string, t: string) =>
    `${field} [${t}]: invalid target: must be stdin, stdout, stderr or an absolute path`,
  mountNotHash: (field: string, t: string) => `${field} [${t}]: must be a hash`,
  unsupportedValue: (field: string, t: string, key: string, v: unknown) =>
    `${field} [${t}][${key}]: unsupported value "${typeof v === 'string' ? v : json(v)}"`,
  incompatibleType: (field: string, t: string, key: string, type: string) =>
    `${field} [${t}][${key}]: incompatible value type: ${type} required`,
  unsupportedKey: (field: string, t: string, key: string, kind: string) =>
    `${field} [${t}][${key}]: parameter is not supported for a ${kind} mount`,
  gitCommit: (field: string, t: string) =>
    `${field} [${t}][commit]: must be a full 40-character commit hash`,
  gitPath: (field: string, t: string) => `${field} [${t}][path]: must be "/"`,
  fileOutside: (field: string, t: string) =>
    `${field} [${t}][path]: must be inside another mount target`,
  belowOutputPath: (t: string) =>
    `mounts [${t}]: only collection mounts may be placed below output_path`,
  secretConflict: (t: string) => `secret_mounts [${t}]: conflict with non-secret mounts`,
  // §4 runtime constraints, scheduling parameters
  unsupportedHashKey: (field: string, k: string) => `${field}: unsupported key '${k}'`,
  hashKeyType: (field: string, k: string, type: string) => `${field} [${k}] must be ${type}`,
  // §5, §9 states
  stateChange: (from: string, to: string) => `State cannot change from ${from} to ${to}`,
  cannotModify: (field: string, state: string) => `${field} cannot be modified in state '${state}'`,
  containerUuidOnlyNull: () => 'container_uuid can only be updated to null',
  // §9 containers
  exitCodeRequired: () => 'exit_code must be set when state is Complete',
  collectionMustExist: (field: string) =>
    `${field} collection must exist and be readable by current user`,
  runtimeStatusString: (k: string) => `runtime_status [${k}] must be a string`,
  // §12 dispatch
  cannotLock: (state: string) => `cannot lock when ${state}`,
  cannotLockPriority: () => 'cannot lock when priority<=0',
  cannotUnlock: (state: string) => `cannot unlock when ${state}`,
  lockedByOther: () => 'Forbidden: locked by a different token',
  dispatchAttempts: (n: number | bigint) =>
    `Failed to start container. Cancelled after exceeding 'Containers.MaxDispatchAttempts' (lock_count=${n})`,
  notContainerToken: () => 'Token is not associated with a container.',
};
