//! What either database answers, below the store's threads: the [`Backend`] trait, the rows it
//! returns, and how rows become the core's records (a row that does not parse is skipped and
//! logged, never a wrong record).

use super::{DbError, now_ms};
use crate::core::records::{
    ClaimOrigin, Loaded, Op, StoredArchive, StoredChallenge, StoredClaim, StoredGame, StoredPlayer,
    StoredRating, StoredTournament,
};
use ludus_protocol::{
    ArchivedGame, ChatChannel, ChatLine, ChatText, ClockSpec, GameId, GameResult, PlayerId, PlyProposals,
    Proposal, RecentGame,
};
use ludus_rules::Variant;

/// A live game's row before its moves (the columns of [`super::sql::LIVE_GAMES`]).
#[derive(Clone, Debug)]
pub(crate) struct GameRow {
    pub(crate) id: i64,
    pub(crate) room: String,
    /// The variant's name (a game of a variant this build does not know is skipped).
    pub(crate) variant: String,
    pub(crate) start: String,
    /// The first and the second player.
    pub(crate) players: [i64; 2],
    pub(crate) public: bool,
    pub(crate) clock_initial_ms: Option<i64>,
    pub(crate) clock_increment_ms: Option<i64>,
    pub(crate) created_ms: i64,
    pub(crate) rated: bool,
    /// A turn-based game's move limit in days, and the deadline of the side to move.
    pub(crate) days_per_move: Option<i64>,
    pub(crate) deadline_ms: Option<i64>,
}

/// A pending challenge's row (the columns of [`super::sql::CHALLENGES`]).
pub(crate) struct ChallengeRow {
    pub(crate) code: String,
    pub(crate) challenger: i64,
    pub(crate) opponent: Option<i64>,
    /// The variant's name.
    pub(crate) variant: String,
    pub(crate) side: Option<i64>,
    pub(crate) days: i64,
    pub(crate) listed: i64,
    pub(crate) created_ms: i64,
    pub(crate) expires_ms: i64,
    pub(crate) rated: i64,
}

impl ChallengeRow {
    /// The row as the core's record, or `None` (logged) for a variant this build does not know.
    fn stored(self) -> Option<StoredChallenge> {
        let Ok(variant) = Variant::parse(&self.variant) else {
            tracing::error!(code = self.code, "skipping stored challenge of unknown variant");
            return None;
        };
        Some(StoredChallenge {
            code: self.code,
            from: self.challenger.max(0) as u64,
            to: self.opponent.map(|p| p.max(0) as u64),
            variant,
            side: self.side.map(|s| s.clamp(0, 1) as u8),
            days: self.days.clamp(1, 255) as u8,
            listed: self.listed != 0,
            rated: self.rated != 0,
            created_ms: self.created_ms.max(0) as u64,
            expires_ms: self.expires_ms.max(0) as u64,
        })
    }
}

/// A move's row (the columns of [`super::sql::MOVES`]).
pub(crate) struct MoveRow {
    /// The move in notation.
    pub(crate) mv: String,
    /// Both sides' time left after it, if the game has a clock.
    pub(crate) clocks: [Option<i64>; 2],
}

/// A proposal's row (the columns of [`super::sql::PROPOSALS`]).
pub(crate) struct ProposalRow {
    pub(crate) ply: u32,
    /// The proposed move in notation.
    pub(crate) mv: String,
    /// How many spectators proposed it.
    pub(crate) count: u32,
}

/// A stored rating's row (the columns of [`super::sql::RATINGS`]).
pub(crate) struct RatingRow {
    pub(crate) player: i64,
    /// The variant's name.
    pub(crate) variant: String,
    pub(crate) rating: f64,
    pub(crate) deviation: f64,
    pub(crate) volatility: f64,
    pub(crate) games: i64,
    pub(crate) wins: i64,
    pub(crate) draws: i64,
    pub(crate) losses: i64,
}

/// A claim's row (the columns of [`super::sql::CLAIMS`]; [`super::sql::PLAYER_CLAIM`] has them
/// but the player, whom the query names).
pub(crate) struct ClaimRow {
    pub(crate) player: i64,
    pub(crate) nickname: String,
    /// The password's Argon2id PHC string.
    pub(crate) password_hash: String,
    /// The keyed hash of the claiming address, if known.
    pub(crate) address: Option<String>,
    /// When it was claimed, if known.
    pub(crate) claimed_ms: Option<i64>,
}

