import type { Response } from 'express';

/** A /c= answer other than success: a status, a plain-text message, maybe headers. */
export class FileHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** On every /c= response: nothing shown in a browser may act with the viewer's credentials. */
export const SECURITY_HEADERS = {
  'Content-Security-Policy': 'sandbox',
  'X-Content-Type-Options': 'nosniff',
};

export function sendFileText(res: Response, status: number, text: string, headOnly = false): void {
  const body = `${text}\n`;
  res.status(status);
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  if (headOnly) res.end();
  else res.end(body);
}

export const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const escapeXml = escapeHtml;
