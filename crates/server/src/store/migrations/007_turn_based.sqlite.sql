-- Version 7: turn-based play. A turn-based game has its move limit (`days_per_move`) and the
-- deadline of the side to move (`deadline_ms`, Unix milliseconds); both null for other games.
-- `challenges` holds the pending challenges: deleted when accepted, declined, withdrawn or
-- expired. `opponent` null: an open challenge; `side` the challenger's (0 first, 1 second) or
-- null (drawn when accepted). `turn_ratings` is the pool of turn-based ratings, apart from the
-- real-time `ratings` (same columns).
ALTER TABLE games ADD COLUMN days_per_move INTEGER;
ALTER TABLE games ADD COLUMN deadline_ms INTEGER;
CREATE TABLE IF NOT EXISTS challenges(
    code TEXT PRIMARY KEY,
    challenger INTEGER NOT NULL,
    opponent INTEGER,
    variant TEXT NOT NULL,
    side INTEGER,
    days INTEGER NOT NULL,
    listed INTEGER NOT NULL,
    created_ms INTEGER NOT NULL,
    expires_ms INTEGER NOT NULL,
    rated INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS turn_ratings(
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
);
