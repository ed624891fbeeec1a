/** A request's answer, whatever its status. */
export interface Answer<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
  text: string;
}

export interface RequestOptions {
  query?: Record<string, unknown>;
  /** Sent as a JSON body. */
  json?: unknown;
  /** Sent as an application/x-www-form-urlencoded body. */
  form?: Record<string, string>;
  /** Sent as is, with the given content type. */
  raw?: { body: string | Buffer; contentType?: string };
  headers?: Record<string, string>;
  /** null sends no Authorization header. */
  token?: string | null;
  /** Try an idempotent request again on 502/503 (typed calls always do). */
  retry?: boolean;
}

/** Query values: strings as they are, everything else JSON-encoded (as generic clients do). */
export function encodeQuery(query: Record<string, unknown> = {}): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    search.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

export function bodyOf(opts: RequestOptions): { body?: string | Buffer; contentType?: string } {
  if (opts.json !== undefined)
    return { body: JSON.stringify(opts.json), contentType: 'application/json' };
  if (opts.form) {
    return {
      body: new URLSearchParams(opts.form).toString(),
      contentType: 'application/x-www-form-urlencoded',
    };
  }
  if (opts.raw) return { body: opts.raw.body, contentType: opts.raw.contentType };
  return {};
}

export function parseBody(text: string): unknown {
  try {
    return text === '' ? null : JSON.parse(text);
  } catch {
    return text; // not JSON: keep the text
  }
}

/** Anything that sends raw requests (the client). */
export interface Requester {
  request<T>(method: string, path: string, opts?: RequestOptions): Promise<Answer<T>>;
}
