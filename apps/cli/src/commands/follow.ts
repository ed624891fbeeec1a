import { setTimeout as sleep } from 'node:timers/promises';
import type { SvcClient } from '@svc/client';
import { CliError } from '../exit-codes';

type Json = Record<string, unknown>;

async function getJson(client: SvcClient, path: string): Promise<Json> {
  const res = await client.request('GET', path, { retry: true });
  if (res.status !== 200) throw new CliError(`${path}: ${res.status} ${res.text.trim()}`, 1);
  return res.body as Json;
}

/** One log file of a collection through the gateway's file access (storage.md §9), or "". */
async function logFile(client: SvcClient, id: string, name: string): Promise<string> {
  const res = await client.request('GET', `/c=${id.replace('+', '-')}/${name}`, { retry: true });
  return res.status === 200 ? res.text : '';
}

/**
 * Follows a container request's logs until it is Final: new lines of stdout.txt and
 * stderr.txt as the runner saves them (execution.md §3.5), then the final log collection.
 * Answers the final request.
 */
export async function followRequest(
  client: SvcClient,
  uuid: string,
  write: { out: (s: string) => void; err: (s: string) => void },
  pollMs = 1000,
): Promise<Json> {
  const shown: Record<string, number> = { 'stdout.txt': 0, 'stderr.txt': 0 };
  const show = async (log: string) => {
    for (const name of Object.keys(shown)) {
      const text = await logFile(client, log, name);
      if (text.length <= shown[name]!) continue;
      const fresh = text.slice(shown[name]);
      // only whole lines, so that a line is never shown twice
      const end = fresh.lastIndexOf('\n') + 1;
      if (end === 0) continue;
      (name === 'stdout.txt' ? write.out : write.err)(fresh.slice(0, end));
      shown[name]! += end;
    }
  };
  for (;;) {
    const cr = await getJson(client, `/svc/v1/container_requests/${uuid}`);
    if (cr['state'] === 'Final') {
      if (typeof cr['log_uuid'] === 'string') await show(cr['log_uuid']);
      return cr;
    }
    if (typeof cr['container_uuid'] === 'string') {
      const c = await getJson(client, `/svc/v1/containers/${cr['container_uuid']}`);
      if (typeof c['log'] === 'string') await show(c['log']);
    }
    await sleep(pollMs);
  }
}
