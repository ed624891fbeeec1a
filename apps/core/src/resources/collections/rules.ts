import { collections } from '@svc/contract';
import { ForbiddenError, NotFoundError } from '@svc/errors';
import { join, rowColumns, sql, tableOf, toQuery } from '@svc/list-engine';
import { stringOption, type Call, type Reply } from '../../call';
import { crudHandlers, failIfAny } from '../common/crud';
import type { Row } from '../common/row';
import type { ResourceRules, WriteContext } from '../common/rules';
import { applyTrashInput, trashRow } from '../common/trash';
import { untrashHandler } from '../common/untrash';
import { ownedPolicy } from '../../permissions/policies';
import { applyManifest, isPortableDataHash } from './manifest-fields';
import { ADDED_BLOCKS, checkManifestWrite } from './manifest-checks';
import { signedManifest } from '../common/manifest-signing';

/** Set by the storage system: admins only, anyone else may only clear them. */
const ADMIN_FIELDS = [
  'replication_confirmed',
  'replication_confirmed_at',
  'storage_classes_confirmed',
  'storage_classes_confirmed_at',
];

function applyAdminFields(call: Call, input: Readonly<Record<string, unknown>>, row: Row): void {
  for (const name of ADMIN_FIELDS) {
    if (!(name in input)) continue;
    const value = input[name];
    const clearing = value === null || (Array.isArray(value) && value.length === 0);
    if (!call.caller.isAdmin && !clearing) throw new ForbiddenError();
    row[name] = value;
  }
}

function applyCollectionInput(ctx: WriteContext, current: Row | null, row: Row): void {
  applyAdminFields(ctx.call, ctx.input, row);
  if (current === null || 'manifest_text' in ctx.input || 'portable_data_hash' in ctx.input) {
    applyManifest(ctx.input, row);
  }
  applyTrashInput(ctx, current, row);
  // New blocks have not been counted yet (storage.md §5).
  const added = ctx.call.locals[ADDED_BLOCKS];
  if (current !== null && Array.isArray(added) && added.length > 0) {
    row['replication_confirmed'] = null;
    row['replication_confirmed_at'] = null;
  }
  const classes = row['storage_classes_desired'];
  failIfAny(
    Array.isArray(classes) && classes.length === 0
      ? ['storage_classes_desired must not be empty']
      : [],
  );
}

/** `GET /collections/<pdh>`: the manifest of some readable, not hidden collection with that hash. */
async function getByPortableDataHash(
  call: Call,
  rules: ResourceRules,
  pdh: string,
): Promise<Reply> {
  const scope = rules.policy.visible(call, 'read').map((c) => sql`(${c})`);
  const conditions = join([sql`"portable_data_hash" = ${pdh}`, ...scope], ' AND ');
  const { rows } = await call.db.query<Row>(
    toQuery(
      sql`SELECT "manifest_text", "trash_at" FROM ${tableOf(collections)} WHERE ${conditions} LIMIT 1`,
    ),
  );
  if (!rows[0]) throw new NotFoundError();
  return {
    body: {
      kind: collections.kind,
      portable_data_hash: pdh,
      manifest_text: signedManifest(call, String(rows[0]['manifest_text']), rows[0]['trash_at']),
    },
  };
}

export const collectionRules: ResourceRules = {
  resource: collections,
  policy: ownedPolicy('collections', true),
  checkWrite: checkManifestWrite,
  computeAttribute(call, name, row) {
    if (name !== 'manifest_text' || typeof row['manifest_text'] !== 'string') return undefined;
    return signedManifest(call, row['manifest_text'], row['trash_at']);
  },
  async prepareCreate(ctx, row) {
    applyCollectionInput(ctx, null, row);
  },
  async prepareUpdate(ctx, current, next) {
    applyCollectionInput(ctx, current, next);
  },
  remove: (call, row, tx, now) =>
    trashRow(call, collections, row, tx, now, rowColumns(collections, null, false)),
  get extraHandlers() {
    const common = crudHandlers(collectionRules);
    return {
      get: (call: Call) => {
        const id = stringOption(call, 'uuid');
        return isPortableDataHash(id)
          ? getByPortableDataHash(call, collectionRules, id)
          : common.get!(call);
      },
      trash: common.delete!,
      untrash: untrashHandler(collectionRules),
    };
  },
};
