import { randomAlnum } from './uuid';

const PRINTABLE_ASCII = /^[\x20-\x7e]{1,1024}$/;

/** A client's X-Request-Id of 1–1024 printable ASCII characters is kept; else `req-<20>`. */
export function requestIdFrom(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && PRINTABLE_ASCII.test(value) ? value : `req-${randomAlnum(20)}`;
}
