-- Frozen projects are few: the frozen-project checks find them through this partial index.
CREATE INDEX groups_frozen_idx ON groups (uuid) WHERE frozen_by_uuid IS NOT NULL;

-- The trash sweep finds groups whose delete_at has passed.
CREATE INDEX groups_delete_at_idx ON groups (delete_at) WHERE delete_at IS NOT NULL;

-- How far a periodic job has got (the trash sweep applies future trash_at once it passes).
CREATE TABLE job_marks (
  name text COLLATE "C" PRIMARY KEY,
  done_until timestamptz NOT NULL
);
