-- Version 4: claimed nicknames and ratings (protocol 5). `password_hash` is an Argon2id PHC
-- string, `claim_skeleton` the claimed name's look-alike skeleton (unique); claimed players
-- are never pruned. `games.rated` 1 for a rated game. One `ratings` row per player and
-- variant that played a rated game.
ALTER TABLE players ADD COLUMN password_hash TEXT;
ALTER TABLE players ADD COLUMN claim_skeleton TEXT;
CREATE UNIQUE INDEX IF NOT EXISTS players_claimed ON players(claim_skeleton) WHERE claim_skeleton IS NOT NULL;
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
CREATE TABLE IF NOT EXISTS ratings(
    player INTEGER NOT NULL,
    variant TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    draws INTEGER NOT NULL,
    losses INTEGER NOT NULL,
    PRIMARY KEY(player, variant)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS games_first ON games(first_player, ended_ms);
CREATE INDEX IF NOT EXISTS games_second ON games(second_player, ended_ms);
