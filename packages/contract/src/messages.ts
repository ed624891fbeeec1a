/**
 * The contract's messages, each defined once as a function of its `<...>` parts.
 * HTTP tests assert these texts literally.
 */
const json = (v: unknown): string => JSON.stringify(v) ?? 'undefined';

export const msg = {
  // requests-and-errors.md §3
  invalidParamValue: (name: string) => `Invalid value for ${name} parameter`,
  notABoolean: (name: string) => `${name} parameter must be a boolean, true or false`,
  notAnArray: (name: string) => `Could not parse "${name}" param as an array`,
  noWrapperHash: (singular: string) => `No ${singular} hash provided with request`,
  whereNotObject: () => 'Could not parse "where" param as an object',
  bodyNotJsonObject: () => 'Could not parse request body as a JSON object',
  // Not in the contract's tables: input that would nest beyond what the server stores or
  // reads back (a 422 like any invalid input, requests-and-errors.md §7).
  nestedTooDeeply: (name: string, max: number) =>
    `${name} is nested too deeply (at most ${max} levels)`,
  // Not in the contract's tables either: strings PostgreSQL cannot store as given.
  nulCharacter: (name: string) => `${name} must not contain NUL characters`,
  loneSurrogate: (name: string) => `${name} must not contain unpaired surrogates`,
  notFinite: (name: string) => `${name} must not contain numbers out of range`,
  // requests-and-errors.md §4
  unknownAttribute: (name: string, singular: string) =>
    `Unknown attribute '${name}' for ${singular}`,
  uuidAssignmentNotPermitted: () => 'uuid assignment not permitted',
  invalidUuidForKind: (value: string, kind: string) =>
    `uuid '${value}' is not a valid ${kind} uuid`,
  uuidChangeNotPermitted: () => 'uuid change not permitted',
  invalidType: (attr: string, type: string) => `${attr} has an invalid type: ${type} required`,
  cantBeBlank: (attr: string) => `${attr} can't be blank`,
  arrayOfStrings: (attr: string) => `${attr} must be an array of strings`,
  // requests-and-errors.md §9, §11, §12
  referenceNotFound: (attr: string, uuid: string) => `${attr} '${uuid}' not found`,
  invalidSelectAttribute: (name: string) => `Invalid attribute '${name}' in select parameter`,
  emptySelect: () => 'Attribute selection list cannot be empty',
  duplicateName: (singular: string, name: string, owner: string) =>
    `duplicate key value violates unique constraint: ${singular} named '${name}' already exists in '${owner}'`,
  tooLong: (attr: string, max: number) => `${attr} is too long (maximum is ${max} characters)`,
  // lists-and-filters.md §1, §3
  countValue: () => "count parameter must be 'exact' or 'none'",
  invalidOrderAttribute: (entry: string) => `Invalid order attribute '${entry}'`,
  invalidOrderDirection: (entry: string) => `Invalid order direction '${entry}'`,
  // errors table
  notLoggedIn: () => 'Not logged in',
  forbidden: () => 'Forbidden',
  userNotActive: () => 'Forbidden: user is not active',
  insufficientPermission: (uuid: string) => `Forbidden: insufficient permission to modify ${uuid}`,
  objectNotFound: () => 'Object not found',
  noProxyForCluster: (id: string) => `no proxy available for cluster ${id}`,
  // faults and overload (docs/api/requests-and-errors.md §7); the database-unreachable 503 is
  // ServiceUnavailableError's own message
  objectBusy: () => 'Service unavailable: the object is busy, try again',
  listTooSlow: (seconds: number) =>
    `query took longer than ${seconds} s: narrow the filters or use count=none`,
  tooManyFilterConditions: (max: number) => `too many filter conditions (at most ${max})`,
  tooManyTokenRequests: () => 'too many concurrent requests for this token',
  // README, ExternalURL
  misdirectedRequest: () => 'Misdirected request',
  // docs/api/other-resources.md §1 (the details are the manifest parser's, e.g. NUL_IN_NAME)
  invalidManifest: (detail: string) => `manifest_text is not a valid manifest: ${detail}`,
  json,
} as const;
