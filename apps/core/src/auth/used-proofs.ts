import { PROOF_MAX_SKEW_MS, type VerifiedProof } from '@svc/ids';
import { statement, type Db } from '../db/db';
import type { DatabaseOutage } from '../db/outage';

/** Proofs offered together, at most this many per statement. */
const MAX_BATCH = 500;

const FIRST_USES = `INSERT INTO used_call_proofs (sender, seq, signed_at)
  SELECT * FROM unnest($1::text[], $2::bigint[], $3::timestamptz[])
  ON CONFLICT DO NOTHING RETURNING sender, seq`;

interface Offered {
  proof: VerifiedProof;
  resolve(first: boolean): void;
  reject(err: unknown): void;
}

const keyOf = (sender: string, seq: unknown): string => `${sender}.${String(seq)}`;

/**
 * The proofs of gateway calls this cluster's cores have accepted, in its database
 * (docs/adr/0017): a proof is accepted by one core process once, whichever process it reaches
 * and however often they restart. At most one statement is in flight per process: proofs
 * offered meanwhile go together in the next one, so under load a call costs a fraction of a
 * statement, and alone exactly one. It is every call's first contact with the database, so it
 * is also where the end of an outage is noticed.
 */
export class UsedProofs {
  private queue: Offered[] = [];
  private flushing = false;

  constructor(
    private readonly db: Db,
    private readonly outage: DatabaseOutage,
  ) {}

  /** True the first time a proof is offered; false for a replay. */
  firstUse(proof: VerifiedProof): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.queue.push({ proof, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      try {
        const { rows } = await this.db.query<{ sender: string; seq: unknown }>(
          statement(
            FIRST_USES,
            [
              batch.map((o) => o.proof.sender),
              batch.map((o) => o.proof.seq),
              batch.map((o) => new Date(o.proof.signedAt)),
            ],
            'call_proofs_first_use',
          ),
        );
        this.outage.reachable();
        const inserted = new Set(rows.map((r) => keyOf(r.sender, r.seq)));
        // delete: of the same proof offered twice in one batch, only the first is accepted.
        for (const o of batch) o.resolve(inserted.delete(keyOf(o.proof.sender, o.proof.seq)));
      } catch (err) {
        for (const o of batch) o.reject(err);
      }
    }
    this.flushing = false;
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
