import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { lookup } from 'mime-types';
import { nodeAt, type FileNode, type Segment } from '@svc/blocks';
import type { GatewayDeps } from '../gateway-deps';
import { sendListing } from './listing';
import type { OpenedCollection } from './resolve';
import { FileHttpError } from './respond';
import type { FileTarget } from './target';

export const etagOf = (file: FileNode): string =>
  `"${createHash('md5')
    .update(JSON.stringify(file.segments.map((s) => [s.locator.slice(0, 32), s.offset, s.length])))
    .digest('hex')}"`;

/** A single `bytes=` range of a file of `size` bytes, null for none; 416 when unsatisfiable. */
function rangeOf(req: Request, size: number): { start: number; end: number } | null {
  const header = req.headers.range;
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end)
    throw new FileHttpError(416, 'range not satisfiable', { 'Content-Range': `bytes */${size}` });
  return { start, end };
}

/** The parts of blocks that hold bytes `start`..`end` of a file. */
function slices(segments: readonly Segment[], start: number, end: number) {
  const out: Array<{ locator: string; from: number; to: number }> = [];
  let pos = 0;
  for (const s of segments) {
    const a = Math.max(start, pos);
    const b = Math.min(end, pos + s.length - 1);
    if (a <= b) out.push({ locator: s.locator, from: s.offset + a - pos, to: s.offset + b - pos });
    pos += s.length;
  }
  return out;
}

async function streamFile(
  deps: GatewayDeps,
  res: Response,
  file: FileNode,
  start: number,
  end: number,
) {
  for (const part of slices(file.segments, start, end)) {
    const [hash, size] = part.locator.split('+') as [string, string];
    const opened = await deps.blocks.open(hash, Number(size), { start: part.from, end: part.to });
    if (!opened) throw new Error(`block ${hash} not found`);
    for await (const chunk of opened.stream) {
      if (!res.write(chunk)) await new Promise((r) => res.once('drain', r));
    }
  }
  res.end();
}

/** `GET`/`HEAD` of a file or directory (storage.md §9). */
export async function readPath(
  deps: GatewayDeps,
  req: Request,
  res: Response,
  target: FileTarget,
  opened: OpenedCollection,
): Promise<void> {
  const node = nodeAt(opened.tree, target.path);
  if (!node) throw new FileHttpError(404, 'file not found');
  if (node.kind === 'dir') {
    if (!target.trailingSlash) {
      const url = new URL(req.originalUrl, 'http://x');
      res.redirect(303, `${url.pathname}/${url.search}`);
      return;
    }
    return sendListing(req, res, target, node);
  }
  const name = target.path[target.path.length - 1]!;
  const range = rangeOf(req, node.size);
  res.setHeader('Content-Type', lookup(name) || 'application/octet-stream');
  res.setHeader('ETag', etagOf(node));
  res.setHeader('Accept-Ranges', 'bytes');
  if ((req.query as Record<string, unknown>)['disposition'] === 'attachment')
    res.setHeader(
      'Content-Disposition',
      `attachment; filename="${name.replace(/["\\\r\n]/g, '_')}"`,
    );
  const start = range?.start ?? 0;
  const end = range?.end ?? node.size - 1;
  res.status(range ? 206 : 200);
  if (range) res.setHeader('Content-Range', `bytes ${start}-${end}/${node.size}`);
  res.setHeader('Content-Length', String(Math.max(0, end - start + 1)));
  if (req.method === 'HEAD' || node.size === 0) {
    res.end();
    return;
  }
  await streamFile(deps, res, node, start, end);
}