impl ClaimRow {
    /// The claim's origin, if both of its columns are known.
    fn origin(&self) -> Option<ClaimOrigin> {
        Some(ClaimOrigin { address: self.address.clone()?, claimed_ms: self.claimed_ms?.max(0) as u64 })
    }
}

/// A rated game's row (the columns of [`super::sql::RATED_SINCE`]).
pub(crate) struct RatedRow {
    /// The first and the second player.
    pub(crate) players: [i64; 2],
    pub(crate) ended_ms: i64,
}

/// A finished game's row (the columns of [`super::sql::ARCHIVE`]).
pub(crate) struct ArchiveRow {
    /// Whether it was public (0 or 1).
    pub(crate) public: i64,
    /// The first and the second player.
    pub(crate) players: [i64; 2],
    /// The archive (JSON), if stored.
    pub(crate) archive: Option<String>,
}

/// A finished game's row for a profile (the columns of [`super::sql::RECENT_GAMES`]).
pub(crate) struct RecentRow {
    pub(crate) id: i64,
    /// The variant's name.
    pub(crate) variant: String,
    pub(crate) first_player: i64,
    pub(crate) ended_ms: Option<i64>,
    /// Whether it was rated (0 or 1).
    pub(crate) rated: i64,
    /// The archive (JSON), if stored.
    pub(crate) archive: Option<String>,
}

/// One connection to a database, whichever it is: the writer, the reader and (SQLite) the
/// checkpointer each own one. Everything above this trait is the same for both backends.
pub(crate) trait Backend: Send + 'static {
    /// Stores these batches in one transaction.
    fn commit(&mut self, batches: &[(u64, Vec<Op>)]) -> Result<(), DbError>;
    /// The player with credential hash `hash` (current or previous) last seen at `cutoff_ms` or
    /// later.
    fn find_player(&mut self, hash: &str, cutoff_ms: u64) -> Result<Option<StoredPlayer>, DbError>;
    /// The next free player and game numbers.
    fn next_ids(&mut self) -> Result<(u64, u64), DbError>;
    /// The ends of this node's blocks of player and game numbers (one node: none).
    fn id_ends(&self) -> (u64, u64) {
        (u64::MAX, u64::MAX)
    }
    /// The live games without their moves and proposals, with their variant's name.
    fn live_games(&mut self) -> Result<Vec<GameRow>, DbError>;
    /// The pending challenges (the columns of [`super::sql::CHALLENGES`]).
    fn challenges(&mut self) -> Result<Vec<ChallengeRow>, DbError>;
    /// The tournaments to reload (id, state: the columns of [`super::sql::TOURNAMENTS`]).
    fn tournaments(&mut self) -> Result<Vec<(i64, String)>, DbError>;
    /// A tournament's results in order.
    fn tournament_results(&mut self, id: u64) -> Result<Vec<String>, DbError>;
    /// The next free tournament number.
    fn next_tournament(&mut self) -> Result<u64, DbError>;
    /// A game's moves in order, with the clocks after each.
    fn moves(&mut self, game: u64) -> Result<Vec<MoveRow>, DbError>;
    /// A game's proposals, by ply.
    fn proposals(&mut self, game: u64) -> Result<Vec<ProposalRow>, DbError>;
    /// A game's chat lines in order (the columns of [`super::sql::CHAT_LINES`]).
    fn chat(&mut self, game: u64) -> Result<Vec<ChatRow>, DbError>;
    /// A player by number.
    fn player(&mut self, id: u64) -> Result<Option<StoredPlayer>, DbError>;
    /// Every claimed nickname (the columns of [`super::sql::CLAIMS`]).
    fn claims(&mut self) -> Result<Vec<ClaimRow>, DbError>;
    /// Every stored rating (the columns of [`super::sql::RATINGS`]).
    fn ratings(&mut self) -> Result<Vec<RatingRow>, DbError>;
    /// Every stored turn-based rating (the columns of [`super::sql::TURN_RATINGS`]).
    fn turn_ratings(&mut self) -> Result<Vec<RatingRow>, DbError>;
    /// One player's turn-based ratings.
    fn player_turn_ratings(&mut self, id: u64) -> Result<Vec<RatingRow>, DbError>;
    /// One player's claimed nickname, password hash and origin, if claimed (the columns of
    /// [`super::sql::PLAYER_CLAIM`]).
    fn player_claim(&mut self, id: u64) -> Result<Option<ClaimRow>, DbError>;
    /// The rated games that ended at `since_ms` or later (the columns of [`super::sql::RATED_SINCE`]).
    fn rated_since(&mut self, since_ms: u64) -> Result<Vec<RatedRow>, DbError>;
    /// The players of the games started at `since_ms` or later.
    fn games_since(&mut self, since_ms: u64) -> Result<Vec<[i64; 2]>, DbError>;
    /// Whom claimed players met in games that changed ratings: (player, opponent).
    fn rated_opponents(&mut self) -> Result<Vec<(i64, i64)>, DbError>;
    /// One player's ratings.
    fn player_ratings(&mut self, id: u64) -> Result<Vec<RatingRow>, DbError>;
    /// The last `limit` finished games of `player`, newest first (public ones only unless
    /// `private`).
    fn recent_games(&mut self, player: u64, limit: u32, private: bool) -> Result<Vec<RecentRow>, DbError>;
    /// The finished game `game`, if it is stored and over.
    fn archive(&mut self, game: u64) -> Result<Option<ArchiveRow>, DbError>;
    /// Background upkeep (SQLite: a WAL checkpoint, the last one truncating).
    fn upkeep(&mut self, _last: bool) {}
    /// Whether [`Backend::upkeep`] does anything (else no thread is started for it).
    fn needs_upkeep(&self) -> bool {
        false
    }
}

