import { useCallback, useRef, useState } from 'react';
import { joinPath, putFile } from './files';

/** A file to upload and where it goes, relative to the folder it was dropped into. */
export interface UploadItem {
  file: File;
  /** Path inside the dropped selection (`run1/a.txt`), or just the name. */
  relativePath: string;
}

export interface UploadState {
  total: number;
  sent: number;
  files: number;
  done: number;
  running: boolean;
  /** Why the last run stopped, if it failed; `resume()` retries the files not yet uploaded. */
  error: string | null;
}

const IDLE: UploadState = { total: 0, sent: 0, files: 0, done: 0, running: false, error: null };
const PARALLEL = 3;

/**
 * Uploads files into a collection folder, three at a time, with progress. A failure stops the
 * run and keeps what remains: `resume()` goes on with the files not yet stored (a file that
 * failed half-way is sent again whole: each PUT is one update of the collection).
 */
export function useUploader(token: string, collection: string, onFileDone: () => void) {
  const [state, setState] = useState<UploadState>(IDLE);
  const queue = useRef<{ item: UploadItem; dir: string }[]>([]);
  const sentBy = useRef(new Map<UploadItem, number>());
  const finished = useRef(0);

  const run = useCallback(async () => {
    setState((s) => ({ ...s, running: true, error: null }));
    const progress = () =>
      setState((s) => ({
        ...s,
        sent: finished.current + [...sentBy.current.values()].reduce((a, b) => a + b, 0),
      }));
    let failure: string | null = null;
    const worker = async () => {
      while (failure === null) {
        const next = queue.current.shift();
        if (!next) return;
        sentBy.current.set(next.item, 0);
        try {
          await putFile(
            token,
            collection,
            joinPath(next.dir, next.item.relativePath),
            next.item.file,
            (n) => {
              sentBy.current.set(next.item, n);
              progress();
            },
          );
          sentBy.current.delete(next.item);
          finished.current += next.item.file.size;
          setState((s) => ({ ...s, done: s.done + 1 }));
          progress();
          onFileDone();
        } catch (err) {
          sentBy.current.delete(next.item);
          queue.current.unshift(next);
          failure ??= `${next.item.relativePath}: ${(err as Error).message}`;
          progress();
        }
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    setState((s) => ({ ...s, running: false, error: failure }));
  }, [token, collection, onFileDone]);

  const start = useCallback(
    (items: UploadItem[], dir: string) => {
      const size = items.reduce((a, i) => a + i.file.size, 0);
      queue.current.push(...items.map((item) => ({ item, dir })));
      setState((s) =>
        s.running || s.error
          ? { ...s, total: s.total + size, files: s.files + items.length }
          : { ...IDLE, total: size, files: items.length },
      );
      if (!state.running) {
        if (!state.error) finished.current = 0;
        void run();
      }
    },
    [run, state.running, state.error],
  );

  return { state, start, resume: run };
}

/**
 * Upload items from the files of a drop (react-dropzone reads dropped folders entry by entry
 * and gives each file its `relativePath`, `/run1/a.txt`) or of a folder picker
 * (`webkitRelativePath`, `run1/a.txt`): the path inside the selection, without a leading `./`
 * or `/`.
 */
export function itemsOfFiles(files: Iterable<File>): UploadItem[] {
  return [...files].map((file) => {
    const f = file as File & { relativePath?: string; path?: string };
    const raw = f.relativePath || f.webkitRelativePath || f.path || file.name;
    return { file, relativePath: raw.replace(/^\.?\/+/, '') };
  });
}
