//! Limits: the tunables of the game logic, the per-connection message budget (a token bucket
//! with strikes), the strikes of an address, and the checks of what a request carries (clocks
//! and moves).

use super::{Refusal, refuse};
use ludus_protocol::{ClockSpec, ErrorCode};
use ludus_rules::{AnyGame, AnyMove};
use std::time::{Duration, Instant};

/// Tunables of the game logic.
#[derive(Clone, Debug)]
pub struct Limits {
    /// How long a disconnected player's seat is held before the game is lost (`Abandoned`).
    pub seat_hold: Duration,
    /// A connection must say `Hello` within this time.
    pub hello_timeout: Duration,
    /// Messages a connection may send in a burst.
    pub burst: f64,
    /// Messages a connection may send per second, sustained.
    pub rate: f64,
    /// Refused (rate-limited or malformed) messages after which a connection is dropped.
    pub max_strikes: u32,
    /// Shortest interval between two proposal updates sent to a game's spectators.
    pub proposal_interval: Duration,
    /// Shortest interval between two spectator counts sent to a game's players and spectators
    /// ([`SPECTATOR_COUNT_INTERVAL`]); zero sends every change at once.
    pub spectator_count_interval: Duration,
    /// Shortest initial time of a clock, in milliseconds (tests lower it).
    pub min_clock_ms: u32,
    /// A session credential unused this long expires (`--credential-days`).
    pub credential_lifetime: Duration,
    /// Wrong room codes one address may try (within [`Limits::code_window`]) before a cool-down.
    pub code_guesses: u32,
    /// The window in which wrong room codes are counted.
    pub code_window: Duration,
    /// How long an address that guessed too many codes is refused every code.
    pub code_cooldown: Duration,
    /// Chat lines one player may say within [`Limits::chat_window`].
    pub chat_lines: u32,
    /// The window in which a player's chat lines are counted.
    pub chat_window: Duration,
    /// Shortest interval between two chat lines of one player.
    pub chat_interval: Duration,
    /// Most chat lines kept for one game (both channels); more are refused.
    pub chat_max_lines: usize,
    /// Most bytes of chat kept for one game (the UTF-8 of every line's text and nickname), so
    /// that the archive in `GameOver` stays well within one server message.
    pub chat_max_bytes: usize,
    /// Most nicknames claimed from one address within [`Limits::claim_window`]: claiming is
    /// free, so without it one address could squat thousands of names a day. High enough for
    /// a classroom behind one address.
    pub claims_per_address: usize,
    /// See [`Limits::claims_per_address`].
    pub claim_window: Duration,
    /// Bytes of answers to requests whose answer is large (views for `Watch`, the lobby,
    /// leaderboards, profiles, archives) one connection may draw at once ([`AnswerBudget`]).
    pub answer_burst: f64,
    /// Bytes a second of such answers one connection may draw, sustained.
    pub answer_rate: f64,
    /// [`Limits::answer_burst`] for all the connections of one address (IPv6: one /64) together.
    pub address_answer_burst: f64,
    /// [`Limits::answer_rate`] for all the connections of one address together.
    pub address_answer_rate: f64,
    /// Two nicknames claimed from one address within this time of each other play each other
    /// unrated (one person could hold both); zero: never.
    pub shared_claim_window: Duration,
    /// Most turn-based games in progress per player.
    pub turn_games: usize,
    /// Most pending challenges per challenger.
    pub pending_challenges: usize,
    /// Challenges one player may make within [`Limits::challenge_window`] (against floods).
    pub challenges_per_window: usize,
    /// See [`Limits::challenges_per_window`].
    pub challenge_window: Duration,
    /// How long a challenge waits to be accepted.
    pub challenge_lifetime: Duration,
    /// Games one account may start in a day (each is stored, however short: see `daily`).
    pub games_per_player_day: u32,
    /// Games the accounts seen from one address (IPv6: one /64) may start in a day together.
    pub games_per_address_day: u32,
    /// A rated game changes ratings only if it lasted this long (besides each side's
    /// [`super::RATED_MOVES_EACH`] moves); zero: no minimum.
    pub rated_min_play: Duration,
    /// A result against a player counts in full once they have met this many different
    /// opponents in games that changed ratings, and in proportion before (nothing against a
    /// player's first rated game); zero: always in full. See `rated`.
    pub rated_opponents_full: u32,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            seat_hold: Duration::from_secs(120),
            hello_timeout: Duration::from_secs(10),
            burst: 40.0,
            rate: 20.0,
            max_strikes: 100,
            proposal_interval: Duration::from_millis(250),
            spectator_count_interval: SPECTATOR_COUNT_INTERVAL,
            min_clock_ms: ClockSpec::MIN_INITIAL_MS,
            credential_lifetime: Duration::from_secs(180 * 24 * 3600),
            code_guesses: 10,
            code_window: Duration::from_secs(600),
            code_cooldown: Duration::from_secs(300),
            chat_lines: 5,
            chat_window: Duration::from_secs(10),
            chat_interval: Duration::from_millis(500),
            chat_max_lines: ludus_protocol::CHAT_MAX_LINES,
            chat_max_bytes: 96 * 1024,
            claims_per_address: 20,
            claim_window: Duration::from_secs(24 * 3600),
            answer_burst: 256.0 * 1024.0,
            answer_rate: 16.0 * 1024.0,
            address_answer_burst: 2.0 * 1024.0 * 1024.0,
            address_answer_rate: 128.0 * 1024.0,
            shared_claim_window: Duration::from_secs(24 * 3600),
            turn_games: ludus_protocol::MAX_TURN_GAMES,
            pending_challenges: ludus_protocol::MAX_PENDING_CHALLENGES,
            challenges_per_window: 10,
            challenge_window: Duration::from_secs(600),
            challenge_lifetime: Duration::from_secs(ludus_protocol::CHALLENGE_DAYS * 24 * 3600),
            games_per_player_day: 300,
            games_per_address_day: 1000,
            rated_min_play: Duration::from_secs(60),
            rated_opponents_full: 5,
        }
    }
}

