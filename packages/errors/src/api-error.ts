/**
 * The few typed errors the API can answer with. Anything thrown anywhere in the gateway or a
 * core ends up, through exactly one error middleware, as the contract's error body.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly messages: readonly string[];

  constructor(status: number, messages: string | readonly string[]) {
    const list = typeof messages === 'string' ? [messages] : messages;
    super(list.join('; '));
    this.name = new.target.name;
    this.status = status;
    this.messages = list.length > 0 ? list : ['Internal server error'];
  }
}

export class BadRequestError extends ApiError {
  constructor(message: string) {
    super(400, message);
  }
}

export class NotLoggedInError extends ApiError {
  constructor(message = 'Not logged in') {
    super(401, message);
  }
}

export class ForbiddenError extends ApiError {
  constructor(message = 'Forbidden') {
    super(403, message);
  }
}

export class NotFoundError extends ApiError {
  constructor(message = 'Object not found') {
    super(404, message);
  }
}

export class EndpointNotFoundError extends ApiError {
  constructor() {
    super(404, 'API endpoint not found');
  }
}

export class MethodNotAllowedError extends ApiError {
  constructor() {
    super(405, 'Method not allowed');
  }
}

export class PayloadTooLargeError extends ApiError {
  constructor() {
    super(413, 'Request body too large');
  }
}

/** 422: invalid input. Attribute validation passes every failed rule, one per entry. */
export class UnprocessableError extends ApiError {
  constructor(messages: string | readonly string[]) {
    super(422, messages);
  }
}

export class BadGatewayError extends ApiError {
  constructor(message: string) {
    super(502, message);
  }
}

/**
 * 429 + `Retry-After`: too many failed logins for a username or a client address
 * (Login.Throttle), or too many requests in progress for one token.
 */
export class TooManyRequestsError extends ApiError {
  readonly retryAfterSeconds: number;

  constructor(
    retryAfterSeconds: number,
    message = 'Too many failed login attempts, try again later',
  ) {
    super(429, message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * 503 + `Retry-After`: the cluster cannot do this now (its database is unreachable, stalled
 * or out of connections; an object is locked too long). Nothing was written; the same request
 * may be sent again. `loggedPerRequest` false: an outage is logged once where it is detected
 * (when it starts and when it ends), not once per refused request.
 */
export class ServiceUnavailableError extends ApiError {
  readonly retryAfterSeconds = 1;

  constructor(
    message = 'Service unavailable: the cluster database cannot be reached',
    readonly loggedPerRequest = true,
  ) {
    super(503, message);
  }
}

export function isApiError(err: unknown): err is ApiError {
  return err instanceof ApiError;
}
