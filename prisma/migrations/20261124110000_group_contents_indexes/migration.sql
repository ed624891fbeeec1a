-- groups.contents (groups.md §3): each type of a project's contents is counted and paged
-- through one index on (owner_uuid, default order, uuid). The trailing columns are what the
-- contents query tests on every row (trash, group class), so counts and the uuids of a page
-- come from index-only scans, and a page at a deep offset skips index entries, not rows.
CREATE INDEX groups_owner_contents_idx ON groups (owner_uuid, modified_at DESC, uuid, group_class, trash_at);
CREATE INDEX collections_owner_contents_idx ON collections (owner_uuid, modified_at DESC, uuid, trash_at);
CREATE INDEX container_requests_owner_contents_idx ON container_requests (owner_uuid, modified_at DESC, uuid);
CREATE INDEX workflows_owner_contents_idx ON workflows (owner_uuid, modified_at DESC, uuid);
