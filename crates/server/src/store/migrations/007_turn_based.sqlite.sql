-- Version 7: turn-based play. A turn-based game has its move limit (`days_per_move`) and the
-- deadline of the side to move (`deadline_ms`, Unix milliseconds); both null for other games.
-- `challenges` holds the pending challenges: deleted when accepted, declined, withdrawn or
-- expired. `opponent` null: an open challenge; `side` the challenger's (0 first, 1 second) or
-- null (drawn when accepted).
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
    expires_ms INTEGER NOT NULL
);
