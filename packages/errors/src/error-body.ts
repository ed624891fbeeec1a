import { randomBytes } from 'node:crypto';
import { ApiError } from './api-error';

export interface ErrorBody {
  errors: string[];
  error_token: string;
}

/** `<unix seconds>+<8 lowercase hex digits>`: random, only there to correlate logs. */
export function makeErrorToken(now: Date = new Date()): string {
  return `${Math.floor(now.getTime() / 1000)}+${randomBytes(4).toString('hex')}`;
}

export function toErrorBody(err: ApiError): ErrorBody {
  return { errors: [...err.messages], error_token: makeErrorToken() };
}

/** What an unexpected error becomes; its details stay in the log. */
export const internalError = (): ApiError => new ApiError(500, 'Internal server error');
