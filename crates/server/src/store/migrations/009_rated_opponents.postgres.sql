-- Version 9: whom each claimed player has met in games that changed ratings (a few each: a
-- result against a player with few different opponents counts little, see `core::rated`).
CREATE TABLE IF NOT EXISTS rated_opponents(
    player BIGINT NOT NULL,
    opponent BIGINT NOT NULL,
    PRIMARY KEY(player, opponent)
);
