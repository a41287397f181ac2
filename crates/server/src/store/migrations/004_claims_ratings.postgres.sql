-- Version 4: claimed nicknames and ratings (protocol 5). `password_hash` is an Argon2id PHC
-- string, `claim_skeleton` the claimed name's look-alike skeleton (unique); claimed players
-- are never pruned. `games.rated` 1 for a rated game. One `ratings` row per player and
-- variant that played a rated game.
ALTER TABLE players ADD COLUMN IF NOT EXISTS password_hash TEXT;
ALTER TABLE players ADD COLUMN IF NOT EXISTS claim_skeleton TEXT;
CREATE UNIQUE INDEX IF NOT EXISTS players_claimed ON players(claim_skeleton) WHERE claim_skeleton IS NOT NULL;
ALTER TABLE games ADD COLUMN IF NOT EXISTS rated BIGINT NOT NULL DEFAULT 0;
CREATE TABLE IF NOT EXISTS ratings(
    player BIGINT NOT NULL,
    variant TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    wins BIGINT NOT NULL,
    draws BIGINT NOT NULL,
    losses BIGINT NOT NULL,
    PRIMARY KEY(player, variant)
);
CREATE INDEX IF NOT EXISTS games_first ON games(first_player, ended_ms);
CREATE INDEX IF NOT EXISTS games_second ON games(second_player, ended_ms);
