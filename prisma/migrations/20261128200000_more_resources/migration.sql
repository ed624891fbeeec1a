-- The remaining resources: SSH keys and shell nodes, credentials for containers, stored block
-- services, and merged (redirected) users. Same conventions as the initial schema.

CREATE TABLE authorized_keys (
  uuid                   text COLLATE "C" PRIMARY KEY,
  owner_uuid             text COLLATE "C" NOT NULL,
  created_at             timestamptz(6) NOT NULL,
  modified_at            timestamptz(6) NOT NULL,
  modified_by_user_uuid  text COLLATE "C",
  name                   text COLLATE "C",
  key_type               text COLLATE "C",
  authorized_user_uuid   text COLLATE "C",
  public_key             text COLLATE "C",
  expires_at             timestamptz(6)
);
CREATE INDEX authorized_keys_owner_uuid_idx ON authorized_keys (owner_uuid);
CREATE INDEX authorized_keys_authorized_user_uuid_idx ON authorized_keys (authorized_user_uuid);
CREATE INDEX authorized_keys_modified_at_uuid_idx ON authorized_keys (modified_at DESC, uuid);

CREATE TABLE virtual_machines (
  uuid                   text COLLATE "C" PRIMARY KEY,
  owner_uuid             text COLLATE "C" NOT NULL,
  created_at             timestamptz(6) NOT NULL,
  modified_at            timestamptz(6) NOT NULL,
  modified_by_user_uuid  text COLLATE "C",
  hostname               text COLLATE "C"
);
CREATE INDEX virtual_machines_owner_uuid_idx ON virtual_machines (owner_uuid);
CREATE INDEX virtual_machines_modified_at_uuid_idx ON virtual_machines (modified_at DESC, uuid);

-- secret_ciphertext is no attribute: the secret sealed (AES-256-GCM, the record's uuid as
-- associated data), erased once expires_at passes.
CREATE TABLE credentials (
  uuid                   text COLLATE "C" PRIMARY KEY,
  owner_uuid             text COLLATE "C" NOT NULL,
  created_at             timestamptz(6) NOT NULL,
  modified_at            timestamptz(6) NOT NULL,
  modified_by_user_uuid  text COLLATE "C",
  name                   text COLLATE "C" NOT NULL,
  description            text COLLATE "C",
  credential_class       text COLLATE "C" NOT NULL,
  scopes                 jsonb NOT NULL DEFAULT '[]',
  external_id            text COLLATE "C" NOT NULL,
  expires_at             timestamptz(6) NOT NULL,
  secret_ciphertext      text COLLATE "C"
);
CREATE INDEX credentials_owner_uuid_name_idx ON credentials (owner_uuid, name);
CREATE INDEX credentials_modified_at_uuid_idx ON credentials (modified_at DESC, uuid);
CREATE INDEX credentials_expires_at_idx ON credentials (expires_at) WHERE secret_ciphertext IS NOT NULL;

CREATE TABLE keep_services (
  uuid                   text COLLATE "C" PRIMARY KEY,
  owner_uuid             text COLLATE "C" NOT NULL,
  created_at             timestamptz(6) NOT NULL,
  modified_at            timestamptz(6) NOT NULL,
  modified_by_user_uuid  text COLLATE "C",
  service_host           text COLLATE "C" NOT NULL,
  service_port           bigint NOT NULL,
  service_ssl_flag       boolean NOT NULL DEFAULT false,
  service_type           text COLLATE "C" NOT NULL DEFAULT 'disk',
  read_only              boolean NOT NULL DEFAULT false
);
CREATE INDEX keep_services_modified_at_uuid_idx ON keep_services (modified_at DESC, uuid);

-- A user merged into another with redirect_to_new_user: its tokens and logins act as that user.
ALTER TABLE users ADD COLUMN redirect_to_user_uuid text COLLATE "C";

CREATE OR REPLACE VIEW object_owners AS
            SELECT uuid, owner_uuid FROM users
  UNION ALL SELECT uuid, owner_uuid FROM groups
  UNION ALL SELECT uuid, owner_uuid FROM collections
  UNION ALL SELECT uuid, owner_uuid FROM container_requests
  UNION ALL SELECT uuid, owner_uuid FROM containers
  UNION ALL SELECT uuid, owner_uuid FROM links
  UNION ALL SELECT uuid, owner_uuid FROM workflows
  UNION ALL SELECT uuid, owner_uuid FROM api_client_authorizations
  UNION ALL SELECT uuid, owner_uuid FROM api_clients
  UNION ALL SELECT uuid, owner_uuid FROM logs
  UNION ALL SELECT uuid, owner_uuid FROM authorized_keys
  UNION ALL SELECT uuid, owner_uuid FROM virtual_machines
  UNION ALL SELECT uuid, owner_uuid FROM credentials
  UNION ALL SELECT uuid, owner_uuid FROM keep_services;
