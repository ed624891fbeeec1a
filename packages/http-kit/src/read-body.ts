import getRawBody from 'raw-body';
import type { IncomingMessage } from 'node:http';
import { ApiError, PayloadTooLargeError } from '@svc/errors';

const EMPTY = Buffer.alloc(0);

/** The request body, at most `limit` bytes (413 beyond). */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > limit) {
    req.resume();
    throw new PayloadTooLargeError();
  }
  if (
    req.headers['content-length'] === undefined &&
    req.headers['transfer-encoding'] === undefined
  ) {
    return EMPTY;
  }
  try {
    return await getRawBody(req, { limit });
  } catch (err) {
    const type = (err as { type?: string }).type;
    if (type === 'entity.too.large') throw new PayloadTooLargeError();
    throw new ApiError(400, 'Could not read request body');
  }
}
