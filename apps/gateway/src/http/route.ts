import type { RequestHandler } from 'express';
import { noteRequest } from '@svc/http-kit';

/**
 * An express handler whose requests are logged and counted under `template`: the label comes
 * from the route matched, never from the path as sent (which may hold a token).
 */
export const routed =
  (template: string, handler: RequestHandler): RequestHandler =>
  (req, res, next) => {
    noteRequest(res, { route: template });
    return handler(req, res, next);
  };
