-- svc: indexes for list filters (lists-and-filters.md §10–§12).
--
-- Text search (`["any", "ilike", "%text%"]`) compiles to
--   (<search expression>) ILIKE $1 AND (<attr> ILIKE $2 OR ...)
-- where <search expression> is the concatenated text of the resource's searchable attributes
-- (packages/list-engine/src/filters/search.ts, searchExpression). The trigram indexes below are
-- built on exactly that expression, so the planner can answer the first part from the index; a
-- unit test (filters/search.test.ts) keeps the two texts identical. The expression uses only
-- immutable functions (coalesce, ||, jsonb's text output), as index expressions must. Its
-- collation is "C", like the text columns it is built from, and so is the query's.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX collections_search_trgm_idx ON collections USING gin ((coalesce("name", '') || ' ' || coalesce("description", '') || ' ' || coalesce("properties"::text, '') || ' ' || coalesce("storage_classes_desired"::text, '') || ' ' || coalesce("storage_classes_confirmed"::text, '')) gin_trgm_ops);
CREATE INDEX groups_search_trgm_idx ON groups USING gin ((coalesce("name", '') || ' ' || coalesce("group_class", '') || ' ' || coalesce("description", '') || ' ' || coalesce("properties"::text, '')) gin_trgm_ops);

-- Subproperty and whole-hash filters compile to jsonb `@>` (=, !=, in, not in, contains),
-- `?` (exists, and as a key test in front of <, like, ...) and `?|` (contains on a hash).
-- The default jsonb_ops operator class serves all three (jsonb_path_ops has no `?`).
CREATE INDEX collections_properties_idx ON collections USING gin (properties);
CREATE INDEX groups_properties_idx ON groups USING gin (properties);
CREATE INDEX container_requests_properties_idx ON container_requests USING gin (properties);
CREATE INDEX links_properties_idx ON links USING gin (properties);
CREATE INDEX logs_properties_idx ON logs USING gin (properties);
