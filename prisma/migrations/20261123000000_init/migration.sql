-- svc: initial schema. One table per resource type; attribute names are column names.
-- Text columns use the binary "C" collation: strings order and compare by code point
-- (lists-and-filters.md §3), and btree indexes serve prefix LIKE patterns.
-- Integers are bigint (signed 64-bit), hashes and arrays jsonb, times timestamptz(6).

CREATE TABLE users (
  uuid                   text COLLATE "C" PRIMARY KEY,
  owner_uuid             text COLLATE "C" NOT NULL,
  created_at             timestamptz(6) NOT NULL,
  modified_at            timestamptz(6) NOT NULL,
  modified_by_user_uuid  text COLLATE "C",
  email                  text COLLATE "C",
  username               text COLLATE "C",
  first_name             text COLLATE "C",
  last_name              text COLLATE "C",
  identity_url           text COLLATE "C",
  is_active              boolean NOT NULL DEFAULT false,
  is_admin               boolean NOT NULL DEFAULT false,
  prefs                  jsonb NOT NULL DEFAULT '{}'
);
CREATE UNIQUE INDEX users_username_key ON users (username);
CREATE INDEX users_email_lower_idx ON users (lower(email));
CREATE INDEX users_modified_at_uuid_idx ON users (modified_at DESC, uuid);

CREATE TABLE groups (
  uuid                   text COLLATE "C" PRIMARY KEY,
  owner_uuid             text COLLATE "C" NOT NULL,
  created_at             timestamptz(6) NOT NULL,
  modified_at            timestamptz(6) NOT NULL,
  modified_by_user_uuid  text COLLATE "C",
  name                   text COLLATE "C" NOT NULL,
  group_class            text COLLATE "C" NOT NULL,
  description            text COLLATE "C",
  properties             jsonb NOT NULL DEFAULT '{}',
  trash_at               timestamptz(6),
  delete_at              timestamptz(6),
  frozen_by_uuid         text COLLATE "C"
);
CREATE INDEX groups_owner_uuid_idx ON groups (owner_uuid);
CREATE INDEX groups_owner_uuid_name_idx ON groups (owner_uuid, name);
CREATE INDEX groups_modified_at_uuid_idx ON groups (modified_at DESC, uuid);
CREATE INDEX groups_name_idx ON groups (name);
CREATE INDEX groups_group_class_idx ON groups (group_class);
CREATE INDEX groups_trash_at_idx ON groups (trash_at) WHERE trash_at IS NOT NULL;

CREATE TABLE collections (
  uuid                          text COLLATE "C" PRIMARY KEY,
  owner_uuid                    text COLLATE "C" NOT NULL,
  created_at                    timestamptz(6) NOT NULL,
  modified_at                   timestamptz(6) NOT NULL,
  modified_by_user_uuid         text COLLATE "C",
  name                          text COLLATE "C",
  description                   text COLLATE "C",
  properties                    jsonb NOT NULL DEFAULT '{}',
  manifest_text                 text COLLATE "C" NOT NULL DEFAULT '',
  portable_data_hash            text COLLATE "C" NOT NULL,
  replication_desired           bigint,
  replication_confirmed         bigint,
  replication_confirmed_at      timestamptz(6),
  storage_classes_desired       jsonb NOT NULL DEFAULT '["default"]',
  storage_classes_confirmed     jsonb NOT NULL DEFAULT '[]',
  storage_classes_confirmed_at  timestamptz(6),
  trash_at                      timestamptz(6),
  delete_at                     timestamptz(6),
  version                       bigint NOT NULL DEFAULT 1,
  preserve_version              boolean NOT NULL DEFAULT false,
  file_count                    bigint NOT NULL DEFAULT 0,
  file_size_total               bigint NOT NULL DEFAULT 0
);
CREATE INDEX collections_owner_uuid_idx ON collections (owner_uuid);
CREATE INDEX collections_owner_uuid_name_idx ON collections (owner_uuid, name);
CREATE INDEX collections_portable_data_hash_idx ON collections (portable_data_hash);
CREATE INDEX collections_modified_at_uuid_idx ON collections (modified_at DESC, uuid);
CREATE INDEX collections_name_idx ON collections (name);
CREATE INDEX collections_trash_at_idx ON collections (trash_at) WHERE trash_at IS NOT NULL;

