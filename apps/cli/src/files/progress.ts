const MiB = 1024 * 1024;

/**
 * Bytes done of a total, with the rate, on stderr: redrawn in place on a terminal (at most ten
 * times a second), a line at most every few seconds otherwise, and always a last line.
 */
export class Progress {
  private done = 0;
  private readonly started = Date.now();
  private lastDrawn = 0;

  constructor(
    private readonly verb: string,
    private readonly total: number,
    private readonly err: NodeJS.WriteStream = process.stderr,
  ) {}

  add(bytes: number): void {
    this.done += bytes;
    const now = Date.now();
    const every = this.err.isTTY ? 100 : 5000;
    if (now - this.lastDrawn >= every) {
      this.lastDrawn = now;
      this.draw(false);
    }
  }

  finish(note = ''): void {
    this.draw(true, note);
  }

  private line(): string {
    const seconds = Math.max((Date.now() - this.started) / 1000, 0.001);
    const share = this.total === 0 ? 1 : this.done / this.total;
    const width = 20;
    const filled = Math.round(share * width);
    const bar = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
    const rate = (this.done / MiB / seconds).toFixed(1);
    return `${this.verb} ${bar} ${this.done} of ${this.total} bytes (${Math.floor(share * 100)}%), ${rate} MiB/s`;
  }

  private draw(last: boolean, note = ''): void {
    const text = `${this.line()}${note}`;
    if (this.err.isTTY) this.err.write(`\r${text}\x1b[K${last ? '\n' : ''}`);
    else this.err.write(`${text}\n`);
  }
}
