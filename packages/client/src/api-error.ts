/** A call the server refused or failed: the contract's error answer, as a typed error. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** The answer's `errors`: at least one message. */
    readonly errors: readonly string[],
    /** Correlates with the server's log line. */
    readonly errorToken: string | null,
    readonly requestId: string | null,
  ) {
    super(`${status} ${errors.join('; ')}`);
    this.name = 'ApiError';
  }

  /** From a non-2xx answer, whatever its body. */
  static from(status: number, body: unknown, requestId: string | null): ApiError {
    const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const errors = Array.isArray(b['errors']) ? b['errors'].map(String) : [String(body ?? status)];
    const token = typeof b['error_token'] === 'string' ? b['error_token'] : null;
    return new ApiError(status, errors.length > 0 ? errors : [`HTTP ${status}`], token, requestId);
  }
}
