-- Version 9: `rated_opponents`, whom each claimed player has met in games that changed
-- ratings (a few each: a result against a player with few different opponents counts
-- little, see `core::rated`); `games_created` finds the games started within the last day
-- at start (the daily cap on games, see `core::daily`).
CREATE TABLE IF NOT EXISTS rated_opponents(
    player BIGINT NOT NULL,
    opponent BIGINT NOT NULL,
    PRIMARY KEY(player, opponent)
);
CREATE INDEX IF NOT EXISTS games_created ON games(created_ms);
