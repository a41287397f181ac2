-- Version 8: tournaments. `tournaments.state` is a tournament's whole state (JSON, rewritten at
-- every change); `tournament_results` its results in order (JSON, appended in the same
-- transaction), from which its standings are recomputed and checked after a restart.
CREATE TABLE IF NOT EXISTS tournaments(
    id BIGINT PRIMARY KEY,
    finished BIGINT NOT NULL,
    created_ms BIGINT NOT NULL,
    state TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tournament_results(
    tournament BIGINT NOT NULL,
    seq BIGINT NOT NULL,
    result TEXT NOT NULL,
    PRIMARY KEY(tournament, seq)
);
