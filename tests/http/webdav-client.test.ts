import { createClient, type FileStat } from 'webdav';
import { useDeployment } from '../harness/deployment';
import { volumeDirs, withVolumes } from '../harness/storage';
import { makeUser } from '../harness/users';

// A standard WebDAV client library lists, downloads and uploads (storage.md §9).
const dirs = volumeDirs(1);
const d = useDeployment(withVolumes(dirs));

describe('a WebDAV client library', () => {
  it('uploads, lists and downloads through /c=', async () => {
    const u = await makeUser(d.current);
    const uuid = (
      await u.client.request('POST', '/svc/v1/collections', { json: { collection: {} } })
    ).body.uuid;
    const dav = createClient(`${d.current.url}/c=${uuid}/`, { username: 'svc', password: u.token });
    await dav.createDirectory('/reports');
    await dav.putFileContents('/reports/summary.txt', 'all good\n');
    await dav.putFileContents('/data.bin', Buffer.from([0, 1, 2, 3, 255]));
    const top = (await dav.getDirectoryContents('/')) as FileStat[];
    expect(top.map((f) => [f.basename, f.type]).sort()).toEqual([
      ['data.bin', 'file'],
      ['reports', 'directory'],
    ]);
    const inner = (await dav.getDirectoryContents('/reports')) as FileStat[];
    expect(inner.map((f) => [f.filename, f.size])).toEqual([['/reports/summary.txt', 9]]);
    expect(await dav.getFileContents('/reports/summary.txt', { format: 'text' })).toBe(
      'all good\n',
    );
    expect(Buffer.from((await dav.getFileContents('/data.bin')) as ArrayBuffer)).toEqual(
      Buffer.from([0, 1, 2, 3, 255]),
    );
    await dav.moveFile('/data.bin', '/reports/data.bin');
    expect(await dav.exists('/data.bin')).toBe(false);
    expect((await dav.stat('/reports/data.bin')) as FileStat).toMatchObject({
      size: 5,
      type: 'file',
    });
    const manifest = (await u.client.request('GET', `/svc/v1/collections/${uuid}`)).body
      .unsigned_manifest_text;
    expect(manifest).toMatch(
      /^\.\/reports [0-9a-f]{32}\+5 [0-9a-f]{32}\+9 0:5:data.bin 5:9:summary.txt\n$/,
    );
  });
});
