/**
 * A collection's files through the gateway's file access at `/c=<collection>/<path>`
 * (WebDAV): JSON directory listings, PUT of a file (streamed into blocks by the gateway), MKCOL,
 * MOVE and DELETE, each one update of the collection. Requests carry the session's token.
 */
export interface DirEntry {
  name: string;
  type: 'file' | 'directory';
  size: number;
}

/** A PDH in a path uses `-` for `+`. */
const idSegment = (id: string): string => id.replace('+', '-');

/** `/c=<id>/<segments…>`, each path segment percent-encoded. */
export function fileUrl(id: string, path: string): string {
  const segments = path.split('/').filter(Boolean).map(encodeURIComponent);
  return `/c=${idSegment(id)}/${segments.join('/')}`;
}

export const joinPath = (...parts: string[]): string =>
  parts
    .flatMap((p) => p.split('/'))
    .filter(Boolean)
    .join('/');

export class FileError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function call(
  token: string,
  method: string,
  url: string,
  headers: Record<string, string> = {},
) {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, ...headers },
  });
  if (!res.ok) throw new FileError(res.status, (await res.text()).trim() || `HTTP ${res.status}`);
  return res;
}

/** The entries of a directory (`""` is the collection's top). */
export async function listDir(token: string, id: string, path: string): Promise<DirEntry[]> {
  const url = `${fileUrl(id, path)}${path ? '/' : ''}`;
  const res = await call(token, 'GET', url.endsWith('/') ? url : `${url}/`, {
    accept: 'application/json',
  });
  return ((await res.json()) as { items: DirEntry[] }).items;
}

/** Every file beneath a directory, with its path relative to the collection. */
export async function walkFiles(
  token: string,
  id: string,
  path: string,
): Promise<{ path: string; size: number }[]> {
  const out: { path: string; size: number }[] = [];
  for (const e of await listDir(token, id, path)) {
    const p = joinPath(path, e.name);
    if (e.type === 'directory') out.push(...(await walkFiles(token, id, p)));
    else out.push({ path: p, size: e.size });
  }
  return out;
}

export const makeDir = (token: string, id: string, path: string) =>
  call(token, 'MKCOL', fileUrl(id, path));

export const removePath = (token: string, id: string, path: string) =>
  call(token, 'DELETE', fileUrl(id, path));

/** MOVE within the collection; an existing destination is not replaced. */
export const movePath = (token: string, id: string, from: string, to: string) =>
  call(token, 'MOVE', fileUrl(id, from), {
    destination: fileUrl(id, to),
    overwrite: 'F',
  });

/** The text of a file (for the inline viewer), at most `limit` bytes of it. */
export async function readText(token: string, id: string, path: string, limit: number) {
  const res = await call(token, 'GET', fileUrl(id, path), { range: `bytes=0-${limit - 1}` });
  return res.text();
}

/**
 * PUT one file, reporting the bytes sent (XMLHttpRequest: fetch cannot report upload
 * progress). Rejects with the gateway's status and message.
 */
export function putFile(
  token: string,
  id: string,
  path: string,
  file: Blob,
  onProgress: (sent: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', fileUrl(id, path));
    xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onload = () =>
      xhr.status >= 200 && xhr.status < 300
        ? resolve()
        : reject(new FileError(xhr.status, xhr.responseText.trim() || `HTTP ${xhr.status}`));
    xhr.onerror = () => reject(new FileError(0, 'the connection failed'));
    xhr.onabort = () => reject(new FileError(0, 'stopped'));
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(file);
  });
}
