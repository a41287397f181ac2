-- Version 3: in-game chat (protocol 4). `channel` 0 players, 1 spectators; `text` the
-- `ChatText` in JSON.
CREATE TABLE IF NOT EXISTS chat(
    game INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    channel INTEGER NOT NULL,
    player INTEGER NOT NULL,
    nickname TEXT NOT NULL,
    ply INTEGER NOT NULL,
    at_ms INTEGER NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY(game, seq)
) WITHOUT ROWID;
