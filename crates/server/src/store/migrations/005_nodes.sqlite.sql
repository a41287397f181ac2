-- Version 5: several nodes on one database (PostgreSQL; SQLite has the same tables, unused).
-- `ludus_nodes`: every node, its public addresses, its lease (database clock, Unix ms) and
-- its published lobby (JSON); `incarnation` grows at every start of a node of that name,
-- `dead` is set by the node that took its games over. `games.owner`: the node that owns a
-- live game. `ludus_ids`: the next free player and game numbers, handed out in blocks.
CREATE TABLE IF NOT EXISTS ludus_nodes(
    name TEXT PRIMARY KEY,
    incarnation INTEGER NOT NULL,
    udp TEXT,
    ws TEXT,
    http TEXT,
    lease_until_ms INTEGER NOT NULL,
    dead INTEGER NOT NULL DEFAULT 0,
    started_ms INTEGER NOT NULL,
    lobby TEXT
) WITHOUT ROWID;
ALTER TABLE games ADD COLUMN owner TEXT;
CREATE TABLE IF NOT EXISTS ludus_ids(kind TEXT PRIMARY KEY, next INTEGER NOT NULL) WITHOUT ROWID;
