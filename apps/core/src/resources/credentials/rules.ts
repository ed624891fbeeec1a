import { builtInUuids, credentials, moreMsg, msg } from '@svc/contract';
import { ForbiddenError } from '@svc/errors';
import { credentialSecretKey, sealTokenSecret } from '@svc/ids';
import type { Call } from '../../call';
import { ensurePermissionLink } from '../../permissions/graph-writes';
import { failIfAny } from '../common/crud';
import type { Row } from '../common/row';
import type { ResourceRules, WriteContext } from '../common/rules';
import { classProblems } from './classes';
import { credentialManager, credentialPolicy } from './policy';
import { secret } from './secret';

const MANAGER = 'credentialManager';

/** The secret sealed for this record: the uuid is the associated data (§7.3). */
const sealed = (call: Call, uuid: string, value: string): string =>
  sealTokenSecret(credentialSecretKey(call.cluster.SystemRootToken), uuid, value);

/** Rules beyond the schema's: on create, absent required fields were reported with it. */
function problems(ctx: WriteContext, row: Row): string[] {
  const blank = (v: unknown) => v === '' || v === null;
  const out: string[] = [];
  for (const name of ['name', 'credential_class', 'external_id', 'expires_at'])
    if (blank(row[name])) out.push(msg.cantBeBlank(name));
  if ('secret' in ctx.input && blank(ctx.input['secret'])) out.push(msg.cantBeBlank('secret'));
  return [...out, ...classProblems(row['credential_class'], row['scopes'])];
}

/** A filter, where key or order entry naming the secret: 403 (docs/api/more-resources.md §7.2). */
function refuseSecretQueries(call: Call): void {
  const names = (v: unknown): string[] => (Array.isArray(v) ? v : []).map((x) => JSON.stringify(x));
  if (names(call.options['filters']).some((f) => f.includes('secret')))
    throw new ForbiddenError(moreMsg.cannotFilterSecret());
  const where = call.options['where'];
  if (
    typeof where === 'object' &&
    where !== null &&
    Object.keys(where).some((k) => k.includes('secret'))
  )
    throw new ForbiddenError(moreMsg.cannotWhereSecret());
  if (names(call.options['order']).some((o) => o.includes('secret')))
    throw new ForbiddenError(moreMsg.cannotOrderSecret());
}

/**
 * Credentials (docs/api/more-resources.md §7): owned by the system user, shared through permission
 * links; the secret is sealed into a column that is no attribute, so nothing that renders,
 * logs or audits attributes can ever see it.
 */
export const credentialRules: ResourceRules = {
  resource: credentials,
  internalColumns: ['secret_ciphertext'],
  guard: refuseSecretQueries,
  policy: credentialPolicy,
  async checkWrite(call, tx, attrs, current) {
    // Only spaces and tabs is blank: the schema's required check then reports it with the rest.
    const name = attrs['name'];
    if (typeof name === 'string' && /^[ \t]*$/.test(name)) (attrs as Row)['name'] = '';
    if (current === null) {
      call.locals[MANAGER] = await credentialManager(call, tx, attrs['owner_uuid']);
    } else if ('owner_uuid' in attrs) {
      if (attrs['owner_uuid'] !== builtInUuids(call.cluster.ClusterID).systemUser)
        failIfAny([moreMsg.credentialOwnerNotSystem()]);
    }
  },
  async prepareCreate(ctx, row) {
    row['owner_uuid'] = builtInUuids(ctx.call.cluster.ClusterID).systemUser;
    row['scopes'] ??= [];
    failIfAny(problems(ctx, row));
    row['secret_ciphertext'] = sealed(ctx.call, String(row['uuid']), String(ctx.input['secret']));
  },
  async prepareUpdate(ctx, current, next) {
    next['scopes'] ??= [];
    failIfAny(problems(ctx, next));
    if (typeof ctx.input['secret'] === 'string')
      next['secret_ciphertext'] = sealed(ctx.call, String(current['uuid']), ctx.input['secret']);
  },
  async afterWrite(ctx, row, previous) {
    if (previous !== null) return;
    const manager = String(ctx.call.locals[MANAGER]);
    await ensurePermissionLink(
      ctx.call,
      ctx.tx,
      manager,
      String(row['uuid']),
      'can_manage',
      ctx.now,
    );
  },
  extraHandlers: { secret },
};
