-- Version 3: in-game chat (protocol 4). `channel` 0 players, 1 spectators; `text` the
-- `ChatText` in JSON.
CREATE TABLE IF NOT EXISTS chat(
    game BIGINT NOT NULL,
    seq BIGINT NOT NULL,
    channel BIGINT NOT NULL,
    player BIGINT NOT NULL,
    nickname TEXT NOT NULL,
    ply BIGINT NOT NULL,
    at_ms BIGINT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY(game, seq)
);
