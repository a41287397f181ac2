-- Version 8: tournaments. `tournaments.state` is a tournament's whole state (JSON, rewritten at
-- every change); `tournament_results` its results in order (JSON, appended in the same
-- transaction), from which its standings are recomputed and checked after a restart.
CREATE TABLE IF NOT EXISTS tournaments(
    id INTEGER PRIMARY KEY,
    finished INTEGER NOT NULL,
    created_ms INTEGER NOT NULL,
    state TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tournament_results(
    tournament INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    result TEXT NOT NULL,
    PRIMARY KEY(tournament, seq)
);
