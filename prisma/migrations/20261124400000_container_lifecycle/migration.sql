-- Container requests and containers (containers.md): reuse lookup by digest, the dispatch
-- queue, container tokens.

-- Digest of the attributes two containers must share to be reused for one another
-- (containers.md §6 step 4), canonical JSON with keys sorted at every depth: a commit finds its
-- candidates with one index probe instead of comparing JSON documents row by row.
ALTER TABLE containers ADD COLUMN reuse_digest text COLLATE "C" NOT NULL DEFAULT '';
DROP INDEX containers_reuse_idx;
CREATE INDEX containers_reuse_digest_state_idx ON containers (reuse_digest, state);

-- The container whose own token a request is made with (containers.md §12).
CREATE INDEX containers_auth_uuid_idx ON containers (auth_uuid);
-- Containers that run with a client-supplied runtime_token, by that token's uuid, while they
-- hold it (Locked or Running): few rows, so the partial index stays small.
CREATE INDEX containers_runtime_token_uuid_idx ON containers ((split_part(runtime_token, '/', 2)))
  WHERE runtime_token IS NOT NULL AND state IN ('Locked', 'Running');
-- A dispatcher's queue (execution.md §2): Queued, highest priority first, then oldest.
CREATE INDEX containers_queue_idx ON containers (priority DESC, created_at)
  WHERE state = 'Queued';
