import { appendFileSync, writeFileSync } from 'node:fs';

// Nanoseconds since the epoch: wall clock at start plus the monotonic clock since.
const originNs = BigInt(Date.now()) * 1_000_000n - process.hrtime.bigint();

/** RFC 3339 UTC with 9 fraction digits (execution.md §3.5). */
export function timestamp(): string {
  const ns = originNs + process.hrtime.bigint();
  const ms = Number(ns / 1_000_000n);
  const iso = new Date(ms).toISOString(); // …T12:34:56.789Z
  const fraction = (ns % 1_000_000_000n).toString().padStart(9, '0');
  return `${iso.slice(0, 19)}.${fraction}Z`;
}

/**
 * One `.txt` log file: every line starts with a timestamp. Partial lines are held until
 * their newline (or the end); past `maxBytes` one line says how much was dropped.
 */
export class LogFile {
  private pending = '';
  private written = 0;
  private dropped = 0;

  constructor(
    readonly path: string,
    readonly maxBytes: number,
  ) {
    writeFileSync(path, '');
  }

  write(chunk: Buffer | string): void {
    this.pending += chunk.toString();
    const lines = this.pending.split('\n');
    this.pending = lines.pop() ?? '';
    for (const line of lines) this.line(line);
  }

  line(text: string): void {
    const out = `${timestamp()} ${text}\n`;
    if (this.written + out.length > this.maxBytes) {
      this.dropped += Buffer.byteLength(text) + 1;
      return;
    }
    this.written += out.length;
    appendFileSync(this.path, out);
  }

  /** Flushes a partial last line and the note on dropped bytes. */
  end(): void {
    if (this.pending !== '') this.line(this.pending);
    this.pending = '';
    if (this.dropped > 0) {
      appendFileSync(
        this.path,
        `${timestamp()} [${this.dropped} bytes dropped: log file limit reached]\n`,
      );
      this.dropped = 0;
    }
  }
}
