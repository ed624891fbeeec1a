/**
 * Timestamps (requests-and-errors.md §8): rendered with 9 fractional digits in UTC, stored to the
 * microsecond, accepted as several ISO-8601 forms.
 */

// Years past 9999 have more digits: a computed time (trash_at + BlobSigningTTL) may get there.
const PG_TIMESTAMP_RE =
  /^(\d{4,}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?(?:\+00(?::00)?|Z)?$/;

/** PostgreSQL's text form of a timestamptz in a UTC session → `YYYY-MM-DDTHH:MM:SS.NNNNNNNNNZ`. */
export function formatTimestamp(pgText: string): string {
  const m = PG_TIMESTAMP_RE.exec(pgText);
  if (!m) throw new Error(`unexpected timestamp from the database: ${pgText}`);
  const micros = (m[3] ?? '').padEnd(6, '0');
  return `${m[1]}T${m[2]}.${micros}000Z`;
}

const INPUT_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/**
 * Parses an accepted input form into a canonical UTC string with microseconds
 * (`YYYY-MM-DDTHH:MM:SS.ffffffZ`, truncated), or null when unparsable.
 */
export function parseTimestampInput(value: string): string | null {
  const m = INPUT_RE.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) =>
    Number(m[i] ?? '0'),
  ) as [number, number, number, number, number, number];
  // Year 0 does not exist in PostgreSQL, and four digits is what every reader expects.
  if (year < 1) return null;
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  // Date.UTC maps years 0–99 to 1900–1999; setUTCFullYear does not.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  const base = date.getTime();
  const check = new Date(base);
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) return null;
  const zone = m[8];
  let offsetMinutes = 0;
  if (zone && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const [zh, zm] = zone.slice(1).split(':').map(Number) as [number, number];
    if (zh > 23 || zm > 59) return null;
    offsetMinutes = sign * (zh * 60 + zm);
  }
  const utc = new Date(base - offsetMinutes * 60_000);
  if (Number.isNaN(utc.getTime())) return null;
  const micros = (m[7] ?? '').slice(0, 6).padEnd(6, '0');
  const iso = utc.toISOString();
  if (!/^\d{4}-/.test(iso)) return null;
  return `${iso.slice(0, 19)}.${micros}Z`;
}

/** Canonical microsecond string → rendered form. */
export const renderCanonical = (canonical: string): string => `${canonical.slice(0, 26)}000Z`;
