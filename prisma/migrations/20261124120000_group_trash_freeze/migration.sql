-- Frozen projects are few: the frozen-project checks find them through this partial index.
CREATE INDEX groups_frozen_idx ON groups (uuid) WHERE frozen_by_uuid IS NOT NULL;

-- The trash sweep finds groups whose delete_at has passed.
CREATE INDEX groups_delete_at_idx ON groups (delete_at) WHERE delete_at IS NOT NULL;
