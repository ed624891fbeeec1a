import { imageLinkOf, type ImageLink } from '@svc/contract';
import { sql, toQuery, type Sql } from '@svc/list-engine';
import type { Db } from '../../db/db';
import { allOf, col } from '../../permissions/caller-set';
import {
  notHiddenByOwner,
  notTrashedItself,
  ownedObjectVisible,
} from '../../permissions/visibility';
import { readablePdh, type RuntimeUser } from './runtime-user';

/** Readable by the runtime user, neither trashed nor beneath a trashed project. */
const readable = (user: RuntimeUser, table: 'links' | 'collections'): Sql[] => [
  ...(user.isAdmin ? [] : [ownedObjectVisible(user.uuid, table)]),
  notHiddenByOwner(table),
];

/**
 * The PDH of the newest readable image collection registered under an image name (newest by
 * the link's `image_timestamp`, then its `created_at`), or null.
 */
export async function registeredImagePdh(
  tx: Db,
  user: RuntimeUser,
  link: ImageLink,
): Promise<string | null> {
  const name = col('links', 'name');
  const named = link.prefix ? sql`${name} LIKE ${`${link.name}%`}` : sql`${name} = ${link.name}`;
  const conditions = [
    sql`${col('links', 'link_class')} = ${link.linkClass}`,
    named,
    notTrashedItself('collections'),
    ...readable(user, 'links'),
    ...readable(user, 'collections'),
  ];
  const { rows } = await tx.query<{ portable_data_hash: string }>(
    toQuery(sql`SELECT ${col('collections', 'portable_data_hash')} AS portable_data_hash
      FROM links JOIN collections ON ${col('collections', 'uuid')} = ${col('links', 'head_uuid')}
     WHERE ${allOf(conditions)}
     ORDER BY ${col('links', 'properties')}->>'image_timestamp' DESC NULLS LAST,
              ${col('links', 'created_at')} DESC
     LIMIT 1`),
  );
  return rows[0]?.portable_data_hash ?? null;
}

/**
 * The PDH `container_image` stands for (containers.md §6 step 2): itself when it is the PDH of
 * a readable collection, else the image a name is registered as; null when neither.
 */
export async function resolveImage(
  tx: Db,
  user: RuntimeUser,
  image: string,
): Promise<string | null> {
  const link = imageLinkOf(image);
  if (link === null) return (await readablePdh(tx, user, image)) ? image : null;
  return registeredImagePdh(tx, user, link);
}
