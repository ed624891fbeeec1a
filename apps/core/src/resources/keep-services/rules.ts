import { builtInUuids, keepServices, moreMsg } from '@svc/contract';
import { ForbiddenError, NotFoundError } from '@svc/errors';
import { stringOption, type Call, type Handler } from '../../call';
import { statement } from '../../db/db';
import { adminWritesPolicy } from '../../permissions/policies';
import { crudHandlers, failIfAny } from '../common/crud';
import type { Row } from '../common/row';
import type { ResourceRules } from '../common/rules';
import { derivedKeepService } from './derived';

const TYPES = ['disk', 'blob', 'proxy'];

function fieldProblems(row: Row): string[] {
  const problems: string[] = [];
  const host = row['service_host'];
  if (typeof host !== 'string' || host.trim() === '') problems.push(moreMsg.serviceHostBlank());
  const port = row['service_port'];
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535)
    problems.push(moreMsg.servicePort());
  if (!TYPES.includes(String(row['service_type']))) problems.push(moreMsg.serviceType());
  return problems;
}

/** Stored block services (docs/api/more-resources.md §11): admins write them, the system user owns them. */
export const keepServiceRules: ResourceRules = {
  resource: keepServices,
  policy: { ...adminWritesPolicy, visible: () => [] },
  async prepareCreate(ctx, row) {
    row['owner_uuid'] = builtInUuids(ctx.call.cluster.ClusterID).systemUser;
    failIfAny(fieldProblems(row));
  },
  async prepareUpdate(ctx, current, next) {
    next['owner_uuid'] = current['owner_uuid'];
    failIfAny(fieldProblems(next));
  },
};

const generic = crudHandlers(keepServiceRules);

const anyStored = async (call: Call): Promise<boolean> =>
  (await call.db.query(statement('SELECT 1 FROM keep_services LIMIT 1', []))).rows.length > 0;

/** The derived record, where no record is stored and the gateway said how it was reached. */
const derived = (call: Call): Record<string, unknown> | null => {
  const origin = call.caller.identity.origin;
  return origin ? derivedKeepService(call.cluster.ClusterID, origin) : null;
};

const listOf = (items: unknown[]) => ({
  kind: `${keepServices.kind}List`,
  offset: 0,
  limit: items.length,
  items_available: items.length,
  items,
});

/** list: admins see the services (stored, else derived); others an empty list. */
const list: Handler = async (call) => {
  if (!call.caller.isAdmin) return { body: listOf([]) };
  if (await anyStored(call)) return generic.list!(call);
  const one = derived(call);
  return { body: listOf(one ? [one] : []) };
};

/** accessible (no token): every stored record, else the derived one. */
const accessible: Handler = async (call) => {
  if (!(await anyStored(call))) {
    const one = derived(call);
    return { body: listOf(one ? [one] : []) };
  }
  return generic.list!({ ...call, caller: { ...call.caller, isAdmin: true }, options: {} });
};

const get: Handler = async (call) => {
  if (await anyStored(call)) return generic.get!(call);
  const one = derived(call);
  if (!one || one['uuid'] !== stringOption(call, 'uuid')) throw new NotFoundError();
  return { body: one };
};

/** The derived record is not stored: it cannot be changed or deleted. */
const notDerived =
  (handler: Handler): Handler =>
  async (call) => {
    if (call.caller.isAdmin && stringOption(call, 'uuid') === derived(call)?.['uuid'])
      throw new ForbiddenError();
    return handler(call);
  };

export const keepServiceHandlers: Readonly<Record<string, Handler>> = {
  list,
  get,
  accessible,
  create: generic.create!,
  update: notDerived(generic.update!),
  delete: notDerived(generic.delete!),
};
