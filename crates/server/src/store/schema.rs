//! The schema, version by version, in both dialects (`migrations/NNN_name.DIALECT.sql`, included
//! at build time), and the statements both backends run.

/// One schema change, in both dialects. Both backends apply the same list in order and record
/// the last version applied in `ludus_schema`.
pub(crate) struct Migration {
    pub version: i64,
    pub sqlite: &'static str,
    #[cfg_attr(not(feature = "postgres"), allow(dead_code))]
    pub postgres: &'static str,
    /// A step in code after the statements, SQLite only. It runs again at every open of a
    /// database already past this version, so it must find its own work done and leave it.
    pub upgrade: Option<Upgrade>,
}

/// A schema change that statements alone cannot make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Upgrade {
    /// Databases made before credentials were hashed kept them in clear (`players.token`):
    /// each is replaced by its hash (`token_hash`), so that a stolen file signs nobody in.
    HashCredentials,
}

/// The schema, version by version (append only).
pub(crate) const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        sqlite: include_str!("migrations/001_players_games.sqlite.sql"),
        postgres: include_str!("migrations/001_players_games.postgres.sql"),
        upgrade: Some(Upgrade::HashCredentials),
    },
    Migration {
        version: 2,
        sqlite: include_str!("migrations/002_previous_credential.sqlite.sql"),
        postgres: include_str!("migrations/002_previous_credential.postgres.sql"),
        upgrade: None,
    },
    Migration {
        version: 3,
        sqlite: include_str!("migrations/003_chat.sqlite.sql"),
        postgres: include_str!("migrations/003_chat.postgres.sql"),
        upgrade: None,
    },
    Migration {
        version: 4,
        sqlite: include_str!("migrations/004_claims_ratings.sqlite.sql"),
        postgres: include_str!("migrations/004_claims_ratings.postgres.sql"),
        upgrade: None,
    },
    Migration {
        version: 5,
        sqlite: include_str!("migrations/005_nodes.sqlite.sql"),
        postgres: include_str!("migrations/005_nodes.postgres.sql"),
        upgrade: None,
    },
    Migration {
        version: 6,
        sqlite: include_str!("migrations/006_claim_origins.sqlite.sql"),
        postgres: include_str!("migrations/006_claim_origins.postgres.sql"),
        upgrade: None,
    },
    Migration {
        version: 7,
        sqlite: include_str!("migrations/007_turn_based.sqlite.sql"),
        postgres: include_str!("migrations/007_turn_based.postgres.sql"),
        upgrade: None,
    },
    Migration {
        version: 8,
        sqlite: include_str!("migrations/008_recent_games.sqlite.sql"),
        postgres: include_str!("migrations/008_recent_games.postgres.sql"),
        upgrade: None,
    },
    Migration {
        version: 9,
        sqlite: include_str!("migrations/009_rated_opponents.sqlite.sql"),
        postgres: include_str!("migrations/009_rated_opponents.postgres.sql"),
        upgrade: None,
    },
    Migration {
        version: 10,
        sqlite: include_str!("migrations/010_tournaments.sqlite.sql"),
        postgres: include_str!("migrations/010_tournaments.postgres.sql"),
        upgrade: None,
    },
];

