import busboy from 'busboy';
import { msg } from '../messages';

export type BodyKind = 'json' | 'form' | null;

export interface ParsedBody {
  kind: BodyKind;
  fields: Record<string, unknown> | null;
  /** Set when the body is JSON but not an object: answered 422 after auth (check order). */
  error: string | null;
}

const JSON_TYPES = new Set([
  'application/json',
  'application/javascript',
  'text/javascript',
  'text/plain',
]);

const mediaType = (contentType: string | undefined): string =>
  (contentType ?? '').split(';')[0]!.trim().toLowerCase();

/** Which kind of body a request carries (requests-and-errors.md §3). */
export function bodyKindOf(contentType: string | undefined, length: number): BodyKind {
  const type = mediaType(contentType);
  if (JSON_TYPES.has(type)) return length > 0 ? 'json' : null;
  if (type === '') return length > 0 ? 'json' : null;
  if (type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data') return 'form';
  return null;
}

function lastValues(entries: Iterable<[string, string]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of entries) out[k] = v;
  return out;
}

function parseMultipart(contentType: string, raw: Buffer): Promise<Record<string, string>> {
  return new Promise((resolve) => {
    const fields: [string, string][] = [];
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: { 'content-type': contentType } });
    } catch {
      resolve({});
      return;
    }
    parser.on('field', (name, value) => fields.push([name, value]));
    parser.on('file', (_name, stream) => stream.resume());
    parser.on('close', () => resolve(lastValues(fields)));
    parser.on('error', () => resolve(lastValues(fields)));
    parser.end(raw);
  });
}

/** Parses a raw body into parameters. Never throws: a bad JSON body is reported in `error`. */
export async function parseBody(contentType: string | undefined, raw: Buffer): Promise<ParsedBody> {
  const kind = bodyKindOf(contentType, raw.length);
  if (kind === null) return { kind: null, fields: null, error: null };
  if (kind === 'form') {
    const type = mediaType(contentType);
    const fields =
      type === 'multipart/form-data'
        ? await parseMultipart(contentType ?? '', raw)
        : lastValues(new URLSearchParams(raw.toString('utf8')));
    return { kind, fields, error: null };
  }
  const text = raw.toString('utf8');
  if (text.trim() === '') return { kind: null, fields: null, error: null };
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      return { kind, fields: value as Record<string, unknown>, error: null };
    }
  } catch {
    // falls through to the contract's message
  }
  return { kind, fields: null, error: msg.bodyNotJsonObject() };
}
