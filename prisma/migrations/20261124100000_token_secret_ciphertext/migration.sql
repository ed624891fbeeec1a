-- E: the token's secret encrypted with AES-256-GCM under a key derived from SystemRootToken,
-- beside its digest (secret_digest). Only salted tokens need it: the secret is the HMAC key of
-- a salted token, so it must be recoverable here, yet never readable from the database alone.
-- Records made before this column existed keep it NULL: they work on their own cluster, and
-- their salted forms are refused.
ALTER TABLE api_client_authorizations ADD COLUMN secret_ciphertext text COLLATE "C";
