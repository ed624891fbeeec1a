import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { sleep } from './exchange';
import { request } from './transport';

/** A refused or failed block operation: the block service's status and message. */
export class BlockError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface StoredBlock {
  /** The signed locator the block service answered. */
  locator: string;
  /** `X-Keep-Replicas-Stored`. */
  replicas: number;
}

/**
 * A block whose bytes, as read, do not match its locator (size or MD5), or whose read was cut
 * off. Reads are tried again first, so it means every copy tried was bad.
 */
export class CorruptBlockError extends BlockError {
  constructor(
    readonly hash: string,
    detail: string,
  ) {
    super(502, `block ${hash}: ${detail}`);
  }
}

/** A failure of the caller's sink (a disk write): never retried, thrown as it was. */
class SinkError extends Error {
  constructor(readonly original: unknown) {
    super('sink failed');
  }
}

/** The connection was closed under a request it carried: what a cut-off corrupt read looks like. */
const cutOff = (err: unknown): boolean =>
  ['UND_ERR_SOCKET', 'ECONNRESET'].includes(String((err as { code?: unknown }).code));

const RETRIES = 3;
const retryable = (status: number) => status === 502 || status === 503;

/**
 * The block service (storage.md §4) at the client's host: the gateway's root serves it. Writes
 * are idempotent, so both writes and reads are retried on 502/503 and on transport errors.
 */
export class BlockClient {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string | null,
    private readonly dispatcher: Dispatcher,
  ) {}

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return { ...(this.token ? { authorization: `Bearer ${this.token}` } : {}), ...extra };
  }

  private async attempt<T>(fn: () => Promise<T>): Promise<T> {
    for (let n = 1; ; n++) {
      try {
        return await fn();
      } catch (err) {
        const again =
          err instanceof BlockError ? retryable(err.status) : !(err instanceof SinkError);
        if (n >= RETRIES || !again) throw err;
        await sleep(200 * 2 ** n);
      }
    }
  }

  /** `PUT /<md5>` of one block (≤ 64 MiB); `hash` when the caller already computed it. */
  put(data: Uint8Array, hash?: string): Promise<StoredBlock> {
    const md5 = hash ?? createHash('md5').update(data).digest('hex');
    return this.send(md5, data.length, () => data);
  }

  /**
   * `PUT /<md5>` of a block whose bytes come from a stream (a range of a file), made afresh for
   * each try: memory does not grow with the block's size.
   */
  putStream(hash: string, size: number, body: () => Readable): Promise<StoredBlock> {
    return this.send(hash, size, body);
  }

  private send(md5: string, size: number, body: () => Uint8Array | Readable): Promise<StoredBlock> {
    return this.attempt(async () => {
      const res = await request(`${this.baseUrl}/${md5}`, {
        method: 'PUT',
        headers: this.headers({
          'content-type': 'application/octet-stream',
          'content-length': String(size),
        }),
        body: body(),
        dispatcher: this.dispatcher,
      });
      const text = (await res.body.text()).trim();
      if (res.statusCode !== 200) throw new BlockError(res.statusCode, text);
      return { locator: text, replicas: Number(res.headers['x-keep-replicas-stored'] ?? 0) };
    });
  }

  /**
   * `GET /<locator>` as a stream: each piece goes to `sink` with its offset in the block as it
   * arrives, and the whole is checked against the locator's size and MD5 at the end. A body
   * that does not check out (wrong size or hash, or cut off: the block service cuts a corrupt
   * copy short) is a CorruptBlockError after the sink has seen it, so the sink writes in
   * place: a retry gives the same offsets again (the block service then reads another copy).
   * Memory does not grow with the block's size.
   */
  read(locator: string, sink: (piece: Buffer, at: number) => unknown): Promise<void> {
    const [hash = '', sizeText] = locator.split('+');
    const size = Number(sizeText);
    const once = async () => {
      const res = await request(`${this.baseUrl}/${locator}`, {
        method: 'GET',
        headers: this.headers(),
        dispatcher: this.dispatcher,
      }).catch((err: unknown) => {
        // a small corrupt copy is cut off before even the status line is sent
        if (cutOff(err))
          throw new CorruptBlockError(hash, `read failed: ${(err as Error).message}`);
        throw err;
      });
      if (res.statusCode !== 200) {
        throw new BlockError(res.statusCode, (await res.body.text()).trim());
      }
      const md5 = createHash('md5');
      let at = 0;
      try {
        for await (const piece of res.body as AsyncIterable<Buffer>) {
          if (at + piece.length > size) throw new CorruptBlockError(hash, 'is too long');
          md5.update(piece);
          await Promise.resolve(sink(piece, at)).catch((err: unknown) => {
            throw new SinkError(err);
          });
          at += piece.length;
        }
      } catch (err) {
        if (err instanceof BlockError || err instanceof SinkError) throw err;
        // cut off after the status line: what the block service does with a corrupt copy
        throw new CorruptBlockError(hash, `read failed: ${(err as Error).message}`);
      }
      if (at !== size) throw new CorruptBlockError(hash, `is short: ${at} of ${size} bytes`);
      if (md5.digest('hex') !== hash) throw new CorruptBlockError(hash, 'checksum mismatch');
    };
    return this.attempt(once).catch((err: unknown) => {
      throw err instanceof SinkError ? err.original : err;
    });
  }

  /** `GET /<locator>`, whole, its size and MD5 checked: a wrong body is an error, never an answer. */
  async get(locator: string): Promise<Buffer> {
    const body = Buffer.allocUnsafe(Number(locator.split('+')[1]));
    await this.read(locator, (piece, at) => piece.copy(body, at));
    return body;
  }
}
