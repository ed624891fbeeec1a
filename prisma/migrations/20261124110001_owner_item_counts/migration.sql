-- How many objects of each contents type (groups.md §3) every owner holds, kept by statement
-- triggers, so items_available of a project's contents is a lookup however large the project
-- is (counting a million index entries takes hundreds of milliseconds). Roles are not counted
-- (contents never lists them). Objects trashed themselves are still counted here: contents
-- subtracts those whose trash_at has passed, found through the partial indexes below (trashed
-- objects are few, and trash_at passes with time, which no trigger sees).
CREATE TABLE owner_item_counts (
  owner_uuid  text COLLATE "C" NOT NULL,
  item_type   text COLLATE "C" NOT NULL,
  n           bigint NOT NULL,
  PRIMARY KEY (owner_uuid, item_type)
);

CREATE INDEX groups_owner_trashed_idx ON groups (owner_uuid, trash_at) WHERE trash_at IS NOT NULL;
CREATE INDEX collections_owner_trashed_idx ON collections (owner_uuid, trash_at) WHERE trash_at IS NOT NULL;

-- Adds the per-owner changes of one statement, owners in order (concurrent statements lock
-- counter rows in the same order).
CREATE FUNCTION owner_item_counts_add(item_type text, changes jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO owner_item_counts (owner_uuid, item_type, n)
  SELECT c.key COLLATE "C", item_type, c.value::bigint
    FROM jsonb_each_text(changes) c
   ORDER BY c.key COLLATE "C"
  ON CONFLICT (owner_uuid, item_type) DO UPDATE SET n = owner_item_counts.n + EXCLUDED.n
$$;

-- One function for the three events; TG_ARGV[0] = 'groups' leaves roles out. The transition
-- tables are named alike on every trigger (old_rows, new_rows).
CREATE FUNCTION owner_item_counts_insert() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE changes jsonb;
BEGIN
  IF TG_ARGV[0] = 'groups' THEN
    SELECT jsonb_object_agg(owner_uuid, k) INTO changes FROM (
      SELECT owner_uuid, count(*) AS k FROM new_rows WHERE group_class <> 'role' GROUP BY owner_uuid) s;
  ELSE
    SELECT jsonb_object_agg(owner_uuid, k) INTO changes FROM (
      SELECT owner_uuid, count(*) AS k FROM new_rows GROUP BY owner_uuid) s;
  END IF;
  IF changes IS NOT NULL THEN PERFORM owner_item_counts_add(TG_TABLE_NAME, changes); END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION owner_item_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE changes jsonb;
BEGIN
  IF TG_ARGV[0] = 'groups' THEN
    SELECT jsonb_object_agg(owner_uuid, -k) INTO changes FROM (
      SELECT owner_uuid, count(*) AS k FROM old_rows WHERE group_class <> 'role' GROUP BY owner_uuid) s;
  ELSE
    SELECT jsonb_object_agg(owner_uuid, -k) INTO changes FROM (
      SELECT owner_uuid, count(*) AS k FROM old_rows GROUP BY owner_uuid) s;
  END IF;
  IF changes IS NOT NULL THEN PERFORM owner_item_counts_add(TG_TABLE_NAME, changes); END IF;
  RETURN NULL;
END $$;

-- Moves only (owner_uuid changed); a group's class never changes.
CREATE FUNCTION owner_item_counts_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE changes jsonb;
BEGIN
  IF TG_ARGV[0] = 'groups' THEN
    SELECT jsonb_object_agg(owner_uuid, k) INTO changes FROM (
      SELECT owner_uuid, sum(k) AS k FROM (
        SELECT o.owner_uuid, -1 AS k FROM old_rows o JOIN new_rows n ON n.uuid = o.uuid
         WHERE o.owner_uuid <> n.owner_uuid AND o.group_class <> 'role'
        UNION ALL
        SELECT n.owner_uuid, 1 FROM old_rows o JOIN new_rows n ON n.uuid = o.uuid
         WHERE o.owner_uuid <> n.owner_uuid AND n.group_class <> 'role') m
      GROUP BY owner_uuid) s;
  ELSE
    SELECT jsonb_object_agg(owner_uuid, k) INTO changes FROM (
      SELECT owner_uuid, sum(k) AS k FROM (
        SELECT o.owner_uuid, -1 AS k FROM old_rows o JOIN new_rows n ON n.uuid = o.uuid
         WHERE o.owner_uuid <> n.owner_uuid
        UNION ALL
        SELECT n.owner_uuid, 1 FROM old_rows o JOIN new_rows n ON n.uuid = o.uuid
         WHERE o.owner_uuid <> n.owner_uuid) m
      GROUP BY owner_uuid) s;
  END IF;
  IF changes IS NOT NULL THEN PERFORM owner_item_counts_add(TG_TABLE_NAME, changes); END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER groups_item_counts_insert AFTER INSERT ON groups REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION owner_item_counts_insert('groups');
CREATE TRIGGER groups_item_counts_delete AFTER DELETE ON groups REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION owner_item_counts_delete('groups');
CREATE TRIGGER groups_item_counts_update AFTER UPDATE ON groups
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION owner_item_counts_update('groups');

CREATE TRIGGER collections_item_counts_insert AFTER INSERT ON collections REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION owner_item_counts_insert('any');
CREATE TRIGGER collections_item_counts_delete AFTER DELETE ON collections REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION owner_item_counts_delete('any');
CREATE TRIGGER collections_item_counts_update AFTER UPDATE ON collections
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION owner_item_counts_update('any');

CREATE TRIGGER container_requests_item_counts_insert AFTER INSERT ON container_requests REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION owner_item_counts_insert('any');
CREATE TRIGGER container_requests_item_counts_delete AFTER DELETE ON container_requests REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION owner_item_counts_delete('any');
CREATE TRIGGER container_requests_item_counts_update AFTER UPDATE ON container_requests
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION owner_item_counts_update('any');

CREATE TRIGGER workflows_item_counts_insert AFTER INSERT ON workflows REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION owner_item_counts_insert('any');
CREATE TRIGGER workflows_item_counts_delete AFTER DELETE ON workflows REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION owner_item_counts_delete('any');
CREATE TRIGGER workflows_item_counts_update AFTER UPDATE ON workflows
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION owner_item_counts_update('any');

INSERT INTO owner_item_counts (owner_uuid, item_type, n)
SELECT owner_uuid, 'groups', count(*) FROM groups WHERE group_class <> 'role' GROUP BY owner_uuid
UNION ALL SELECT owner_uuid, 'collections', count(*) FROM collections GROUP BY owner_uuid
UNION ALL SELECT owner_uuid, 'container_requests', count(*) FROM container_requests GROUP BY owner_uuid
UNION ALL SELECT owner_uuid, 'workflows', count(*) FROM workflows GROUP BY owner_uuid;
