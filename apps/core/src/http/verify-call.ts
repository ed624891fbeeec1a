import type { IncomingMessage } from 'node:http';
import { NotLoggedInError } from '@svc/errors';
import { readBody } from '@svc/http-kit';
import { PROOF_HEADER, verifyProof } from '@svc/ids';
import type { UsedProofs } from '../auth/used-proofs';

const header = (req: IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/**
 * Reads a call's body and checks the gateway's proof over it: signed with this cluster's key,
 * recent, covering this method, URL, request id and body, and never accepted before by any core
 * process of this cluster (docs/adr/0017). Anything else is 401, whatever the call.
 */
export class CallVerifier {
  constructor(
    private readonly key: string,
    private readonly maxBodyBytes: number,
    private readonly used: UsedProofs,
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
    if (!proof || !(await this.used.firstUse(proof))) throw new NotLoggedInError();
    return body;
  }
}
