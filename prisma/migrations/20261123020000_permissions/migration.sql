-- Materialized permissions (contract permissions.md §9) and the views that feed them.

-- One row per user and group (or user managed at level 3, or shared non-group object) the
-- user reaches through a valid path, with the maximum level. traverse_owned: objects owned by
-- the target are reachable at that level (groups always; users only at level 3).
-- Users reached at level 1 or 2 are not stored: with the all-users group that would be one row
-- per pair of users. Their records' visibility is computed from the links at read time.
CREATE TABLE materialized_permissions (
  user_uuid       text COLLATE "C" NOT NULL,
  target_uuid     text COLLATE "C" NOT NULL,
  perm_level      smallint NOT NULL,
  traverse_owned  boolean NOT NULL,
  PRIMARY KEY (user_uuid, target_uuid)
);
CREATE INDEX materialized_permissions_target_idx ON materialized_permissions (target_uuid, user_uuid);

-- The permission graph as the materialized table needs it: ownership of groups (level 3) and
-- permission links (their level). Ownership of other objects is applied at read time through
-- traverse_owned. Links into a user below can_manage are left out: users are never
-- intermediate nodes and are stored only at level 3, so those edges change no stored row
-- (leaving them out keeps the all-users group's thousands of can_read links out of every walk).
CREATE VIEW permission_edges AS
  SELECT owner_uuid AS tail_uuid, uuid AS head_uuid, 3::smallint AS level
    FROM groups
  UNION ALL
  SELECT tail_uuid, head_uuid,
         (CASE name WHEN 'can_manage' THEN 3 WHEN 'can_write' THEN 2 ELSE 1 END)::smallint
    FROM links
   WHERE link_class = 'permission'
     AND name IN ('can_read', 'can_write', 'can_manage', 'can_login')
     AND tail_uuid IS NOT NULL AND head_uuid IS NOT NULL
     AND NOT (substr(head_uuid, 7, 5) = 'tpzed' AND name <> 'can_manage');

-- Serve the view's predicate exactly, so walks read only the edges that matter.
CREATE INDEX links_permission_edges_tail_idx ON links (tail_uuid, head_uuid)
  WHERE link_class = 'permission'
    AND name IN ('can_read', 'can_write', 'can_manage', 'can_login')
    AND tail_uuid IS NOT NULL AND head_uuid IS NOT NULL
    AND NOT (substr(head_uuid, 7, 5) = 'tpzed' AND name <> 'can_manage');
CREATE INDEX links_permission_edges_head_idx ON links (head_uuid, tail_uuid)
  WHERE link_class = 'permission'
    AND name IN ('can_read', 'can_write', 'can_manage', 'can_login')
    AND tail_uuid IS NOT NULL AND head_uuid IS NOT NULL
    AND NOT (substr(head_uuid, 7, 5) = 'tpzed' AND name <> 'can_manage');

-- Every object's owner, whatever its type: each branch is a primary-key lookup when filtered
-- by uuid.
CREATE VIEW object_owners AS
            SELECT uuid, owner_uuid FROM users
  UNION ALL SELECT uuid, owner_uuid FROM groups
  UNION ALL SELECT uuid, owner_uuid FROM collections
  UNION ALL SELECT uuid, owner_uuid FROM container_requests
  UNION ALL SELECT uuid, owner_uuid FROM containers
  UNION ALL SELECT uuid, owner_uuid FROM links
  UNION ALL SELECT uuid, owner_uuid FROM workflows
  UNION ALL SELECT uuid, owner_uuid FROM api_client_authorizations
  UNION ALL SELECT uuid, owner_uuid FROM api_clients
  UNION ALL SELECT uuid, owner_uuid FROM logs;

-- Groups that are trashed or beneath a trashed group, with the earliest trash_at on the way
-- up: what makes objects hidden (groups.md §6) is then one lookup on the owner.
CREATE TABLE trashed_groups (
  group_uuid  text COLLATE "C" PRIMARY KEY,
  trash_at    timestamptz(6) NOT NULL
);
