import type { IncomingMessage } from 'node:http';
import { NotLoggedInError } from '@svc/errors';
import { readBody } from '@svc/http-kit';
import { PROOF_HEADER, ReplayWindow, verifyProof } from '@svc/ids';

const header = (req: IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/**
 * Reads a call's body and checks the gateway's proof over it: signed with this cluster's key,
 * recent, covering this method, URL, request id and body, and not seen before. Anything else
 * is 401, whatever the call.
 */
export class CallVerifier {
  private readonly replays = new ReplayWindow();

  constructor(
    private readonly key: string,
    private readonly maxBodyBytes: number,
  ) {}

  async verifiedBody(req: IncomingMessage, requestId: string): Promise<Buffer> {
    const proofHeader = header(req, PROOF_HEADER);
    if (proofHeader === undefined) {
      req.resume();
      throw new NotLoggedInError();
    }
    const body = await readBody(req, this.maxBodyBytes);
    const proof = verifyProof(this.key, proofHeader, {
      method: req.method ?? '',
      url: req.url ?? '',
      requestId,
      body,
    });
    if (!proof || !this.replays.accept(proof)) throw new NotLoggedInError();
    return body;
  }
}