/// The default of [`Limits::spectator_count_interval`]: a flood of watch switches costs each
/// game at most one count message a second to its audience, not one per switch.
pub const SPECTATOR_COUNT_INTERVAL: Duration = Duration::from_secs(1);

/// Longest move text accepted (an Alquerque path of 16 jumps is 47 characters).
pub(super) const MAX_MOVE_CHARS: usize = 64;

/// Most distinct proposals sent or archived for one ply (the most proposed).
pub(super) const MAX_LISTED_PROPOSALS: usize = 16;

/// A connection's message budget.
pub(super) struct Bucket {
    tokens: f64,
    refill: Instant,
    strikes: u32,
    last_rate_error: Option<Instant>,
}

/// What to do with a message, by the budget.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Verdict {
    /// Handle it.
    Pass,
    /// Drop it; `tell`: say so (at most once a second).
    Refuse { tell: bool },
    /// Too many strikes: close the connection.
    Close,
}

impl Bucket {
    pub(super) fn new(limits: &Limits, now: Instant) -> Bucket {
        Bucket { tokens: limits.burst, refill: now, strikes: 0, last_rate_error: None }
    }

    /// Spends one message of the budget at `now`.
    pub(super) fn take(&mut self, limits: &Limits, now: Instant) -> Verdict {
        let elapsed = now.saturating_duration_since(self.refill).as_secs_f64();
        self.refill = now;
        self.tokens = (self.tokens + elapsed * limits.rate).min(limits.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            return Verdict::Pass;
        }
        self.strikes += 1;
        let tell =
            self.last_rate_error.is_none_or(|t| now.saturating_duration_since(t) >= Duration::from_secs(1));
        if tell {
            self.last_rate_error = Some(now);
        }
        if self.strikes > limits.max_strikes { Verdict::Close } else { Verdict::Refuse { tell } }
    }

    /// Counts a malformed message; returns the strikes so far.
    pub(super) fn strike(&mut self) -> u32 {
        self.strikes += 1;
        self.strikes
    }
}

/// A player's chat budget: at most [`Limits::chat_lines`] accepted lines in any
/// [`Limits::chat_window`], and [`Limits::chat_interval`] between two (a sliding window of the
/// times of the last lines; the connection's [`Bucket`] still counts every message too).
#[derive(Default)]
pub(super) struct ChatRate {
    said: std::collections::VecDeque<Instant>,
}

