import type { Response } from 'express';

/** Headers on every block-service response (storage.md §4). */
export const BLOCK_CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, HEAD, PUT, OPTIONS',
  'Access-Control-Allow-Headers':
    'Authorization, Content-Length, Content-Type, X-Keep-Desired-Replicas, X-Keep-Storage-Classes, X-Keep-Signature',
  'Access-Control-Expose-Headers':
    'X-Keep-Locator, X-Keep-Replicas-Stored, X-Keep-Storage-Classes-Confirmed',
};

/** A block-service answer other than 200: a status and a plain-text message. */
export class BlockHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Plain text, the message and a newline. */
export function sendText(res: Response, status: number, text: string, headOnly = false): void {
  const body = `${text}\n`;
  res.status(status);
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  if (headOnly) res.end();
  else res.end(body);
}
