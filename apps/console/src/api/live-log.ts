import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { fileUrl } from './files';
import type { Container, ContainerRequest } from './types';
import { useSession } from './session';

/** The log files a process page shows, in this order. */
export const LOG_FILES = ['stdout.txt', 'stderr.txt', 'runner.txt'] as const;
export type LogFile = (typeof LOG_FILES)[number];
export type LogText = Record<LogFile, string>;

const EMPTY: LogText = { 'stdout.txt': '', 'stderr.txt': '', 'runner.txt': '' };
const POLL_MS = 1500;

async function readLog(token: string, collection: string): Promise<LogText> {
  const out = { ...EMPTY };
  await Promise.all(
    LOG_FILES.map(async (name) => {
      const res = await fetch(fileUrl(collection, name), {
        headers: { authorization: `Bearer ${token}` },
      });
      out[name] = res.ok ? await res.text() : '';
    }),
  );
  return out;
}

/**
 * The live log of a process: stdout, stderr and the runner's lines, following a running
 * container without reloading the page.
 *
 * Today it reads the log collection the runner saves while the container runs (every
 * `Containers.LogUpdatePeriod`), then the request's final log collection. This hook is the one
 * place that knows how: moving to the event stream's live log lines (`subscribe()` of
 * @svc/client) changes this function only; its callers get the same `LogText`.
 */
export function useLiveLog(
  cr: ContainerRequest | undefined,
  container: Container | null | undefined,
) {
  const { token } = useSession();
  const last = useRef<LogText>(EMPTY);
  const source = cr?.state === 'Final' ? (cr.log_uuid ?? container?.log) : container?.log;
  const running = cr !== undefined && cr.state !== 'Final';
  const query = useQuery({
    queryKey: ['live-log', cr?.uuid, source],
    enabled: Boolean(token && source),
    queryFn: async () => {
      const text = await readLog(token!, source!);
      // a save between reads never shows fewer lines than were already on the screen
      for (const name of LOG_FILES)
        if (text[name].length < last.current[name].length && running)
          text[name] = last.current[name];
      last.current = text;
      return text;
    },
    refetchInterval: running ? POLL_MS : false,
    // each save of the log is a new collection: keep showing the last text while reading it
    placeholderData: keepPreviousData,
  });
  return { log: query.data ?? EMPTY, following: running, error: query.error };
}
