import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { VolumeConfig } from '@svc/config';
import { isVerificationError, VolumeUnavailableError } from './errors';
import { volumeError } from './fs-errors';
import { syncedFileSink } from './file-sink';
import { BlockVerifier } from './verify';
import type { ByteRange, PutOptions, StoredBlock, TrashedBlock, Volume } from './volume';

const TRASH_PREFIX = 'trash/';

const notFound = (err: unknown): boolean => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
};

/**
 * Blocks as objects of an S3-compatible bucket: `<md5>` or `<first N hex>/<md5>`, trash under
 * `trash/<md5>` (its modification time is when it was trashed). Every PUT carries the block's
 * MD5 as Content-MD5, so the store itself refuses bytes that are not the block: an object
 * appears whole and verified, or not at all.
 */
export class S3Volume implements Volume {
  readonly driver = 'S3';
  readonly readOnly: boolean;
  readonly replication: number;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefixLength: number;
  private readonly keyRe: RegExp;

  constructor(
    readonly id: string,
    config: VolumeConfig,
  ) {
    const p = config.DriverParameters;
    this.readOnly = config.ReadOnly;
    this.replication = config.Replication;
    this.bucket = p.Bucket;
    this.prefixLength = p.PrefixLength;
    this.keyRe = new RegExp(`^(?:[0-9a-f]{${p.PrefixLength}}/)?([0-9a-f]{32})$`);
    this.client = new S3Client({
      region: p.Region,
      ...(p.Endpoint ? { endpoint: p.Endpoint } : {}),
      forcePathStyle: p.UsePathStyle,
      credentials: { accessKeyId: p.AccessKeyID, secretAccessKey: p.SecretAccessKey },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
      // Failures reach the caller as errors; the SDK's own console output would duplicate them.
      logger: {
        debug: () => undefined,
        info: () => undefined,
        warn: () => undefined,
        error: () => undefined,
      },
    });
  }

