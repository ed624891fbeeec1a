import type { Request, Response } from 'express';
import type { GatewayDeps } from '../gateway-deps';
import { authorizeAdmin, blockToken } from './block-auth';
import { BlockHttpError } from './respond';

/**
 * `GET /index[/<hex prefix>]` (storage.md §4): `<md5>+<size> <mtime ns>` per stored copy,
 * then an empty line. Streamed: an index can be millions of lines.
 */
export async function blockIndex(
  deps: GatewayDeps,
  req: Request,
  res: Response,
  prefix: string,
): Promise<void> {
  authorizeAdmin(deps, blockToken(req));
  if (!/^[0-9a-f]{0,32}$/.test(prefix)) throw new BlockHttpError(400, 'invalid prefix');
  res.status(200).setHeader('Content-Type', 'text/plain; charset=utf-8');
  for (const s of deps.blocks.states) {
    if (!s.available) continue;
    let lines = '';
    for await (const b of s.volume.index(prefix)) {
      lines += `${b.hash}+${b.size} ${b.mtimeNs}\n`;
      if (lines.length > 65_536 && !res.write(lines)) {
        lines = '';
        await new Promise((r) => res.once('drain', r));
      } else if (lines.length > 65_536) lines = '';
    }
    if (lines) res.write(lines);
  }
  res.end('\n');
}

/** `GET /mounts`: every volume, with its block count and bytes. */
export async function blockMounts(deps: GatewayDeps, req: Request, res: Response): Promise<void> {
  authorizeAdmin(deps, blockToken(req));
  const mounts = [];
  for (const s of deps.blocks.states) {
    let blocks = 0;
    let bytes = 0;
    if (s.available) {
      for await (const b of s.volume.index()) {
        blocks++;
        bytes += b.size;
      }
    }
    mounts.push({
      id: s.volume.id,
      driver: s.volume.driver,
      read_only: s.volume.readOnly,
      replication: s.volume.replication,
      storage_classes: { default: true },
      blocks,
      bytes,
    });
  }
  res.status(200).json(mounts);
}