impl ChatRate {
    /// Whether a line may be said at `now` (nothing is counted: see [`ChatRate::said`]).
    pub(super) fn allows(&mut self, limits: &Limits, now: Instant) -> bool {
        while self.said.front().is_some_and(|&t| now.saturating_duration_since(t) >= limits.chat_window) {
            self.said.pop_front();
        }
        let spaced =
            self.said.back().is_none_or(|&t| now.saturating_duration_since(t) >= limits.chat_interval);
        spaced && self.said.len() < limits.chat_lines as usize
    }

    /// Counts a line said at `now`.
    pub(super) fn said(&mut self, now: Instant) {
        self.said.push_back(now);
    }
}

/// A budget of answer bytes (a token bucket counted in bytes): an answer goes out whole while
/// the budget is above zero, and its size is taken from it afterwards (the budget may go below
/// zero by one answer); below zero, requests for large answers are refused until it refills.
/// Over any interval `t`, at most `burst + rate * t` bytes plus one answer are drawn.
pub(super) struct AnswerBudget {
    bytes: f64,
    refill: Instant,
}

impl AnswerBudget {
    pub(super) fn new(burst: f64, now: Instant) -> AnswerBudget {
        AnswerBudget { bytes: burst, refill: now }
    }

    fn refill(&mut self, burst: f64, rate: f64, now: Instant) {
        let elapsed = now.saturating_duration_since(self.refill).as_secs_f64();
        self.refill = now;
        self.bytes = (self.bytes + elapsed * rate).min(burst);
    }

    /// `None` if an answer may go out at `now`; otherwise how long until one may.
    pub(super) fn wait(&mut self, burst: f64, rate: f64, now: Instant) -> Option<Duration> {
        self.refill(burst, rate, now);
        if self.bytes > 0.0 {
            return None;
        }
        let secs = if rate > 0.0 { (-self.bytes / rate).max(0.001) } else { 3600.0 };
        Some(Duration::from_secs_f64(secs.min(3600.0)))
    }

    /// Takes `bytes` sent at `now`.
    pub(super) fn spend(&mut self, burst: f64, rate: f64, now: Instant, bytes: usize) {
        self.refill(burst, rate, now);
        self.bytes -= bytes as f64;
    }

    /// Whether the budget is whole again at `now` (nothing to remember).
    pub(super) fn is_full(&mut self, burst: f64, rate: f64, now: Instant) -> bool {
        self.refill(burst, rate, now);
        self.bytes >= burst
    }
}

/// Refuses a time control out of bounds.
pub(super) fn check_clock(limits: &Limits, clock: Option<ClockSpec>) -> Result<(), Refusal> {
    let min = limits.min_clock_ms;
    match clock {
        Some(c)
            if !(min..=ClockSpec::MAX_INITIAL_MS).contains(&c.initial_ms)
                || c.increment_ms > ClockSpec::MAX_INCREMENT_MS =>
        {
            refuse(
                ErrorCode::BadClock,
                format!(
                    "time control: {}-{} s plus at most {} s a move",
                    min / 1000,
                    ClockSpec::MAX_INITIAL_MS / 1000,
                    ClockSpec::MAX_INCREMENT_MS / 1000
                ),
            )
        }
        _ => Ok(()),
    }
}

/// Wrong attempts from one address or at one name (room codes, passwords), and the cool-down
/// they earned.
pub(super) struct CodeStrikes {
    /// Wrong attempts since `since`.
    pub(super) count: u32,
    /// When the count started.
    pub(super) since: Instant,
    /// Refused until then.
    pub(super) until: Option<Instant>,
}

/// `text` as a legal move at ply `ply` of `game` (the ply guards against stale or repeated
/// requests), with its notation as the server writes it.
pub(super) fn move_at(game: &AnyGame, ply: u32, text: &str) -> Result<(AnyMove, String), Refusal> {
    if ply as usize != game.ply() {
        return refuse(ErrorCode::WrongPly, format!("the game is at ply {}, not {ply}", game.ply()));
    }
    if text.chars().count() > MAX_MOVE_CHARS {
        return refuse(ErrorCode::IllegalMove, "move too long");
    }
    let position = game.position();
    let mv = position
        .parse_move(text)
        .map_err(|e| Refusal::new(ErrorCode::IllegalMove, format!("{text}: {e}")))?;
    let notation = position.move_to_string(&mv).unwrap_or_else(|| text.to_string());
    Ok((mv, notation))
}
