import type { Request, Response } from 'express';
import { treeSize, type DirNode } from '@svc/blocks';
import { escapeHtml } from './respond';
import { hrefOf, type FileTarget } from './target';

interface Entry {
  name: string;
  type: 'file' | 'directory';
  size: number;
}

/** Subdirectories first, then files, each by name. */
export function entriesOf(dir: DirNode): Entry[] {
  const entries = [...dir.children].map(([name, node]) => ({
    name,
    type: node.kind === 'dir' ? ('directory' as const) : ('file' as const),
    size: treeSize(node),
  }));
  return entries.sort((a, b) =>
    a.type !== b.type
      ? a.type === 'directory'
        ? -1
        : 1
      : a.name < b.name
        ? -1
        : a.name > b.name
          ? 1
          : 0,
  );
}

function html(target: FileTarget, dir: DirNode): string {
  const title = escapeHtml(`/${target.path.join('/')}`);
  const rows = entriesOf(dir).map((e) => {
    const href = escapeHtml(hrefOf(target, [...target.path, e.name], e.type === 'directory'));
    const label = escapeHtml(e.type === 'directory' ? `${e.name}/` : e.name);
    return `<tr><td><a href="${href}">${label}</a></td><td>${e.size}</td></tr>`;
  });
  return [
    '<!DOCTYPE html>',
    `<html><head><meta charset="utf-8"><title>${title}</title></head><body>`,
    `<h1>${title}</h1>`,
    '<table><tr><th>Name</th><th>Size</th></tr>',
    ...rows,
    '</table></body></html>',
    '',
  ].join('\n');
}

/** A directory: HTML (names, sizes, links) or, for `Accept: application/json`, JSON items. */
export function sendListing(req: Request, res: Response, target: FileTarget, dir: DirNode): void {
  const json = (req.headers.accept ?? '').includes('application/json');
  const body = json ? JSON.stringify({ items: entriesOf(dir) }) : html(target, dir);
  res.status(200);
  res.setHeader('Content-Type', json ? 'application/json' : 'text/html; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  if (req.method === 'HEAD') res.end();
  else res.end(body);
}
