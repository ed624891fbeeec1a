-- The edges out of one node, for the recursive walks of materialized_permissions. PostgreSQL
-- cannot push a join condition into a UNION ALL branch that has a WHERE clause (the links
-- branch of permission_edges), so a walk joined to the view read every permission link at each
-- step. Called LATERAL with the node, permission_edges_from is inlined and each branch becomes
-- an index probe (groups by owner, links through links_permission_edges_tail_idx).

-- Permission links as edges, defined once: permission_edges and permission_edges_from read it.
-- Its WHERE clause is the predicate of the links_permission_edges_* partial indexes.
CREATE VIEW permission_link_edges AS
  SELECT tail_uuid, head_uuid,
         (CASE name WHEN 'can_manage' THEN 3 WHEN 'can_write' THEN 2 ELSE 1 END)::smallint AS level
    FROM links
   WHERE link_class = 'permission'
     AND name IN ('can_read', 'can_write', 'can_manage', 'can_login')
     AND tail_uuid IS NOT NULL AND head_uuid IS NOT NULL
     AND NOT (substr(head_uuid, 7, 5) = 'tpzed' AND name <> 'can_manage');

CREATE OR REPLACE VIEW permission_edges AS
  SELECT owner_uuid AS tail_uuid, uuid AS head_uuid, 3::smallint AS level
    FROM groups
  UNION ALL
  SELECT tail_uuid, head_uuid, level FROM permission_link_edges;

CREATE FUNCTION permission_edges_from(node text)
  RETURNS TABLE (head_uuid text, level smallint)
  LANGUAGE sql STABLE
AS $$
  SELECT g.uuid, 3::smallint FROM groups g WHERE g.owner_uuid = node COLLATE "C"
  UNION ALL
  SELECT e.head_uuid, e.level FROM permission_link_edges e WHERE e.tail_uuid = node COLLATE "C"
$$;
