-- Version 8: a profile's recent games read in index order, never sorted in memory. One index
-- per seat over the finished games, by end and number (every game of a player), and one over
-- their public games alone (another player's profile): a read walks at most its limit of
-- entries from each, however many games the player has finished.
CREATE INDEX IF NOT EXISTS games_first_done ON games(first_player, ended_ms, id) WHERE live = 0;
CREATE INDEX IF NOT EXISTS games_second_done ON games(second_player, ended_ms, id) WHERE live = 0;
CREATE INDEX IF NOT EXISTS games_first_public ON games(first_player, public, ended_ms, id) WHERE live = 0;
CREATE INDEX IF NOT EXISTS games_second_public ON games(second_player, public, ended_ms, id) WHERE live = 0;
DROP INDEX IF EXISTS games_first;
DROP INDEX IF EXISTS games_second;
