import type { Dispatcher } from 'undici';

/** How long to wait and how often to try again when an idempotent call meets 502 or 503. */
export interface RetryPolicy {
  /** Tries in all, the first included; 1 means no retry. */
  attempts: number;
  /** Wait before the first retry; doubled for each further one (with jitter). */
  baseDelayMs: number;
  /** No wait is longer than this, whatever Retry-After says. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 250, maxDelayMs: 4000 };

export interface ClientOptions {
  /**
   * The API host: a base URL (`https://svc.example.org`, `http://127.0.0.1:8080`) or
   * `host[:port]` (HTTPS, or HTTP when SVC_API_SCHEME is `http`). Default: the environment's
   * SVC_API_HOST.
   */
  host?: string;
  /** The API token; null sends none. Default: SVC_API_TOKEN. */
  token?: string | null;
  /** Accept any TLS certificate (test clusters). Default: SVC_API_HOST_INSECURE is set. */
  insecure?: boolean;
  /** Retries of idempotent calls on 502/503; false turns them off. */
  retry?: Partial<RetryPolicy> | false;
  /** An undici dispatcher to share (connection pools, tests). */
  dispatcher?: Dispatcher;
}

const TRUE_WORDS = new Set(['1', 'true', 'yes', 'on']);

/**
 * `host[:port]` means HTTPS unless `scheme` is `http` (SVC_API_SCHEME, set inside containers
 * of a plain-HTTP gateway); a full URL is kept, without its trailing slashes.
 */
export function baseUrlOf(host: string, scheme?: string): string {
  const bare = scheme?.toLowerCase() === 'http' ? 'http' : 'https';
  const url = /^https?:\/\//i.test(host) ? host : `${bare}://${host}`;
  return url.replace(/\/+$/, '');
}

export interface Settings {
  baseUrl: string;
  token: string | null;
  insecure: boolean;
  retry: RetryPolicy;
}

/**
 * The client's settings: options first, then SVC_API_HOST (with SVC_API_SCHEME) /
 * SVC_API_TOKEN / SVC_API_HOST_INSECURE.
 */
export function resolveSettings(
  options: ClientOptions,
  env: NodeJS.ProcessEnv = process.env,
): Settings {
  const host = options.host ?? env['SVC_API_HOST'];
  if (!host) throw new Error('No API host: pass `host` or set SVC_API_HOST');
  const retry =
    options.retry === false
      ? { ...DEFAULT_RETRY, attempts: 1 }
      : { ...DEFAULT_RETRY, ...options.retry };
  return {
    baseUrl: baseUrlOf(host, env['SVC_API_SCHEME']),
    token: options.token === undefined ? (env['SVC_API_TOKEN'] ?? null) : options.token,
    insecure:
      options.insecure ?? TRUE_WORDS.has((env['SVC_API_HOST_INSECURE'] ?? '').toLowerCase()),
    retry,
  };
}

/** Idempotent methods: asking twice does no more than asking once. */
export const isIdempotent = (method: string): boolean =>
  ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'].includes(method.toUpperCase());

/** Statuses worth another try: the gateway or a cluster behind it was briefly unavailable. */
export const isRetryableStatus = (status: number): boolean => status === 502 || status === 503;

/** The wait before retry `n` (1-based): exponential with jitter, or Retry-After, capped. */
export function retryDelayMs(policy: RetryPolicy, n: number, retryAfter?: string | null): number {
  const seconds = retryAfter ? Number(retryAfter) : NaN;
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, policy.maxDelayMs);
  const full = Math.min(policy.baseDelayMs * 2 ** (n - 1), policy.maxDelayMs);
  return Math.round(full / 2 + (Math.random() * full) / 2);
}
