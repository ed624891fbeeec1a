import { ApiError } from '@svc/client';

/** What to tell a person about a failed call: the server's message(s), or the error's text. */
export function messageOf(err: unknown): string {
  if (err instanceof ApiError) return err.errors.join('; ');
  if (err instanceof Error) return err.message;
  return String(err);
}

/** A call refused because the token is unknown, expired or revoked. */
export const isSignedOut = (err: unknown): boolean => err instanceof ApiError && err.status === 401;

export const isNotFound = (err: unknown): boolean => err instanceof ApiError && err.status === 404;