/// A chat line's row (the columns of [`super::sql::CHAT_LINES`]), as read and as written.
pub(crate) struct ChatRow {
    /// 0: the players' channel, 1: the spectators'.
    pub(crate) channel: i64,
    pub(crate) player: i64,
    pub(crate) nickname: String,
    pub(crate) ply: i64,
    pub(crate) at_ms: i64,
    /// The text (JSON of a `ChatText`).
    pub(crate) text: String,
}

impl ChatRow {
    /// The row of a chat line to store.
    pub(crate) fn of(line: &ChatLine) -> ChatRow {
        let channel = match line.channel {
            ChatChannel::Players => 0,
            ChatChannel::Spectators => 1,
        };
        ChatRow {
            channel,
            player: line.from.0 as i64,
            nickname: line.nickname.clone(),
            ply: i64::from(line.ply),
            at_ms: line.at_ms as i64,
            text: serde_json::to_string(&line.text).unwrap_or_default(),
        }
    }
}

/// A profile's game from its row, for `player` (`None`: an archive that does not parse).
pub(super) fn recent_game(player: u64, row: RecentRow) -> Option<RecentGame> {
    let RecentRow { id, variant, first_player: first, ended_ms, rated, archive } = row;
    let archive: ArchivedGame = serde_json::from_str(archive.as_deref()?).ok()?;
    let me = if first.max(0) as u64 == player { 0 } else { 1 };
    let result = match archive.outcome.winner {
        None => GameResult::Draw,
        Some(w) if w.index() == me => GameResult::Win,
        Some(_) => GameResult::Loss,
    };
    Some(RecentGame {
        game: GameId(id.max(0) as u64),
        variant: Variant::parse(&variant).ok()?,
        opponent: archive.players[1 - me].clone(),
        result,
        rated: rated != 0,
        ended_ms: ended_ms.unwrap_or(0).max(0) as u64,
    })
}

/// A finished game's row back, or `None` (logged) when its archive is missing or unreadable.
pub(super) fn stored_archive(game: u64, row: ArchiveRow) -> Option<StoredArchive> {
    let ArchiveRow { public, players: [first, second], archive } = row;
    let archive = match serde_json::from_str::<ArchivedGame>(archive.as_deref()?) {
        Ok(a) => a,
        Err(e) => {
            tracing::warn!("game {game}: unreadable archive: {e}");
            return None;
        }
    };
    Some(StoredArchive { public: public != 0, players: [first.max(0) as u64, second.max(0) as u64], archive })
}

