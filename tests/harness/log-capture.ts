import { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';

/** A pino logger at `level` whose JSON lines a test reads back, parsed, in `lines`. */
export function capturingLogger(level = 'info'): {
  logger: Logger;
  lines: Record<string, unknown>[];
} {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  return { logger: pino({ level }, stream), lines };
}
