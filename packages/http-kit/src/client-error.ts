import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError, toErrorBody } from '@svc/errors';

/**
 * What a request Node could not even parse gets: the contract's error body, not an empty 431
 * or a reset connection. The URL counts toward Node's header limit, so an overflow with a
 * request line of half that limit or more is a URL that is too long (414); otherwise the
 * headers are (431).
 */
const LONG_REQUEST_LINE = 8192;

function answerFor(err: NodeJS.ErrnoException & { rawPacket?: Buffer }): ApiError {
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    const requestLine = (err.rawPacket?.toString('latin1') ?? '').split('\n', 1)[0]!;
    return requestLine.length >= LONG_REQUEST_LINE
      ? new ApiError(414, 'Request-URI Too Large')
      : new ApiError(431, 'Request Header Fields Too Large');
  }
  if (err.code === 'HPE_URI_TOO_LONG') return new ApiError(414, 'Request-URI Too Large');
  return new ApiError(400, 'Bad Request');
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  414: 'URI Too Long',
  431: 'Request Header Fields Too Large',
};

/** Answers unparsable requests on `server` in JSON, then closes their connection. */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || (err.code === 'ECONNRESET' && !socket.readable)) {
      socket.destroy();
      return;
    }
    // A request was already answered on this connection and the next one broke mid-way: the
    // answer of that one is all the client can use.
    const error = answerFor(err);
    const body = JSON.stringify(toErrorBody(error));
    socket.end(
      `HTTP/1.1 ${error.status} ${REASONS[error.status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Access-Control-Allow-Origin: *\r\n' +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}
