import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';

/** A real S3 API server (moto) on a free loopback port, for the S3 volume's tests. */
export interface S3Server {
  endpoint: string;
  /** Creates a bucket and returns its name. */
  bucket(name?: string): Promise<string>;
  stop(): Promise<void>;
}

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

async function waitUntilUp(endpoint: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`moto_server exited with ${child.exitCode}`);
    try {
      await fetch(endpoint);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error('moto_server did not start');
}

let buckets = 0;

export async function startS3Server(): Promise<S3Server> {
  const port = await freePort();
  const child = spawn('moto_server', ['-H', '127.0.0.1', '-p', String(port)], {
    stdio: 'ignore',
  });
  const endpoint = `http://127.0.0.1:${port}`;
  await waitUntilUp(endpoint, child);
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  return {
    endpoint,
    async bucket(name = `blocks-test-${process.pid}-${++buckets}`) {
      await client.send(new CreateBucketCommand({ Bucket: name }));
      return name;
    },
    async stop() {
      client.destroy();
      if (child.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    },
  };
}

/** The volume configuration of a bucket on this server. */
export const s3VolumeConfig = (
  server: S3Server,
  bucket: string,
  extra: Record<string, unknown> = {},
) => ({
  Driver: 'S3' as const,
  ReadOnly: false,
  Replication: 1,
  DriverParameters: {
    Endpoint: server.endpoint,
    Region: 'us-east-1',
    Bucket: bucket,
    AccessKeyID: 'test',
    SecretAccessKey: 'test',
    UsePathStyle: true,
    PrefixLength: 0,
    Root: '',
    ...extra,
  },
});
