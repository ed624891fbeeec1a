import { startS3Server, s3VolumeConfig, type S3Server } from '../harness/moto';
import { startTestDeployment, type TestDeployment } from '../harness/deployment';
import { md5, raw } from '../harness/storage';

// The block service over an S3 volume (a real S3 API server), with a second copy on disk.
let s3: S3Server;
let d: TestDeployment;
beforeAll(async () => {
  s3 = await startS3Server();
  const bucket = await s3.bucket();
  d = await startTestDeployment({
    configure: (_id, section) => {
      section['Collections'] = { DefaultReplication: 2 };
      section['Volumes'] = { s3: { ...s3VolumeConfig(s3, bucket), Replication: 2 } };
    },
  });
}, 60_000);
afterAll(async () => {
  await d?.close();
  await s3?.stop();
});

describe('block service on an S3 volume', () => {
  it('stores, counts its Replication, reads back, and lists the volume', async () => {
    const token = d.home.rootToken;
    const data = 'kept in a bucket';
    const put = await raw(d.url, 'PUT', `/${md5(data)}`, { token, body: data });
    expect([put.status, put.headers['x-keep-replicas-stored']]).toEqual([200, '2']);
    const get = await raw(d.url, 'GET', `/${put.text.trim()}`, { token });
    expect([get.status, get.text]).toEqual([200, data]);
    const bad = await raw(d.url, 'PUT', `/${md5('other')}`, { token, body: data });
    expect(bad.status).toBe(422);
    const mounts = JSON.parse((await raw(d.url, 'GET', '/mounts', { token })).text);
    expect(mounts).toEqual([
      {
        id: 's3',
        driver: 'S3',
        read_only: false,
        replication: 2,
        storage_classes: { default: true },
        blocks: 1,
        bytes: data.length,
      },
    ]);
    const index = await raw(d.url, 'GET', '/index', { token });
    expect(index.text).toMatch(new RegExp(`^${md5(data)}\\+16 [0-9]{19}\\n\\n$`));
  });
});
