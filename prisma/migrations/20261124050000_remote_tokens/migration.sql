-- Federation (tokens of other clusters). A token issued by another cluster and validated at its
-- issuer is remembered here until refresh_at (Login.RemoteTokenRefresh), one row per token
-- uuid, replaced on each validation; the digest is of the secret as presented here (salted).
CREATE TABLE remote_tokens (
  uuid text COLLATE "C" PRIMARY KEY,
  secret_digest text COLLATE "C" NOT NULL,
  user_uuid text COLLATE "C" NOT NULL REFERENCES users (uuid) ON DELETE CASCADE,
  scopes jsonb NOT NULL DEFAULT '["all"]'::jsonb,
  expires_at timestamptz(6),
  refresh_at timestamptz(6) NOT NULL
);
CREATE INDEX remote_tokens_user_uuid_idx ON remote_tokens (user_uuid);

-- Users of other clusters mirrored here: the username their cluster gave them, so that a
-- local username (suffixed on a clash) is recomputed only when the remote one changes.
CREATE TABLE mirrored_users (
  user_uuid text COLLATE "C" PRIMARY KEY REFERENCES users (uuid) ON DELETE CASCADE,
  remote_username text COLLATE "C"
);