CREATE TABLE container_requests (
  uuid                       text COLLATE "C" PRIMARY KEY,
  owner_uuid                 text COLLATE "C" NOT NULL,
  created_at                 timestamptz(6) NOT NULL,
  modified_at                timestamptz(6) NOT NULL,
  modified_by_user_uuid      text COLLATE "C",
  name                       text COLLATE "C",
  description                text COLLATE "C",
  properties                 jsonb NOT NULL DEFAULT '{}',
  state                      text COLLATE "C" NOT NULL DEFAULT 'Uncommitted',
  requesting_container_uuid  text COLLATE "C",
  container_uuid             text COLLATE "C",
  container_count_max        bigint NOT NULL,
  container_count            bigint NOT NULL DEFAULT 0,
  mounts                     jsonb NOT NULL DEFAULT '{}',
  secret_mounts              jsonb NOT NULL DEFAULT '{}',
  runtime_constraints        jsonb NOT NULL DEFAULT '{}',
  scheduling_parameters      jsonb NOT NULL DEFAULT '{}',
  container_image            text COLLATE "C",
  environment                jsonb NOT NULL DEFAULT '{}',
  cwd                        text COLLATE "C",
  command                    jsonb,
  output_path                text COLLATE "C",
  output_name                text COLLATE "C",
  output_ttl                 bigint NOT NULL DEFAULT 0,
  output_storage_classes     jsonb NOT NULL DEFAULT '["default"]',
  output_properties          jsonb NOT NULL DEFAULT '{}',
  priority                   bigint DEFAULT 0,
  expires_at                 timestamptz(6),
  use_existing               boolean NOT NULL DEFAULT true,
  log_uuid                   text COLLATE "C",
  output_uuid                text COLLATE "C",
  filters                    text COLLATE "C",
  runtime_token              text COLLATE "C",
  runtime_user_uuid          text COLLATE "C",
  runtime_auth_scopes        jsonb,
  cumulative_cost            double precision NOT NULL DEFAULT 0
);
CREATE INDEX container_requests_owner_uuid_idx ON container_requests (owner_uuid);
CREATE INDEX container_requests_container_uuid_idx ON container_requests (container_uuid);
CREATE INDEX container_requests_requesting_container_uuid_idx ON container_requests (requesting_container_uuid);
CREATE INDEX container_requests_modified_at_uuid_idx ON container_requests (modified_at DESC, uuid);

CREATE TABLE containers (
  uuid                    text COLLATE "C" PRIMARY KEY,
  owner_uuid              text COLLATE "C" NOT NULL,
  created_at              timestamptz(6) NOT NULL,
  modified_at             timestamptz(6) NOT NULL,
  modified_by_user_uuid   text COLLATE "C",
  state                   text COLLATE "C" NOT NULL DEFAULT 'Queued',
  started_at              timestamptz(6),
  finished_at             timestamptz(6),
  command                 jsonb NOT NULL DEFAULT '[]',
  cwd                     text COLLATE "C" NOT NULL DEFAULT '',
  environment             jsonb NOT NULL DEFAULT '{}',
  output_path             text COLLATE "C" NOT NULL DEFAULT '',
  container_image         text COLLATE "C" NOT NULL DEFAULT '',
  mounts                  jsonb NOT NULL DEFAULT '{}',
  runtime_constraints     jsonb NOT NULL DEFAULT '{}',
  scheduling_parameters   jsonb NOT NULL DEFAULT '{}',
  runtime_user_uuid       text COLLATE "C",
  runtime_auth_scopes     jsonb,
  output_storage_classes  jsonb NOT NULL DEFAULT '["default"]',
  priority                bigint NOT NULL DEFAULT 0,
  progress                double precision,
  exit_code               bigint,
  log                     text COLLATE "C",
  output                  text COLLATE "C",
  runtime_status          jsonb NOT NULL DEFAULT '{}',
  output_properties       jsonb NOT NULL DEFAULT '{}',
  lock_count              bigint NOT NULL DEFAULT 0,
  locked_by_uuid          text COLLATE "C",
  auth_uuid               text COLLATE "C",
  cost                    double precision NOT NULL DEFAULT 0,
  subrequests_cost        double precision NOT NULL DEFAULT 0,
  secret_mounts           jsonb NOT NULL DEFAULT '{}',
  runtime_token           text COLLATE "C",
  -- Digest of the key-sorted secret_mounts, kept after the secrets are scrubbed (reuse).
  secret_mounts_md5       text COLLATE "C" NOT NULL DEFAULT '99914b932bd37a50b983c5e7c90ae93b'
);
CREATE INDEX containers_state_idx ON containers (state);
CREATE INDEX containers_modified_at_uuid_idx ON containers (modified_at DESC, uuid);
CREATE INDEX containers_reuse_idx ON containers (container_image, cwd, output_path);

