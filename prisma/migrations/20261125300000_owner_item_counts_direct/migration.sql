-- The per-owner counters' triggers (20261124110001) write their changes in one statement
-- straight from the transition tables. They built a jsonb object and handed it to a second
-- function that took it apart again: that doubled PostgreSQL's work per API create. Owners
-- are still written in order, so concurrent statements lock counter rows in the same order.
CREATE OR REPLACE FUNCTION owner_item_counts_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_ARGV[0] = 'groups' THEN
    INSERT INTO owner_item_counts (owner_uuid, item_type, n)
    SELECT owner_uuid, 'groups', count(*) FROM new_rows WHERE group_class <> 'role'
     GROUP BY owner_uuid ORDER BY owner_uuid
    ON CONFLICT (owner_uuid, item_type) DO UPDATE SET n = owner_item_counts.n + EXCLUDED.n;
  ELSE
    INSERT INTO owner_item_counts (owner_uuid, item_type, n)
    SELECT owner_uuid, TG_TABLE_NAME, count(*) FROM new_rows
     GROUP BY owner_uuid ORDER BY owner_uuid
    ON CONFLICT (owner_uuid, item_type) DO UPDATE SET n = owner_item_counts.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION owner_item_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_ARGV[0] = 'groups' THEN
    INSERT INTO owner_item_counts (owner_uuid, item_type, n)
    SELECT owner_uuid, 'groups', -count(*) FROM old_rows WHERE group_class <> 'role'
     GROUP BY owner_uuid ORDER BY owner_uuid
    ON CONFLICT (owner_uuid, item_type) DO UPDATE SET n = owner_item_counts.n + EXCLUDED.n;
  ELSE
    INSERT INTO owner_item_counts (owner_uuid, item_type, n)
    SELECT owner_uuid, TG_TABLE_NAME, -count(*) FROM old_rows
     GROUP BY owner_uuid ORDER BY owner_uuid
    ON CONFLICT (owner_uuid, item_type) DO UPDATE SET n = owner_item_counts.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END $$;

-- Moves only (owner_uuid changed); a group's class never changes. Most updates move nothing:
-- the join finds no row and nothing is written.
CREATE OR REPLACE FUNCTION owner_item_counts_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_ARGV[0] = 'groups' THEN
    INSERT INTO owner_item_counts (owner_uuid, item_type, n)
    SELECT owner_uuid, 'groups', sum(k) FROM (
      SELECT o.owner_uuid, -1 AS k FROM old_rows o JOIN new_rows n ON n.uuid = o.uuid
       WHERE o.owner_uuid <> n.owner_uuid AND o.group_class <> 'role'
      UNION ALL
      SELECT n.owner_uuid, 1 FROM old_rows o JOIN new_rows n ON n.uuid = o.uuid
       WHERE o.owner_uuid <> n.owner_uuid AND n.group_class <> 'role') m
     GROUP BY owner_uuid ORDER BY owner_uuid
    ON CONFLICT (owner_uuid, item_type) DO UPDATE SET n = owner_item_counts.n + EXCLUDED.n;
  ELSE
    INSERT INTO owner_item_counts (owner_uuid, item_type, n)
    SELECT owner_uuid, TG_TABLE_NAME, sum(k) FROM (
      SELECT o.owner_uuid, -1 AS k FROM old_rows o JOIN new_rows n ON n.uuid = o.uuid
       WHERE o.owner_uuid <> n.owner_uuid
      UNION ALL
      SELECT n.owner_uuid, 1 FROM old_rows o JOIN new_rows n ON n.uuid = o.uuid
       WHERE o.owner_uuid <> n.owner_uuid) m
     GROUP BY owner_uuid ORDER BY owner_uuid
    ON CONFLICT (owner_uuid, item_type) DO UPDATE SET n = owner_item_counts.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END $$;

DROP FUNCTION owner_item_counts_add(text, jsonb);
