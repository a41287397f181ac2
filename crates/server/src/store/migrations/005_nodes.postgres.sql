-- Version 5: several nodes on one database (PostgreSQL; SQLite has the same tables, unused).
-- `ludus_nodes`: every node, its public addresses, its lease (database clock, Unix ms) and
-- its published lobby (JSON); `incarnation` grows at every start of a node of that name,
-- `dead` is set by the node that took its games over. `games.owner`: the node that owns a
-- live game. `ludus_ids`: the next free player and game numbers, handed out in blocks.
CREATE TABLE IF NOT EXISTS ludus_nodes(
    name TEXT PRIMARY KEY,
    incarnation BIGINT NOT NULL,
    udp TEXT,
    ws TEXT,
    http TEXT,
    lease_until_ms BIGINT NOT NULL,
    dead BIGINT NOT NULL DEFAULT 0,
    started_ms BIGINT NOT NULL,
    lobby TEXT
);
ALTER TABLE games ADD COLUMN IF NOT EXISTS owner TEXT;
CREATE INDEX IF NOT EXISTS games_owner ON games(owner) WHERE live = 1;
CREATE TABLE IF NOT EXISTS ludus_ids(kind TEXT PRIMARY KEY, next BIGINT NOT NULL);
INSERT INTO ludus_ids(kind, next)
    SELECT 'player', COALESCE(MAX(id), 0) + 1 FROM (SELECT id FROM players
    UNION ALL SELECT first_player FROM games UNION ALL SELECT second_player FROM games) AS ids
    ON CONFLICT DO NOTHING;
INSERT INTO ludus_ids(kind, next) SELECT 'game', COALESCE(MAX(id), 0) + 1 FROM games ON CONFLICT DO NOTHING;
