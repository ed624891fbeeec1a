import { hash } from 'node:crypto';

/** A database row of a resource table: attribute name → stored value. */
export type Row = Record<string, unknown>;

let lastMicros = 0n;

/**
 * "Now" as a canonical UTC string with microseconds, strictly increasing within this process,
 * so that every change gets a distinct modified_at (and so a new etag).
 */
export function nowCanonical(): string {
  let micros = BigInt(Date.now()) * 1000n;
  if (micros <= lastMicros) micros = lastMicros + 1n;
  lastMicros = micros;
  const ms = Number(micros / 1000n);
  const sub = (micros % 1000n).toString().padStart(3, '0');
  return `${new Date(ms).toISOString().slice(0, 23)}${sub}Z`;
}

/** Changes whenever a stored attribute changes, because every change moves modified_at. */
export function etagOf(row: Row): string {
  // The one-shot hash: no Hash object per rendered row (a page renders a hundred).
  const digest = hash('md5', `${String(row['uuid'])}/${String(row['modified_at'])}`, 'hex');
  return BigInt(`0x${digest.slice(0, 24)}`).toString(36);
}

/** Rendered (9 digits) and canonical (6 digits) timestamps compare equal through this key. */
export const timeKey = (t: string): string => t.slice(0, 26);

const toMicros = (t: string): bigint => {
  const key = timeKey(t);
  return (
    BigInt(Date.parse(`${key.slice(0, 23)}Z`)) * 1000n + BigInt(key.slice(23, 26).padEnd(3, '0'))
  );
};

/** The last instant with a four-digit year: later times are kept as this one. */
const LATEST = '9999-12-31T23:59:59.999999Z';

/** A canonical timestamp `seconds` later, at most LATEST (a trash time near it plus a TTL). */
export function addSeconds(t: string, seconds: number): string {
  const micros = toMicros(t) + BigInt(seconds) * 1_000_000n;
  if (micros > toMicros(LATEST)) return LATEST;
  const ms = Number(micros / 1000n);
  return `${new Date(ms).toISOString().slice(0, 23)}${(micros % 1000n).toString().padStart(3, '0')}Z`;
}

/** Negative, zero or positive as `a` is before, at or after `b` (either format). */
export const compareTimes = (a: string, b: string): number => {
  const d = toMicros(a) - toMicros(b);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
};
