import { moreMsg } from '@svc/contract';

/** Credential classes svc checks itself (docs/api/more-resources.md §7.1); others are free text. */
const RESERVED_PREFIX = 'svc:';
const AWS = 'svc:aws_access_key';
const RESERVED = [AWS];
const S3_SCOPE = /^s3:\/\/(\*|[a-z0-9][-.a-z0-9]{1,61}[a-z0-9])$/;

/** Every problem of a credential's class and scopes, for one 422 with the other failures. */
export function classProblems(klass: unknown, scopes: unknown): string[] {
  if (typeof klass !== 'string' || klass.trim() === '') return [];
  if (klass.startsWith(RESERVED_PREFIX)) {
    if (!RESERVED.includes(klass)) return [moreMsg.classNotImplemented(klass)];
  } else if (RESERVED.includes(`${RESERVED_PREFIX}${klass}`)) {
    return [moreMsg.classConflicts(klass)];
  }
  if (klass !== AWS || !Array.isArray(scopes)) return [];
  if (scopes.length === 0) return [moreMsg.awsScopesBlank()];
  const bad = scopes.filter((s) => typeof s !== 'string' || !S3_SCOPE.test(s)).map(String);
  return bad.length > 0 ? [moreMsg.awsScopesInvalid(bad)] : [];
}
