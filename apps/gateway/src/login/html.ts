import { createHash } from 'node:crypto';
import type { Response } from 'express';

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text safe in HTML content and in quoted attribute values. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);

/** `script-src` entry for a fixed inline script: only that exact text may run. */
export const scriptHash = (script: string): string =>
  `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;

/**
 * Sends a small HTML page. The policy forbids everything the page does not need, so that even a
 * mistake in escaping could not run script or send data elsewhere.
 */
export function sendHtml(
  res: Response,
  status: number,
  body: string,
  scriptSources: string[] = [],
): void {
  const script = scriptSources.length > 0 ? scriptSources.join(' ') : "'none'";
  res.status(status);
  res.set({
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Security-Policy': `default-src 'none'; script-src ${script}; style-src 'unsafe-inline'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
  });
  res.send(body);
}

export const page = (title: string, body: string): string =>
  `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>\n<body>${body}</body></html>\n`;

/**
 * A failed login callback (auth.md §9.2): 400 text/html. The body is the bare message, so both
 * the raw body and the rendered page start with "Login error: ".
 */
export function sendLoginError(res: Response, message: string): void {
  sendHtml(res, 400, `Login error: ${escapeHtml(message)}\n`);
}
