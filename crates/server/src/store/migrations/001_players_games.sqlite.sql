-- Version 1: players, games, their moves and the spectators' proposals.
CREATE TABLE IF NOT EXISTS players(
    id INTEGER PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    nickname TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    prev_hash TEXT,
    last_seen_ms INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS games(
    id INTEGER PRIMARY KEY,
    room TEXT NOT NULL,
    variant TEXT NOT NULL,
    start TEXT NOT NULL,
    first_player INTEGER NOT NULL,
    second_player INTEGER NOT NULL,
    public INTEGER NOT NULL,
    clock_initial_ms INTEGER,
    clock_increment_ms INTEGER,
    created_ms INTEGER NOT NULL,
    live INTEGER NOT NULL,
    outcome TEXT,
    ended_ms INTEGER,
    archive TEXT
);
CREATE INDEX IF NOT EXISTS games_live ON games(live) WHERE live = 1;
CREATE TABLE IF NOT EXISTS moves(
    game INTEGER NOT NULL,
    ply INTEGER NOT NULL,
    mv TEXT NOT NULL,
    at_ms INTEGER NOT NULL,
    first_ms INTEGER,
    second_ms INTEGER,
    PRIMARY KEY(game, ply)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS proposals(
    game INTEGER NOT NULL,
    ply INTEGER NOT NULL,
    mv TEXT NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY(game, ply, mv)
) WITHOUT ROWID;
