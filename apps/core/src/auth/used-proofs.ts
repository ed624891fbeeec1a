import { PROOF_MAX_SKEW_MS, type VerifiedProof } from '@svc/ids';
import { statement, type Db } from '../db/db';
import type { DatabaseOutage } from '../db/outage';

const FIRST_USE = `INSERT INTO used_call_proofs (sender, seq, signed_at) VALUES ($1, $2, $3)
  ON CONFLICT DO NOTHING`;

/**
 * The proofs of gateway calls this cluster's cores have accepted, in its database
 * (docs/adr/0014): a proof is accepted by one core process once, whichever process it reaches
 * and however often they restart. One statement per call, which is also the call's first
 * contact with the database, so it is where the end of an outage is noticed.
 */
export class UsedProofs {
  constructor(
    private readonly db: Db,
    private readonly outage: DatabaseOutage,
  ) {}

  /** True the first time a proof is offered; false for a replay. */
  async firstUse(proof: VerifiedProof): Promise<boolean> {
    const { rowCount } = await this.db.query(
      statement(FIRST_USE, [proof.sender, proof.seq, new Date(proof.signedAt)], 'call_proof_use'),
    );
    this.outage.reachable();
    return rowCount === 1;
  }
}

/**
 * A proof is accepted while its time is within the skew of the receiving core's clock; rows are
 * kept one more skew beyond that, so cores whose clocks differ by up to the skew agree.
 */
export const PROOF_KEPT_MS = 2 * PROOF_MAX_SKEW_MS;

/** Removes the proofs no core would accept any more; the number removed. */
export async function forgetExpiredProofs(db: Db, now = Date.now()): Promise<number> {
  const { rowCount } = await db.query(
    statement(
      'DELETE FROM used_call_proofs WHERE signed_at < $1',
      [new Date(now - PROOF_KEPT_MS)],
      'call_proofs_expire',
    ),
  );
  return rowCount;
}