/// A stored chat line of `game` back, or why not.
fn chat_line(game: u64, row: ChatRow) -> Result<ChatLine, String> {
    let ChatRow { channel, player, nickname, ply, at_ms, text } = row;
    let channel = match channel {
        0 => ChatChannel::Players,
        1 => ChatChannel::Spectators,
        other => return Err(format!("unknown chat channel {other}")),
    };
    let text: ChatText = serde_json::from_str(&text).map_err(|e| format!("chat text: {e}"))?;
    Ok(ChatLine {
        game: GameId(game),
        channel,
        from: PlayerId(player.max(0) as u64),
        nickname,
        text,
        ply: ply.clamp(0, u32::MAX as i64) as u32,
        at_ms: at_ms.max(0) as u64,
    })
}

/// A live game's row as the core's record before its moves, or `None` (logged) for a variant
/// this build does not know.
fn stored_game(row: GameRow) -> Option<StoredGame> {
    let variant = match Variant::parse(&row.variant) {
        Ok(v) => v,
        Err(e) => {
            tracing::error!(game = row.id, "skipping stored game: {e}");
            return None;
        }
    };
    Some(StoredGame {
        id: row.id as u64,
        room: row.room,
        variant,
        start: row.start,
        players: [row.players[0] as u64, row.players[1] as u64],
        public: row.public,
        clock: row.clock_initial_ms.map(|initial| ClockSpec {
            initial_ms: initial.clamp(0, u32::MAX as i64) as u32,
            increment_ms: row.clock_increment_ms.unwrap_or(0).clamp(0, u32::MAX as i64) as u32,
        }),
        created_ms: row.created_ms.max(0) as u64,
        rated: row.rated,
        turn: row
            .days_per_move
            .map(|d| (d.clamp(1, 255) as u8, row.deadline_ms.unwrap_or(row.created_ms).max(0) as u64)),
        moves: Vec::new(),
        clocks: None,
        proposals: Vec::new(),
        chat: Vec::new(),
        chat_stored: 0,
    })
}

/// Everything the server needs after a (re)start, read through any backend.
pub(super) fn load(db: &mut dyn Backend) -> Result<Loaded, DbError> {
    let (next_player, next_game) = db.next_ids()?;
    let (player_end, game_end) = db.id_ends();
    let mut loaded = Loaded { next_player, next_game, player_end, game_end, ..Loaded::default() };
    let rows = db.live_games()?;
    let (games, players) = load_games(db, rows)?;
    loaded.games = games;
    loaded.players = players;
    // The pending challenges, and their challengers (kept in memory while they wait).
    loaded.challenges = db.challenges()?.into_iter().filter_map(ChallengeRow::stored).collect();
    let mut known: std::collections::HashSet<u64> = loaded.players.iter().map(|p| p.id).collect();
    for c in &loaded.challenges {
        if known.insert(c.from)
            && let Some(p) = db.player(c.from)?
        {
            loaded.players.push(p);
        }
    }
    let mut ratings: std::collections::HashMap<u64, Vec<(Variant, StoredRating)>> = Default::default();
    for row in db.ratings()? {
        if let Some((player, variant, rating)) = stored_rating(row) {
            ratings.entry(player).or_default().push((variant, rating));
        }
    }
    let mut turn_ratings: std::collections::HashMap<u64, Vec<(Variant, StoredRating)>> = Default::default();
    for row in db.turn_ratings()? {
        if let Some((player, variant, rating)) = stored_rating(row) {
            turn_ratings.entry(player).or_default().push((variant, rating));
        }
    }
    for row in db.claims()? {
        let id = row.player.max(0) as u64;
        let ratings = ratings.remove(&id).unwrap_or_default();
        let turn_ratings = turn_ratings.remove(&id).unwrap_or_default();
        let origin = row.origin();
        loaded.claims.push(StoredClaim {
            id,
            nickname: row.nickname,
            password_hash: row.password_hash,
            ratings,
            turn_ratings,
            origin,
        });
    }
    loaded.next_tournament = db.next_tournament()?;
    for (id, state) in db.tournaments()? {
        let id = id.max(0) as u64;
        let results = db.tournament_results(id)?;
        loaded.tournaments.push(StoredTournament { id, state, results });
    }
    let day = crate::core::RATED_PAIR_WINDOW.as_millis() as u64;
    for RatedRow { players: [first, second], ended_ms } in db.rated_since(now_ms().saturating_sub(day))? {
        loaded.rated_games.push(([first.max(0) as u64, second.max(0) as u64], ended_ms.max(0) as u64));
    }
    let day = crate::core::GAMES_DAY.as_millis() as u64;
    loaded.games_today = db
        .games_since(now_ms().saturating_sub(day))?
        .into_iter()
        .map(|[a, b]| [a.max(0) as u64, b.max(0) as u64])
        .collect();
    loaded.rated_opponents =
        db.rated_opponents()?.into_iter().map(|(p, o)| (p.max(0) as u64, o.max(0) as u64)).collect();
    Ok(loaded)
}

