-- Version 9: whom each claimed player has met in games that changed ratings (a few each: a
-- result against a player with few different opponents counts little, see `core::rated`).
CREATE TABLE IF NOT EXISTS rated_opponents(
    player INTEGER NOT NULL,
    opponent INTEGER NOT NULL,
    PRIMARY KEY(player, opponent)
) WITHOUT ROWID;
