import { createHash } from 'node:crypto';
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
        const again = err instanceof BlockError ? retryable(err.status) : true;
        if (n >= RETRIES || !again) throw err;
        await sleep(200 * 2 ** n);
      }
    }
  }

  /** `PUT /<md5>` of one block (≤ 64 MiB); `hash` when the caller already computed it. */
  put(data: Uint8Array, hash?: string): Promise<StoredBlock> {
    const md5 = hash ?? createHash('md5').update(data).digest('hex');
    return this.attempt(async () => {
      const res = await request(`${this.baseUrl}/${md5}`, {
        method: 'PUT',
        headers: this.headers({ 'content-type': 'application/octet-stream' }),
        body: data,
        dispatcher: this.dispatcher,
      });
      const text = (await res.body.text()).trim();
      if (res.statusCode !== 200) throw new BlockError(res.statusCode, text);
      return { locator: text, replicas: Number(res.headers['x-keep-replicas-stored'] ?? 0) };
    });
  }

  /**
   * `GET /<locator>`, whole, its size and MD5 checked against the locator: a wrong body is an
   * error, never an answer.
   */
  get(locator: string): Promise<Buffer> {
    const [hash, sizeText] = locator.split('+');
    const size = Number(sizeText);
    return this.attempt(async () => {
      const res = await request(`${this.baseUrl}/${locator}`, {
        method: 'GET',
        headers: this.headers(),
        dispatcher: this.dispatcher,
      });
      if (res.statusCode !== 200) {
        throw new BlockError(res.statusCode, (await res.body.text()).trim());
      }
      const body = Buffer.allocUnsafe(size);
      let at = 0;
      const md5 = createHash('md5');
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        if (at + chunk.length > size) throw new BlockError(502, `block ${hash} is too long`);
        chunk.copy(body, at);
        md5.update(chunk);
        at += chunk.length;
      }
      if (at !== size) throw new BlockError(502, `block ${hash} is short: ${at} of ${size} bytes`);
      if (md5.digest('hex') !== hash) throw new BlockError(502, `block ${hash}: checksum mismatch`);
      return body;
    });
  }
}
