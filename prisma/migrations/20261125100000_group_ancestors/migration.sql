-- The group tree as a closure table (groups.md §3 step 3, §6): one row per group and each of
-- its ancestors, the group itself included, up to the user at the top of its owner chain.
-- "Every project beneath X" is then one range of the ancestor index instead of a recursive
-- walk, and "hidden by a trashed ancestor" a join with the few trashed groups, so trashing or
-- untrashing a project writes its own row only, whatever its subtree holds. Kept by triggers
-- on insert, owner change and delete; a move rewrites subtree × depth rows.
CREATE TABLE group_ancestors (
  group_uuid     text COLLATE "C" NOT NULL,
  ancestor_uuid  text COLLATE "C" NOT NULL,
  PRIMARY KEY (group_uuid, ancestor_uuid)
);
CREATE INDEX group_ancestors_ancestor_idx ON group_ancestors (ancestor_uuid, group_uuid);

-- New groups, set-based: a statement may insert a parent and its children together (the chain
-- is followed through the new rows, then joins the stored chain of the first existing owner).
-- UNION (not UNION ALL) ends the walk even on an ownership cycle.
CREATE FUNCTION group_ancestors_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO group_ancestors (group_uuid, ancestor_uuid)
  WITH RECURSIVE up(uuid, anc) AS (
    SELECT n.uuid, n.owner_uuid FROM new_rows n
    UNION
    SELECT up.uuid, n.owner_uuid FROM up JOIN new_rows n ON n.uuid = up.anc
  )
  SELECT uuid, uuid FROM new_rows
  UNION SELECT uuid, anc FROM up
  UNION SELECT up.uuid, a.ancestor_uuid FROM up JOIN group_ancestors a ON a.group_uuid = up.anc
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

-- A move (owner_uuid changed): the moved group and everything beneath it lose the ancestors
-- above the group and gain the new owner's chain. One row at a time, so several moves in one
-- statement each see the tree the previous ones left.
CREATE FUNCTION group_ancestors_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM group_ancestors d
   USING group_ancestors s, group_ancestors above
   WHERE s.ancestor_uuid = NEW.uuid AND d.group_uuid = s.group_uuid
     AND above.group_uuid = NEW.uuid AND above.ancestor_uuid <> NEW.uuid
     AND d.ancestor_uuid = above.ancestor_uuid;
  INSERT INTO group_ancestors (group_uuid, ancestor_uuid)
  SELECT s.group_uuid, chain.anc
    FROM group_ancestors s,
         (SELECT NEW.owner_uuid::text COLLATE "C" AS anc
          UNION SELECT a.ancestor_uuid FROM group_ancestors a WHERE a.group_uuid = NEW.owner_uuid) chain
   WHERE s.ancestor_uuid = NEW.uuid
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

-- Deleted groups leave no rows, as groups or as ancestors of groups left behind.
CREATE FUNCTION group_ancestors_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM group_ancestors a USING old_rows o WHERE a.group_uuid = o.uuid;
  DELETE FROM group_ancestors a USING old_rows o WHERE a.ancestor_uuid = o.uuid;
  RETURN NULL;
END $$;

CREATE TRIGGER groups_ancestors_insert AFTER INSERT ON groups REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION group_ancestors_insert();
CREATE TRIGGER groups_ancestors_move AFTER UPDATE OF owner_uuid ON groups
  FOR EACH ROW WHEN (OLD.owner_uuid IS DISTINCT FROM NEW.owner_uuid)
  EXECUTE FUNCTION group_ancestors_move();
CREATE TRIGGER groups_ancestors_delete AFTER DELETE ON groups REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION group_ancestors_delete();

INSERT INTO group_ancestors (group_uuid, ancestor_uuid)
WITH RECURSIVE up(uuid, anc) AS (
  SELECT uuid, owner_uuid FROM groups
  UNION
  SELECT up.uuid, g.owner_uuid FROM up JOIN groups g ON g.uuid = up.anc
)
SELECT uuid, uuid FROM groups
UNION SELECT uuid, anc FROM up;

-- Trashed groups (trash_at set, passed or not) are few: the hidden check reads them here.
CREATE INDEX groups_trashed_idx ON groups (uuid) INCLUDE (trash_at) WHERE trash_at IS NOT NULL;

-- What the table of hidden groups said, now derived: a group is hidden from the earliest
-- trash_at on its way up (itself included). One row per trashed ancestor, so callers ask
-- EXISTS (… WHERE group_uuid = x AND trash_at <= now).
DROP TABLE trashed_groups;
CREATE VIEW hidden_groups AS
  SELECT a.group_uuid, g.trash_at
    FROM group_ancestors a JOIN groups g ON g.uuid = a.ancestor_uuid
   WHERE g.trash_at IS NOT NULL;
