import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import type { DeploymentOptions } from './deployment';

export const md5 = (data: Buffer | string): string => createHash('md5').update(data).digest('hex');

/** Temporary directories for Directory volumes, removed after the file's tests. */
export function volumeDirs(n: number): string[] {
  const dirs = Array.from({ length: n }, () => mkdtempSync(join(tmpdir(), 'svc-blocks-')));
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  return dirs;
}

/**
 * Deployment options giving the home cluster one Directory volume per directory, plus any
 * other Collections settings.
 */
export function withVolumes(
  dirs: string[],
  collections: Record<string, unknown> = {},
  extra: (section: Record<string, any>) => void = () => undefined,
): DeploymentOptions {
  return {
    configure: (_id, section) => {
      section['Volumes'] = Object.fromEntries(
        dirs.map((d, i) => [`vol${i}`, { Driver: 'Directory', DriverParameters: { Root: d } }]),
      );
      section['Collections'] = { DefaultReplication: 1, ...collections };
      extra(section);
    },
  };
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text: string;
}

/** One raw HTTP request (the block service and /c= answer plain text or bytes, not JSON). */
export async function raw(
  base: string,
  method: string,
  path: string,
  opts: { token?: string | null; headers?: Record<string, string>; body?: Buffer | string } = {},
): Promise<RawAnswer> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers['authorization'] = `Bearer ${opts.token}`;
  const res = await request(`${base}${path}`, {
    method: method as 'GET',
    headers,
    ...(opts.body !== undefined ? { body: opts.body } : {}),
  });
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers, body, text: body.toString('utf8') };
}

/** Every file under a volume directory, relative to it. */
export function filesUnder(root: string): string[] {
  const walk = (d: string): string[] =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name).slice(root.length + 1)],
    );
  return walk(root);
}
