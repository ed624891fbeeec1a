-- Proofs of gateway-to-core calls a core of this cluster has accepted, kept while they are
-- recent enough to be accepted at all: every core process on this database (after a restart
-- too) refuses a proof that one of them already accepted. Expired rows are removed by a job.
CREATE TABLE used_call_proofs (
  sender    text COLLATE "C" NOT NULL,
  seq       bigint      NOT NULL,
  signed_at timestamptz NOT NULL,
  PRIMARY KEY (sender, seq)
);
