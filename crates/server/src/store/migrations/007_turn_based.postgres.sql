-- Version 7: turn-based play. A turn-based game has its move limit (`days_per_move`) and the
-- deadline of the side to move (`deadline_ms`, Unix milliseconds); both null for other games.
-- `challenges` holds the pending challenges: deleted when accepted, declined, withdrawn or
-- expired. `opponent` null: an open challenge; `side` the challenger's (0 first, 1 second) or
-- null (drawn when accepted). `turn_ratings` is the pool of turn-based ratings, apart from the
-- real-time `ratings` (same columns).
ALTER TABLE games ADD COLUMN IF NOT EXISTS days_per_move BIGINT;
ALTER TABLE games ADD COLUMN IF NOT EXISTS deadline_ms BIGINT;
CREATE TABLE IF NOT EXISTS challenges(
    code TEXT PRIMARY KEY,
    challenger BIGINT NOT NULL,
    opponent BIGINT,
    variant TEXT NOT NULL,
    side BIGINT,
    days BIGINT NOT NULL,
    listed BIGINT NOT NULL,
    created_ms BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL,
    rated BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS turn_ratings(
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
