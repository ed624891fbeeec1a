-- The edges out of one node, for the recursive walks of materialized_permissions. PostgreSQL
-- cannot push a join condition into a UNION ALL branch that has a WHERE clause (the links
-- branch of permission_edges), so a walk joined to the view read every permission link at each
-- step. Called LATERAL with the node, this function is inlined and each branch becomes an index
-- probe (groups by owner, links through links_permission_edges_tail_idx).
CREATE FUNCTION permission_edges_from(node text)
  RETURNS TABLE (head_uuid text, level smallint)
  LANGUAGE sql STABLE
AS $$
  SELECT g.uuid, 3::smallint FROM groups g WHERE g.owner_uuid = node COLLATE "C"
  UNION ALL
  SELECT l.head_uuid,
         (CASE l.name WHEN 'can_manage' THEN 3 WHEN 'can_write' THEN 2 ELSE 1 END)::smallint
    FROM links l
   WHERE l.tail_uuid = node COLLATE "C"
     AND l.link_class = 'permission'
     AND l.name IN ('can_read', 'can_write', 'can_manage', 'can_login')
     AND l.tail_uuid IS NOT NULL AND l.head_uuid IS NOT NULL
     AND NOT (substr(l.head_uuid, 7, 5) = 'tpzed' AND l.name <> 'can_manage')
$$;
