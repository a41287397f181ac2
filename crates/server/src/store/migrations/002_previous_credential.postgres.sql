-- Version 2: an index of the previous credentials (SQLite databases made before
-- credentials were hashed get it from the upgrade of version 1).
CREATE INDEX IF NOT EXISTS players_prev ON players(prev_hash) WHERE prev_hash IS NOT NULL;