CREATE TABLE links (
  uuid                   text COLLATE "C" PRIMARY KEY,
  owner_uuid             text COLLATE "C" NOT NULL,
  created_at             timestamptz(6) NOT NULL,
  modified_at            timestamptz(6) NOT NULL,
  modified_by_user_uuid  text COLLATE "C",
  link_class             text COLLATE "C" NOT NULL,
  name                   text COLLATE "C",
  tail_uuid              text COLLATE "C",
  head_uuid              text COLLATE "C",
  properties             jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX links_head_uuid_idx ON links (head_uuid);
CREATE INDEX links_tail_uuid_idx ON links (tail_uuid);
CREATE INDEX links_link_class_name_idx ON links (link_class, name);
CREATE INDEX links_owner_uuid_idx ON links (owner_uuid);
CREATE INDEX links_modified_at_uuid_idx ON links (modified_at DESC, uuid);

CREATE TABLE workflows (
  uuid                   text COLLATE "C" PRIMARY KEY,
  owner_uuid             text COLLATE "C" NOT NULL,
  created_at             timestamptz(6) NOT NULL,
  modified_at            timestamptz(6) NOT NULL,
  modified_by_user_uuid  text COLLATE "C",
  name                   text COLLATE "C",
  description            text COLLATE "C",
  definition             text COLLATE "C"
);
CREATE INDEX workflows_owner_uuid_idx ON workflows (owner_uuid);
CREATE INDEX workflows_modified_at_uuid_idx ON workflows (modified_at DESC, uuid);

CREATE TABLE api_client_authorizations (
  uuid                     text COLLATE "C" PRIMARY KEY,
  owner_uuid               text COLLATE "C" NOT NULL,
  created_at               timestamptz(6) NOT NULL,
  modified_at              timestamptz(6) NOT NULL,
  modified_by_user_uuid    text COLLATE "C",
  -- Lowercase hex SHA-256 of the secret. The secret itself is never stored.
  secret_digest            text COLLATE "C",
  api_client_uuid          text COLLATE "C",
  scopes                   jsonb NOT NULL DEFAULT '["all"]',
  expires_at               timestamptz(6),
  created_by_ip_address    text COLLATE "C",
  last_used_by_ip_address  text COLLATE "C",
  last_used_at             timestamptz(6)
);
CREATE UNIQUE INDEX api_client_authorizations_secret_digest_key ON api_client_authorizations (secret_digest);
CREATE INDEX api_client_authorizations_owner_uuid_idx ON api_client_authorizations (owner_uuid);
CREATE INDEX api_client_authorizations_api_client_uuid_idx ON api_client_authorizations (api_client_uuid);
CREATE INDEX api_client_authorizations_modified_at_uuid_idx ON api_client_authorizations (modified_at DESC, uuid);

CREATE TABLE api_clients (
  uuid                   text COLLATE "C" PRIMARY KEY,
  owner_uuid             text COLLATE "C" NOT NULL,
  created_at             timestamptz(6) NOT NULL,
  modified_at            timestamptz(6) NOT NULL,
  modified_by_user_uuid  text COLLATE "C",
  name                   text COLLATE "C",
  url_prefix             text COLLATE "C",
  is_trusted             boolean NOT NULL DEFAULT false
);
CREATE INDEX api_clients_url_prefix_idx ON api_clients (url_prefix);
CREATE INDEX api_clients_modified_at_uuid_idx ON api_clients (modified_at DESC, uuid);

CREATE TABLE logs (
  uuid                   text COLLATE "C" PRIMARY KEY,
  owner_uuid             text COLLATE "C" NOT NULL,
  created_at             timestamptz(6) NOT NULL,
  modified_at            timestamptz(6) NOT NULL,
  modified_by_user_uuid  text COLLATE "C",
  object_uuid            text COLLATE "C",
  object_owner_uuid      text COLLATE "C",
  event_type             text COLLATE "C" NOT NULL DEFAULT '',
  event_at               timestamptz(6) NOT NULL,
  summary                text COLLATE "C",
  properties             jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX logs_object_uuid_idx ON logs (object_uuid);
CREATE INDEX logs_owner_uuid_idx ON logs (owner_uuid);
CREATE INDEX logs_modified_at_uuid_idx ON logs (modified_at DESC, uuid);
