import type { ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';

const marker = `\u0000big${randomBytes(6).toString('hex')}:`;
const markerRe = new RegExp(`"\\\\u0000big${marker.slice(4, -1)}:(-?\\d+)"`, 'g');

/**
 * JSON with exact 64-bit integers: BigInt values are written as their decimal digits, never
 * through a double (containers.md §7).
 */
export function toJson(body: unknown): string {
  try {
    // Most answers hold no BigInt: plain stringify is several times faster than with a replacer.
    return JSON.stringify(body);
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
  }
  const text = JSON.stringify(body, (_k, v: unknown) =>
    typeof v === 'bigint' ? `${marker}${v.toString()}` : v,
  );
  return text.includes('\\u0000big') ? text.replace(markerRe, '$1') : text;
}

/** Sends a JSON answer (no body for HEAD, as for every GET handled as HEAD). */
export function sendJson(res: ServerResponse, status: number, body: unknown, head = false): void {
  if (status === 204) {
    // No Content: no body, no type (the trash-sweep trigger answers so).
    res.statusCode = 204;
    res.end();
    return;
  }
  sendJsonText(res, status, toJson(body), head);
}

/** Sends JSON text already written (no body for HEAD). */
export function sendJsonText(
  res: ServerResponse,
  status: number,
  text: string,
  head = false,
): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(head ? undefined : text);
}
