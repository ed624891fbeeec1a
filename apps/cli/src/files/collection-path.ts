import type { SvcClient } from '@svc/client';
import { nodeAt, parseManifestTree, type TreeNode } from '@svc/blocks';
import { CliError, EXIT } from '../exit-codes';

/** `<uuid|pdh>[/<path>]`: the collection, and the node the path names in it. */
export interface CollectionPath {
  collection: Record<string, unknown> & { uuid: string; manifest_text: string };
  path: string[];
  node: TreeNode;
}

/** True when the argument names a collection (a collection uuid or a portable data hash). */
export const isCollectionPath = (arg: string): boolean =>
  /^([a-z0-9]{5}-4zz18-[a-z0-9]{15}|[0-9a-f]{32}\+[0-9]+)(\/|$)/.test(arg);

export async function resolveCollectionPath(
  client: SvcClient,
  arg: string,
): Promise<CollectionPath> {
  const [id, ...rest] = arg.split('/');
  const path = rest.filter((s) => s !== '' && s !== '.');
  const collection = (await client.api.collections.get({
    uuid: id!,
  })) as unknown as CollectionPath['collection'];
  const node = nodeAt(parseManifestTree(collection.manifest_text ?? ''), path);
  if (!node)
    throw new CliError(`no such file or directory in ${id}: ${path.join('/')}`, EXIT.notFound);
  return { collection, path, node };
}