/// The statements both backends run, written with `?N` parameters (PostgreSQL's `$N` is made by
/// [`pg::dialect`]).
pub(crate) mod sql {
    pub const NEW_PLAYER: &str = "INSERT INTO players(id, token_hash, nickname, created_ms, last_seen_ms)
         VALUES (?1, ?2, ?3, ?4, ?4)";
    pub const CREDENTIAL: &str =
        "UPDATE players SET token_hash = ?2, prev_hash = ?3, last_seen_ms = ?4 WHERE id = ?1";
    pub const NICKNAME: &str = "UPDATE players SET nickname = ?2 WHERE id = ?1";
    pub const NEW_GAME: &str =
        "INSERT INTO games(id, room, variant, start, first_player, second_player, public,
         clock_initial_ms, clock_increment_ms, created_ms, live, rated)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, 1, ?11)";
    pub const MOVE: &str =
        "INSERT INTO moves(game, ply, mv, at_ms, first_ms, second_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
    pub const PROPOSAL: &str = "INSERT INTO proposals(game, ply, mv, count) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT(game, ply, mv) DO UPDATE SET count = excluded.count";
    pub const FINISH: &str =
        "UPDATE games SET live = 0, outcome = ?2, ended_ms = ?3, archive = ?4 WHERE id = ?1";
    pub const PRUNE: &str = "DELETE FROM players WHERE last_seen_ms < ?1 AND password_hash IS NULL
         AND id NOT IN (SELECT first_player FROM games WHERE live = 1)
         AND id NOT IN (SELECT second_player FROM games WHERE live = 1)
         AND id NOT IN (SELECT challenger FROM challenges)";
    pub const FIND_PLAYER: &str = "SELECT id, token_hash, prev_hash, last_seen_ms, nickname FROM players
         WHERE (token_hash = ?1 OR prev_hash = ?1) AND last_seen_ms >= ?2";
    pub const PLAYER: &str =
        "SELECT id, token_hash, prev_hash, last_seen_ms, nickname FROM players WHERE id = ?1";
    /// Past every stored player and every player of a stored game: a pruned player's number is
    /// never given again (a profile lists games by player number).
    pub const NEXT_PLAYER: &str = "SELECT COALESCE(MAX(id), 0) + 1 FROM (SELECT id FROM players
         UNION ALL SELECT first_player FROM games UNION ALL SELECT second_player FROM games) AS ids";
    pub const NEXT_GAME: &str = "SELECT COALESCE(MAX(id), 0) + 1 FROM games";
    pub const LIVE_GAMES: &str = "SELECT id, room, variant, start, first_player, second_player, public,
         clock_initial_ms, clock_increment_ms, created_ms, rated, days_per_move, deadline_ms
         FROM games WHERE live = 1 ORDER BY id";
    pub const TURN_DEADLINE: &str = "UPDATE games SET days_per_move = ?2, deadline_ms = ?3 WHERE id = ?1";
    pub const NEW_CHALLENGE: &str = "INSERT INTO challenges(code, challenger, opponent, variant, side, days,
         listed, created_ms, expires_ms, rated) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";
    pub const TURN_RATING: &str =
        "INSERT INTO turn_ratings(player, variant, rating, deviation, volatility, games, wins, draws, losses)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
         ON CONFLICT(player, variant) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation,
         volatility = excluded.volatility, games = excluded.games, wins = excluded.wins,
         draws = excluded.draws, losses = excluded.losses";
    pub const TURN_RATINGS: &str =
        "SELECT player, variant, rating, deviation, volatility, games, wins, draws, losses
         FROM turn_ratings ORDER BY player, variant";
    pub const PLAYER_TURN_RATINGS: &str =
        "SELECT player, variant, rating, deviation, volatility, games, wins, draws, losses
         FROM turn_ratings WHERE player = ?1 ORDER BY variant";
    pub const END_CHALLENGE: &str = "DELETE FROM challenges WHERE code = ?1";
    pub const CHALLENGES: &str = "SELECT code, challenger, opponent, variant, side, days, listed, created_ms,
         expires_ms, rated FROM challenges ORDER BY created_ms, code";
    /// A look-alike claimed meanwhile on another node (several nodes) is left as it is: the
    /// claim is not stored rather than the writer stopping on the unique index.
    pub const CLAIM: &str = "UPDATE players SET claim_skeleton = ?2, password_hash = ?3 WHERE id = ?1
         AND NOT EXISTS (SELECT 1 FROM players WHERE claim_skeleton = ?2 AND id <> ?1)";
    pub const PLAYER_CLAIM: &str = "SELECT nickname, password_hash, claim_address, claimed_ms FROM players
         WHERE id = ?1 AND password_hash IS NOT NULL";
    pub const CLAIM_ORIGIN: &str = "UPDATE players SET claim_address = ?2, claimed_ms = ?3 WHERE id = ?1";
    pub const UNRATED: &str = "UPDATE games SET rated = 0 WHERE id = ?1";
    pub const RATED_OPPONENT: &str =
        "INSERT INTO rated_opponents(player, opponent) VALUES (?1, ?2) ON CONFLICT DO NOTHING";
    pub const GAMES_SINCE: &str = "SELECT first_player, second_player FROM games WHERE created_ms >= ?1";
    pub const RATED_OPPONENTS: &str =
        "SELECT player, opponent FROM rated_opponents ORDER BY player, opponent";
    pub const RATED_SINCE: &str = "SELECT first_player, second_player, ended_ms FROM games
         WHERE rated = 1 AND live = 0 AND ended_ms >= ?1";
    pub const PLAYER_RATINGS: &str =
        "SELECT player, variant, rating, deviation, volatility, games, wins, draws, losses
         FROM ratings WHERE player = ?1 ORDER BY variant";
    pub const RATING: &str =
        "INSERT INTO ratings(player, variant, rating, deviation, volatility, games, wins, draws, losses)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
         ON CONFLICT(player, variant) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation,
         volatility = excluded.volatility, games = excluded.games, wins = excluded.wins,
         draws = excluded.draws, losses = excluded.losses";
    pub const CLAIMS: &str = "SELECT id, nickname, password_hash, claim_address, claimed_ms FROM players
         WHERE password_hash IS NOT NULL ORDER BY id";
    pub const RATINGS: &str =
        "SELECT player, variant, rating, deviation, volatility, games, wins, draws, losses
         FROM ratings ORDER BY player, variant";
    /// A player's last finished games, newest first: the last `?2` of each seat, each read in
    /// the order of its index (`games_first_done`, `games_second_done`), then the two merged.
    /// Bounded by the limit, not by how many games the player has finished.
    pub const RECENT_GAMES: &str = "SELECT id, variant, first_player, ended_ms, rated, archive FROM (
         SELECT id, variant, first_player, ended_ms, rated, archive FROM games
         WHERE first_player = ?1 AND live = 0 ORDER BY ended_ms DESC, id DESC LIMIT ?2) AS first_seat
         UNION ALL SELECT id, variant, first_player, ended_ms, rated, archive FROM (
         SELECT id, variant, first_player, ended_ms, rated, archive FROM games
         WHERE second_player = ?1 AND live = 0 ORDER BY ended_ms DESC, id DESC LIMIT ?2) AS second_seat
         ORDER BY ended_ms DESC, id DESC LIMIT ?2";
    /// [`RECENT_GAMES`] of the public games alone (`games_first_public`, `games_second_public`):
    /// however many private games the player has, they are not walked through.
    pub const RECENT_PUBLIC_GAMES: &str = "SELECT id, variant, first_player, ended_ms, rated, archive FROM (
         SELECT id, variant, first_player, ended_ms, rated, archive FROM games
         WHERE first_player = ?1 AND public = 1 AND live = 0 ORDER BY ended_ms DESC, id DESC LIMIT ?2)
         AS first_seat
         UNION ALL SELECT id, variant, first_player, ended_ms, rated, archive FROM (
         SELECT id, variant, first_player, ended_ms, rated, archive FROM games
         WHERE second_player = ?1 AND public = 1 AND live = 0 ORDER BY ended_ms DESC, id DESC LIMIT ?2)
         AS second_seat
         ORDER BY ended_ms DESC, id DESC LIMIT ?2";
    pub const ARCHIVE: &str =
        "SELECT public, first_player, second_player, archive FROM games WHERE id = ?1 AND live = 0";
    pub const MOVES: &str = "SELECT mv, first_ms, second_ms FROM moves WHERE game = ?1 ORDER BY ply";
    pub const PROPOSALS: &str = "SELECT ply, mv, count FROM proposals WHERE game = ?1 ORDER BY ply";
    pub const CHAT_LINE: &str = "INSERT INTO chat(game, seq, channel, player, nickname, ply, at_ms, text)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";
    pub const SAVE_TOURNAMENT: &str = "INSERT INTO tournaments(id, finished, created_ms, state)
         VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT(id) DO UPDATE SET finished = excluded.finished, state = excluded.state";
    pub const TOURNAMENT_RESULT: &str =
        "INSERT INTO tournament_results(tournament, seq, result) VALUES (?1, ?2, ?3)";
    /// The tournaments not finished, and the last 50 finished ones.
    pub const TOURNAMENTS: &str = "SELECT id, state FROM tournaments WHERE finished = 0
         OR id IN (SELECT id FROM tournaments WHERE finished = 1 ORDER BY id DESC LIMIT 50) ORDER BY id";
    pub const TOURNAMENT_RESULTS: &str =
        "SELECT result FROM tournament_results WHERE tournament = ?1 ORDER BY seq";
    pub const NEXT_TOURNAMENT: &str = "SELECT COALESCE(MAX(id), 0) + 1 FROM tournaments";
    pub const CHAT_LINES: &str =
        "SELECT channel, player, nickname, ply, at_ms, text FROM chat WHERE game = ?1 ORDER BY seq";
}
