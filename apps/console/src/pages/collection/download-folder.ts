import { fileUrl, walkFiles } from '../../api/files';

/**
 * A folder of a collection as one zip file, built in the browser: each file is fetched and
 * streamed into the archive (client-zip, loaded only when asked for).
 */
export async function downloadFolder(token: string, id: string, dir: string, name: string) {
  const { downloadZip } = await import('client-zip');
  const files = await walkFiles(token, id, dir);
  async function* entries() {
    for (const f of files) {
      const res = await fetch(fileUrl(id, f.path), {
        headers: { authorization: `Bearer ${token}` },
      });
      if (!res.ok) throw new Error(`${f.path}: HTTP ${res.status}`);
      yield { name: dir ? f.path.slice(dir.length + 1) : f.path, input: res };
    }
  }
  const blob = await downloadZip(entries()).blob();
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = `${name}.zip`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}
