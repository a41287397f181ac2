-- Version 6: where claims come from. `claim_address` is a keyed hash of the claiming
-- address (never the address), `claimed_ms` when; both null for claims made before.
-- `games_rated_ended` finds the rated games of the last day at start.
ALTER TABLE players ADD COLUMN claim_address TEXT;
ALTER TABLE players ADD COLUMN claimed_ms INTEGER;
CREATE INDEX IF NOT EXISTS games_rated_ended ON games(ended_ms) WHERE rated = 1;
