import { formatTimestamp } from '@svc/contract';

/** PostgreSQL type oids whose text form we parse ourselves. */
export const OID = { int8: 20, timestamp: 1114, timestamptz: 1184 } as const;

/**
 * Timestamps keep their microseconds as rendered text (JS Dates stop at milliseconds);
 * 64-bit integers become numbers when exact, BigInt otherwise.
 */
export const parseTimestamptz = (text: string): string => formatTimestamp(text);

export function parseInt8(text: string): number | bigint {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : BigInt(text);
}
