import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { lookup } from 'mime-types';
import { nodeAt, treeSize, type TreeNode } from '@svc/blocks';
import { etagOf } from './read';
import type { OpenedCollection } from './resolve';
import { escapeXml, FileHttpError } from './respond';
import { hrefOf, type FileTarget } from './target';

export const DAV_METHODS =
  'OPTIONS, GET, HEAD, PUT, DELETE, MKCOL, MOVE, COPY, PROPFIND, PROPPATCH, LOCK, UNLOCK';

/** `OPTIONS`: what desktop WebDAV clients look for before they mount. */
export function davOptions(res: Response): void {
  res.status(200);
  res.setHeader('DAV', '1, 2');
  res.setHeader('Allow', DAV_METHODS);
  res.setHeader('MS-Author-Via', 'DAV');
  res.setHeader('Content-Length', '0');
  res.end();
}

function response(target: FileTarget, path: string[], node: TreeNode, modified: string): string {
  const dir = node.kind === 'dir';
  const name = path[path.length - 1] ?? '';
  const props = [
    `<D:displayname>${escapeXml(name)}</D:displayname>`,
    dir ? '<D:resourcetype><D:collection/></D:resourcetype>' : '<D:resourcetype/>',
    `<D:getlastmodified>${new Date(modified).toUTCString()}</D:getlastmodified>`,
    ...(dir
      ? []
      : [
          `<D:getcontentlength>${treeSize(node)}</D:getcontentlength>`,
          `<D:getcontenttype>${escapeXml(lookup(name) || 'application/octet-stream')}</D:getcontenttype>`,
          `<D:getetag>${escapeXml(etagOf(node))}</D:getetag>`,
        ]),
  ];
  return [
    '<D:response>',
    `<D:href>${escapeXml(hrefOf(target, path, dir))}</D:href>`,
    `<D:propstat><D:prop>${props.join('')}</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat>`,
    '</D:response>',
  ].join('');
}

/** `PROPFIND` with `Depth` 0 or 1 (anything else is taken as 1): 207 multistatus. */
export function propfind(
  req: Request,
  res: Response,
  target: FileTarget,
  opened: OpenedCollection,
): void {
  const node = nodeAt(opened.tree, target.path);
  if (!node) throw new FileHttpError(404, 'file not found');
  const modified = String(opened.record['modified_at'] ?? new Date().toISOString());
  const parts = [response(target, target.path, node, modified)];
  if (req.headers['depth'] !== '0' && node.kind === 'dir') {
    for (const [name, child] of node.children)
      parts.push(response(target, [...target.path, name], child, modified));
  }
  const body = `<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="DAV:">${parts.join('')}</D:multistatus>\n`;
  res.status(207);
  res.setHeader('Content-Type', 'application/xml; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

/** `LOCK` is accepted and locks nothing (clients insist on a lock token). */
export function davLock(res: Response): void {
  const token = `opaquelocktoken:${randomUUID()}`;
  const body = `<?xml version="1.0" encoding="utf-8"?>\n<D:prop xmlns:D="DAV:"><D:lockdiscovery><D:activelock><D:locktype><D:write/></D:locktype><D:lockscope><D:exclusive/></D:lockscope><D:depth>0</D:depth><D:timeout>Second-3600</D:timeout><D:locktoken><D:href>${token}</D:href></D:locktoken></D:activelock></D:lockdiscovery></D:prop>\n`;
  res.status(200);
  res.setHeader('Lock-Token', `<${token}>`);
  res.setHeader('Content-Type', 'application/xml; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}
