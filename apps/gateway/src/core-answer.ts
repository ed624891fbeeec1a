import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { EMPTY_LIST_HEADER } from '@svc/http-kit';

/** Answers up to this size are read whole before they are handed over; larger ones stream. */
export const WHOLE_ANSWER_BYTES = 1 << 20;

/** A core answer's body: read whole (`whole` set) or streaming (a Readable). */
export interface AnswerBody {
  /** The whole body when it was at most WHOLE_ANSWER_BYTES; null when it streams. */
  readonly whole: Buffer | null;
  text(): Promise<string>;
  json(): Promise<unknown>;
  /** Reads and drops what is left. */
  dump(): Promise<void>;
}

/** A core's answer: only the headers the gateway passes on or reads (quiet log lines) are kept. */
export interface CoreAnswer {
  statusCode: number;
  headers: {
    'content-type'?: string;
    'content-length'?: string;
    /** A 503 or 429's, passed on with it (docs/api/requests-and-errors.md §7). */
    'retry-after'?: string;
    [EMPTY_LIST_HEADER]?: string;
  };
  body: AnswerBody & AsyncIterable<Buffer>;
}

class WholeBody implements AnswerBody, AsyncIterable<Buffer> {
  constructor(readonly whole: Buffer) {}
  text(): Promise<string> {
    return Promise.resolve(this.whole.toString('utf8'));
  }
  async json(): Promise<unknown> {
    return JSON.parse(this.whole.toString('utf8')) as unknown;
  }
  dump(): Promise<void> {
    return Promise.resolve();
  }
  async *[Symbol.asyncIterator](): AsyncIterator<Buffer> {
    await Promise.resolve();
    yield this.whole;
  }
}

/** A large answer: undici pauses while the reader is behind (onData returns false). */
class StreamBody extends Readable implements AnswerBody {
  readonly whole = null;
  resumeSocket: (() => void) | null = null;

  override _read(): void {
    this.resumeSocket?.();
  }
  async text(): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of this) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }
  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown;
  }
  async dump(): Promise<void> {
    for await (const _ of this) {
      // dropped
    }
  }
}

const CONTENT_TYPE = 'content-type';
const CONTENT_LENGTH = 'content-length';
const RETRY_AFTER = 'retry-after';

/**
 * An undici dispatch handler that keeps a small answer's chunks and hands over the answer
 * once complete — no stream, no promise per chunk, no header object beyond the two headers
 * passed on — and streams larger answers (or ones of unknown length) with back-pressure.
 */
export class AnswerHandler implements Dispatcher.DispatchHandler {
  private statusCode = 0;
  private headers: CoreAnswer['headers'] = {};
  private chunks: Buffer[] = [];
  private size = 0;
  private stream: StreamBody | null = null;

  constructor(
    private readonly resolve: (answer: CoreAnswer) => void,
    private readonly reject: (err: Error) => void,
  ) {}

  onConnect(): void {
    // nothing to keep: a call is not aborted by the gateway
  }

  onHeaders(statusCode: number, raw: Buffer[], resume: () => void): boolean {
    this.statusCode = statusCode;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = raw[i]!.toString('latin1').toLowerCase();
      if (name === CONTENT_TYPE) this.headers[CONTENT_TYPE] = raw[i + 1]!.toString('latin1');
      else if (name === CONTENT_LENGTH)
        this.headers[CONTENT_LENGTH] = raw[i + 1]!.toString('latin1');
      else if (name === EMPTY_LIST_HEADER)
        this.headers[EMPTY_LIST_HEADER] = raw[i + 1]!.toString('latin1');
      else if (name === RETRY_AFTER) this.headers[RETRY_AFTER] = raw[i + 1]!.toString('latin1');
    }
    const length = Number(this.headers[CONTENT_LENGTH] ?? NaN);
    if (!(length <= WHOLE_ANSWER_BYTES)) {
      const stream = new StreamBody();
      stream.resumeSocket = resume;
      this.stream = stream;
      this.resolve({ statusCode, headers: this.headers, body: stream });
    }
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.stream) return this.stream.push(chunk);
    this.chunks.push(chunk);
    this.size += chunk.length;
    return true;
  }

  onComplete(): void {
    if (this.stream) {
      this.stream.push(null);
      return;
    }
    const whole =
      this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size);
    this.resolve({
      statusCode: this.statusCode,
      headers: this.headers,
      body: new WholeBody(whole),
    });
  }

  onError(err: Error): void {
    if (this.stream) this.stream.destroy(err);
    else this.reject(err);
  }
}