/// A player's claim with their ratings, as stored.
pub(crate) fn stored_claim(db: &mut dyn Backend, id: u64) -> Result<Option<StoredClaim>, DbError> {
    let Some(row) = db.player_claim(id)? else {
        return Ok(None);
    };
    let ratings =
        db.player_ratings(id)?.into_iter().filter_map(stored_rating).map(|(_, v, r)| (v, r)).collect();
    let turn_ratings =
        db.player_turn_ratings(id)?.into_iter().filter_map(stored_rating).map(|(_, v, r)| (v, r)).collect();
    let origin = row.origin();
    Ok(Some(StoredClaim {
        id,
        nickname: row.nickname,
        password_hash: row.password_hash,
        ratings,
        turn_ratings,
        origin,
    }))
}

/// A stored rating row back: (player, variant, rating), or `None` (logged) for a variant this
/// build does not know.
fn stored_rating(row: RatingRow) -> Option<(u64, Variant, StoredRating)> {
    let RatingRow { player, variant, rating, deviation, volatility, games, wins, draws, losses } = row;
    let Ok(parsed) = Variant::parse(&variant) else {
        tracing::error!(player, "skipping stored rating of unknown variant {variant}");
        return None;
    };
    let count = |v: i64| v.clamp(0, u32::MAX as i64) as u32;
    let stored = StoredRating {
        rating,
        deviation,
        volatility,
        games: count(games),
        wins: count(wins),
        draws: count(draws),
        losses: count(losses),
    };
    Some((player.max(0) as u64, parsed, stored))
}

/// Live games (their rows) with their moves, proposals and chat, and their players.
pub(crate) fn load_games(
    db: &mut dyn Backend,
    rows: Vec<GameRow>,
) -> Result<(Vec<StoredGame>, Vec<StoredPlayer>), DbError> {
    let mut games: Vec<StoredGame> = rows.into_iter().filter_map(stored_game).collect();
    for game in &mut games {
        for MoveRow { mv, clocks: [first, second] } in db.moves(game.id)? {
            game.moves.push(mv);
            game.clocks = first.zip(second).map(|(a, b)| [a.max(0) as u64, b.max(0) as u64]);
        }
        for ProposalRow { ply, mv, count } in db.proposals(game.id)? {
            let played = game.moves.get(ply as usize).cloned().unwrap_or_default();
            match game.proposals.last_mut() {
                Some(p) if p.ply == ply => p.proposals.push(Proposal { mv, count }),
                _ => {
                    game.proposals.push(PlyProposals { ply, played, proposals: vec![Proposal { mv, count }] })
                }
            }
        }
        for p in &mut game.proposals {
            p.proposals.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.mv.cmp(&b.mv)));
        }
        for row in db.chat(game.id)? {
            game.chat_stored += 1;
            match chat_line(game.id, row) {
                Ok(line) => game.chat.push(line),
                Err(e) => tracing::error!(game = game.id, "skipping stored chat line: {e}"),
            }
        }
    }
    let mut ids: Vec<u64> = games.iter().flat_map(|g| g.players).collect();
    ids.sort_unstable();
    ids.dedup();
    let mut players = Vec::new();
    for id in ids {
        if let Some(p) = db.player(id)? {
            players.push(p);
        }
    }
    Ok((games, players))
}
