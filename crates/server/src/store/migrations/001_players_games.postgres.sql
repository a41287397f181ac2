-- Version 1: players, games, their moves and the spectators' proposals.
CREATE TABLE IF NOT EXISTS players(
    id BIGINT PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    nickname TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    prev_hash TEXT,
    last_seen_ms BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS games(
    id BIGINT PRIMARY KEY,
    room TEXT NOT NULL,
    variant TEXT NOT NULL,
    start TEXT NOT NULL,
    first_player BIGINT NOT NULL,
    second_player BIGINT NOT NULL,
    public BIGINT NOT NULL,
    clock_initial_ms BIGINT,
    clock_increment_ms BIGINT,
    created_ms BIGINT NOT NULL,
    live BIGINT NOT NULL,
    outcome TEXT,
    ended_ms BIGINT,
    archive TEXT
);
CREATE INDEX IF NOT EXISTS games_live ON games(live) WHERE live = 1;
CREATE TABLE IF NOT EXISTS moves(
    game BIGINT NOT NULL,
    ply BIGINT NOT NULL,
    mv TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    first_ms BIGINT,
    second_ms BIGINT,
    PRIMARY KEY(game, ply)
);
CREATE TABLE IF NOT EXISTS proposals(
    game BIGINT NOT NULL,
    ply BIGINT NOT NULL,
    mv TEXT NOT NULL,
    count BIGINT NOT NULL,
    PRIMARY KEY(game, ply, mv)
);