  private key = (hash: string) =>
    this.prefixLength > 0 ? `${hash.slice(0, this.prefixLength)}/${hash}` : hash;
  private trashKey = (hash: string) => `${TRASH_PREFIX}${hash}`;

  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw volumeError(this.id, err);
    }
  }

  async check(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (err) {
      throw new VolumeUnavailableError(this.id, err);
    }
  }

  async put(hash: string, body: Readable, opts: PutOptions): Promise<number> {
    if (this.readOnly) throw new VolumeUnavailableError(this.id, new Error('read-only'));
    if (opts.expectedLength === null) return this.putSpooled(hash, body);
    const verifier = new BlockVerifier(hash, opts.expectedLength);
    const abort = new AbortController();
    const verified = pipeline(body, verifier).catch((err: unknown) => {
      abort.abort();
      throw err;
    });
    const upload = this.upload(hash, verifier, opts.expectedLength, abort.signal).catch(
      (err: unknown) => {
        verifier.destroy(err as Error);
        throw err;
      },
    );
    const results = await Promise.allSettled([verified, upload]);
    // What was wrong with the body comes first; S3's own refusal of it is a consequence.
    const failures = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    const failure = failures.find(isVerificationError) ?? failures[0];
    if (failure !== undefined) throw volumeError(this.id, failure);
    return verifier.bytes;
  }

  /** A body of unknown length is verified into a local temporary file first (S3 needs a length). */
  private async putSpooled(hash: string, body: Readable): Promise<number> {
    const tmp = join(tmpdir(), `svc-s3-${hash}-${randomBytes(8).toString('hex')}`);
    const verifier = new BlockVerifier(hash, null);
    try {
      const fh = await open(tmp, 'wx', 0o600);
      try {
        await pipeline(body, verifier, syncedFileSink(fh));
      } finally {
        await fh.close();
      }
      await this.upload(hash, createReadStream(tmp), verifier.bytes);
      return verifier.bytes;
    } catch (err) {
      throw volumeError(this.id, err);
    } finally {
      await unlink(tmp).catch(() => undefined);
    }
  }

  private upload(hash: string, body: Readable, length: number, signal?: AbortSignal) {
    return this.call(() =>
      this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: this.key(hash),
          Body: body,
          ContentLength: length,
          ContentMD5: Buffer.from(hash, 'hex').toString('base64'),
        }),
        signal ? { abortSignal: signal } : {},
      ),
    );
  }

  async get(hash: string, range?: ByteRange): Promise<Readable | null> {
    try {
      const out = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.key(hash),
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      return out.Body as Readable;
    } catch (err) {
      if (notFound(err)) return null;
      throw volumeError(this.id, err);
    }
  }

  private async head(key: string): Promise<{ size: number; mtimeNs: bigint } | null> {
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return {
        size: out.ContentLength ?? 0,
        mtimeNs: BigInt(out.LastModified?.getTime() ?? 0) * 1_000_000n,
      };
    } catch (err) {
      if (notFound(err)) return null;
      throw volumeError(this.id, err);
    }
  }

  async stat(hash: string): Promise<StoredBlock | null> {
    const h = await this.head(this.key(hash));
    return h && { hash, ...h };
  }

  private copy(from: string, to: string) {
    return this.call(() =>
      this.client.send(
        new CopyObjectCommand({
          Bucket: this.bucket,
          CopySource: `${this.bucket}/${from}`,
          Key: to,
          // Copying an object onto itself is allowed only when something changes.
          MetadataDirective: 'REPLACE',
          Metadata: { touched: String(Date.now()) },
        }),
      ),
    );
  }

  private remove(key: string) {
    return this.call(() =>
      this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key })),
    );
  }

  async touch(hash: string): Promise<boolean> {
    if (!(await this.stat(hash))) return false;
    if (this.readOnly) return true;
    await this.copy(this.key(hash), this.key(hash));
    return true;
  }

  async trash(hash: string, ifMtimeNs: bigint): Promise<boolean> {
    if (this.readOnly) return false;
    const current = await this.stat(hash);
    if (!current || current.mtimeNs !== ifMtimeNs) return false;
    await this.copy(this.key(hash), this.trashKey(hash));
    await this.remove(this.key(hash));
    return true;
  }

  async untrash(hash: string): Promise<boolean> {
    if (this.readOnly || !(await this.head(this.trashKey(hash)))) return false;
    await this.copy(this.trashKey(hash), this.key(hash));
    await this.remove(this.trashKey(hash));
    return true;
  }

  async deleteTrashed(hash: string): Promise<void> {
    await this.remove(this.trashKey(hash));
  }

  private async *list(prefix: string) {
    let token: string | undefined;
    do {
      const page = await this.call(() =>
        this.client.send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: prefix,
            ...(token ? { ContinuationToken: token } : {}),
          }),
        ),
      );
      for (const o of page.Contents ?? []) yield o;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async *index(prefix = ''): AsyncIterable<StoredBlock> {
    const n = this.prefixLength;
    const listPrefix =
      n === 0 ? prefix : prefix.length >= n ? `${prefix.slice(0, n)}/${prefix}` : prefix;
    for await (const o of this.list(listPrefix)) {
      const m = this.keyRe.exec(o.Key ?? '');
      if (!m || !m[1]!.startsWith(prefix)) continue;
      const mtimeNs = BigInt(o.LastModified?.getTime() ?? 0) * 1_000_000n;
      yield { hash: m[1]!, size: o.Size ?? 0, mtimeNs };
    }
  }

  async *trashIndex(): AsyncIterable<TrashedBlock> {
    for await (const o of this.list(TRASH_PREFIX)) {
      const hash = (o.Key ?? '').slice(TRASH_PREFIX.length);
      if (/^[0-9a-f]{32}$/.test(hash)) yield { hash, trashedAtMs: o.LastModified?.getTime() ?? 0 };
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
