import { containerMsg, msg } from '@svc/contract';
import { statement, type Db } from '../../db/db';
import { reuseDigest, secretMountsDigest } from '../../container-lifecycle/canonical';
import type { Lifecycle } from '../../container-lifecycle/context';
import { finalChanges } from '../../container-lifecycle/finalize';
import { isGroupUuid } from '../../permissions/kinds';
import { failIfAny } from '../common/crud';
import type { Row } from '../common/row';
import type { WriteContext } from '../common/rules';
import {
  commitConstraintProblems,
  resolvedConstraints,
  SCHEDULING_PARAMETERS,
  withDefaults,
} from './constraints';
import { commitMountsProblems, outputPathProblems } from './mounts';
import { chooseContainer } from './reuse';
import { resolveImage } from './image-names';
import { readableCollectionPdh, runtimeUserOf, type RuntimeUser } from './runtime-user';

/**
 * Commit (containers.md §6): runtime user, resolution, the container's attributes, selection,
 * and, when the chosen container is already Complete, finalization in the same update.
 */

const REQUIRED = ['command', 'container_image', 'cwd', 'output_path'];
const hash = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** The rules of §2 checked on commit that need no database. */
export function commitProblems(next: Row): string[] {
  const blank = REQUIRED.filter((f) => next[f] === null || next[f] === undefined || next[f] === '');
  return [
    ...blank.map((f) => msg.cantBeBlank(f)),
    ...commitConstraintProblems(hash(next['runtime_constraints'])),
    ...commitMountsProblems(hash(next['mounts']), hash(next['secret_mounts']), next['output_path']),
    ...outputPathProblems(hash(next['mounts']), next['output_path']),
  ];
}

/** Collection mounts given by uuid get that collection's PDH instead (step 2). */
async function resolveMounts(tx: Db, user: RuntimeUser, mounts: Record<string, unknown>) {
  const problems: string[] = [];
  const resolved: Record<string, unknown> = structuredClone(mounts);
  for (const mount of Object.values(resolved)) {
    const m = hash(mount);
    if (m['kind'] !== 'collection' || typeof m['uuid'] !== 'string' || m['portable_data_hash'])
      continue;
    const pdh = await readableCollectionPdh(tx, user, m['uuid']);
    if (pdh === null) problems.push(containerMsg.mountCollectionNotFound(m['uuid']));
    else {
      m['portable_data_hash'] = pdh;
      delete m['uuid'];
    }
  }
  return { resolved, problems };
}

/**
 * The new container's attributes (step 3), with the digests selection compares: the resolved
 * image (a PDH) and mounts go to the container only; the request keeps what the client sent.
 */
function containerAttributes(
  next: Row,
  resolved: { image: string; mounts: Record<string, unknown> },
  user: RuntimeUser,
): Row {
  const attrs: Row = {
    command: next['command'],
    cwd: next['cwd'],
    environment: hash(next['environment']),
    output_path: next['output_path'],
    container_image: resolved.image,
    mounts: resolved.mounts,
    runtime_constraints: resolvedConstraints(hash(next['runtime_constraints'])),
    scheduling_parameters: withDefaults(SCHEDULING_PARAMETERS, hash(next['scheduling_parameters'])),
    runtime_user_uuid: user.uuid,
    runtime_auth_scopes: user.scopes,
    output_storage_classes: next['output_storage_classes'],
    secret_mounts: hash(next['secret_mounts']),
    runtime_token: next['runtime_token'] ?? null,
    secret_mounts_md5: secretMountsDigest(next['secret_mounts']),
  };
  attrs['reuse_digest'] = reuseDigest(attrs as never);
  return attrs;
}

/**
 * Holds the groups above the request for this transaction, so that a trash or a freeze of one
 * of them waits for the commit (and then sees the Committed request), and the reverse.
 */
async function holdOwnerChain(tx: Db, owner: string): Promise<void> {
  const seen = new Set<string>();
  let current: string | undefined = owner;
  while (current !== undefined && isGroupUuid(current) && !seen.has(current)) {
    seen.add(current);
    const { rows }: { rows: { owner_uuid: string }[] } = await tx.query(
      statement('SELECT owner_uuid FROM groups WHERE uuid = $1 FOR SHARE', [current], 'hold_owner'),
    );
    current = rows[0]?.owner_uuid;
  }
}

/** Commits `next` (the request as it will be stored): sets container_uuid and what follows. */
export async function commit(ctx: WriteContext, next: Row, containerCount: number): Promise<void> {
  const { call, tx } = ctx;
  const problems = commitProblems(next);
  failIfAny(problems);
  const user = await runtimeUserOf(call, tx, next['runtime_token']);
  next['runtime_user_uuid'] = user.uuid;
  next['runtime_auth_scopes'] = user.scopes;
  const image = String(next['container_image']);
  const imagePdh = await resolveImage(tx, user, image);
  if (imagePdh === null) problems.push(containerMsg.imageNotFound(image));
  const mounts = await resolveMounts(tx, user, hash(next['mounts']));
  failIfAny([...problems, ...mounts.problems]);
  await holdOwnerChain(tx, String(next['owner_uuid']));
  const lc: Lifecycle = { tx, cluster: call.cluster, now: ctx.now, actor: call.caller.uuid };
  const attrs = containerAttributes(next, { image: imagePdh!, mounts: mounts.resolved }, user);
  const container = await chooseContainer(lc, attrs, next['use_existing'] !== false);
  next['container_uuid'] = container['uuid'];
  next['container_count'] = containerCount + 1;
  if (container['state'] === 'Complete')
    Object.assign(next, await finalChanges(lc, next, container));
}
