import { apiClientAuthorizations, containerMsg } from '@svc/contract';
import { ForbiddenError, NotFoundError, UnprocessableError } from '@svc/errors';
import { parseV2Token } from '@svc/ids';
import { rowColumns } from '@svc/list-engine';
import {
  containerOfToken,
  containerTokenSecret,
  createContainerToken,
  expireContainerToken,
} from '../../auth/container-token';
import { stringOption, type Call, type Handler, type Reply } from '../../call';
import { statement } from '../../db/db';
import { lockContainer, updateContainer } from '../../container-lifecycle/containers-sql';
import type { Lifecycle } from '../../container-lifecycle/context';
import { endContainer } from '../../container-lifecycle/settle';
import { requireAdmin } from '../../permissions/admin';
import { findVisible, readObject } from '../common/crud';
import { renderObject } from '../common/render';
import { nowCanonical, type Row } from '../common/row';
import type { ResourceRules } from '../common/rules';
import { selectByUuid } from '../common/write-sql';

/**
 * The dispatch API (containers.md §12): lock and unlock for dispatchers, and what a running
 * container reads with its own token. Nothing else is needed to run containers (execution.md).
 */

const uuidOf = (call: Call): string => stringOption(call, 'uuid');
const tokenOf = (call: Call): string | null => call.caller.identity.tokenUuid;

const lifecycle = (call: Call, tx: Lifecycle['tx']): Lifecycle => ({
  tx,
  cluster: call.cluster,
  now: nowCanonical(),
  actor: call.caller.uuid,
});

/** The container row with its secrets, locked, if the caller may see the container. */
async function lockedVisible(call: Call, rules: ResourceRules, lc: Lifecycle): Promise<Row> {
  const visible = await findVisible(call, rules, lc.tx, uuidOf(call), true);
  return (await lockContainer(lc, String(visible['uuid'])))!;
}

async function lock(call: Call, rules: ResourceRules): Promise<Reply> {
  requireAdmin(call);
  await call.db.transaction(async (tx) => {
    const lc = lifecycle(call, tx);
    const row = await lockedVisible(call, rules, lc);
    if (row['state'] !== 'Queued')
      throw new UnprocessableError(containerMsg.cannotLock(String(row['state'])));
    if (BigInt(row['priority'] as number) <= 0n)
      throw new UnprocessableError(containerMsg.cannotLockPriority());
    const auth = row['runtime_token']
      ? null
      : await createContainerToken(
          tx,
          call.cluster,
          String(row['runtime_user_uuid']),
          row['runtime_auth_scopes'] as string[] | null,
          lc.now,
        );
    await updateContainer(lc, String(row['uuid']), {
      state: 'Locked',
      lock_count: Number(row['lock_count'] ?? 0) + 1,
      locked_by_uuid: tokenOf(call),
      auth_uuid: auth,
    });
  });
  return readObject(call, rules, uuidOf(call));
}

async function unlock(call: Call, rules: ResourceRules): Promise<Reply> {
  await call.db.transaction(async (tx) => {
    const lc = lifecycle(call, tx);
    const row = await lockedVisible(call, rules, lc);
    const lockedByCaller =
      row['locked_by_uuid'] !== null && row['locked_by_uuid'] === tokenOf(call);
    if (row['state'] === 'Locked' && !lockedByCaller)
      throw new ForbiddenError(containerMsg.lockedByOther());
    if (row['state'] !== 'Locked') {
      if (!call.caller.isAdmin) throw new ForbiddenError(containerMsg.lockedByOther());
      throw new UnprocessableError(containerMsg.cannotUnlock(String(row['state'])));
    }
    const attempts = Number(row['lock_count'] ?? 0);
    if (attempts >= call.cluster.Containers.MaxDispatchAttempts) {
      await endContainer(lc, String(row['uuid']), {
        runtime_status: { error: containerMsg.dispatchAttempts(attempts) },
      });
      return;
    }
    if (typeof row['auth_uuid'] === 'string')
      await expireContainerToken(tx, row['auth_uuid'], lc.now);
    await updateContainer(lc, String(row['uuid']), {
      state: 'Queued',
      runtime_status: {},
      locked_by_uuid: null,
      auth_uuid: null,
    });
  });
  return readObject(call, rules, uuidOf(call));
}

async function current(call: Call, rules: ResourceRules): Promise<Reply> {
  const uuid = await containerOfToken(call.db, tokenOf(call));
  if (uuid === null) throw new NotFoundError(containerMsg.notContainerToken());
  return readObject(call, rules, uuid);
}

/** The container's own token record (the runtime_token's, when it has one), with its secret. */
async function ownTokenRecord(call: Call, row: Row): Promise<Record<string, unknown>> {
  const v2 = typeof row['runtime_token'] === 'string' ? parseV2Token(row['runtime_token']) : null;
  const uuid = v2 ? v2.uuid : String(row['auth_uuid'] ?? '');
  const secret = v2 ? v2.secret : containerTokenSecret(call.cluster, uuid);
  const r = apiClientAuthorizations;
  const { rows } = await call.db.query<Row>(
    selectByUuid(r, rowColumns(r, null, false), uuid, [], false),
  );
  const record = rows[0] ?? {
    uuid,
    owner_uuid: row['runtime_user_uuid'],
    scopes: row['runtime_auth_scopes'],
  };
  return renderObject(r, record, null, false, (name) =>
    name === 'api_token' ? secret : undefined,
  );
}

async function auth(call: Call, rules: ResourceRules): Promise<Reply> {
  const row = await call.db.transaction(async (tx) =>
    lockedVisible(call, rules, lifecycle(call, tx)),
  );
  const holds = ['Locked', 'Running'].includes(String(row['state']));
  if (!holds || row['locked_by_uuid'] !== tokenOf(call) || tokenOf(call) === null)
    throw new ForbiddenError();
  return { body: await ownTokenRecord(call, row) };
}

async function secretMounts(call: Call): Promise<Reply> {
  const uuid = uuidOf(call);
  if ((await containerOfToken(call.db, tokenOf(call))) !== uuid) throw new ForbiddenError();
  const { rows } = await call.db.query<{ secret_mounts: unknown }>(
    statement(
      'SELECT secret_mounts FROM containers WHERE uuid = $1',
      [uuid],
      'container_secret_mounts',
    ),
  );
  return { body: { secret_mounts: rows[0]?.secret_mounts ?? {} } };
}

export function dispatchHandlers(rules: ResourceRules): Record<string, Handler> {
  return {
    lock: (call) => lock(call, rules),
    unlock: (call) => unlock(call, rules),
    current: (call) => current(call, rules),
    auth: (call) => auth(call, rules),
    secret_mounts: secretMounts,
  };
}
