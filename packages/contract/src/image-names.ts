/**
 * Image names (containers.md §6): how a request's `container_image` names a registered image,
 * and the link classes registration writes. Pure; the server resolves names with them and
 * upload tools register images with them.
 */

/** The link classes an image collection is registered under. */
export const IMAGE_LINK_CLASSES = {
  hash: 'docker_image_hash',
  repoTag: 'docker_image_repo+tag',
} as const;

/** The link an image name is looked up by. */
export interface ImageLink {
  linkClass: (typeof IMAGE_LINK_CLASSES)[keyof typeof IMAGE_LINK_CLASSES];
  name: string;
  /** `name` is the start of the link's name (a 12-hex prefix of an image id). */
  prefix: boolean;
}

const PDH = /^[0-9a-f]{32}\+[0-9]+$/;

/**
 * `repo:tag` as it is, `repo` alone as `repo:latest`. A colon followed by a `/` belongs to a
 * registry's port (`host:5000/repo`), not to a tag.
 */
export function repoTagOf(image: string): string {
  const colon = image.lastIndexOf(':');
  return colon > 0 && !image.slice(colon + 1).includes('/') ? image : `${image}:latest`;
}

/**
 * The link an image name resolves through, or null for a PDH: `sha256:<64 hex>` (or a 12-hex
 * prefix of it) through a `docker_image_hash` link, anything else as `repo:tag` through a
 * `docker_image_repo+tag` link.
 */
export function imageLinkOf(image: string): ImageLink | null {
  if (PDH.test(image)) return null;
  const hash = /^sha256:([0-9a-f]{64}|[0-9a-f]{12})$/.exec(image);
  if (hash) {
    return { linkClass: IMAGE_LINK_CLASSES.hash, name: image, prefix: hash[1]!.length === 12 };
  }
  return { linkClass: IMAGE_LINK_CLASSES.repoTag, name: repoTagOf(image), prefix: false };
}
