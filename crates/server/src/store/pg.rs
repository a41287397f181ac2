//! The PostgreSQL backend (the synchronous `postgres` client of rust-postgres, one connection
//! per database thread): the same statements as SQLite with `$N` parameters, every commit a
//! transaction with the server's `synchronous_commit` (on by default: durable before it returns).

use super::{
    ArchiveRow, Backend, ChallengeRow, ChatRow, ClaimRow, DbError, GameRow, MIGRATIONS, MoveRow, ProposalRow,
    RatedRow, RatingRow, RecentRow, sql,
};
use crate::core::records::{ID_BLOCK, Op, StoredPlayer};
use postgres::{Client, Config, NoTls, Statement};
use std::time::Duration;

/// A key for `pg_advisory_lock`: nodes that start at once migrate one after the other.
const MIGRATION_LOCK: i64 = 0x6c75_6475_7301;

/// The database's clock in Unix milliseconds: every lease is measured by it (the nodes' clocks
/// may disagree).
pub(crate) const DB_NOW: &str = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

/// A node registers (or registers again under its name: a new incarnation, alive, its lobby
/// cleared): `$1` name, `$2` lease in ms.
fn register_sql() -> String {
    format!(
        "INSERT INTO ludus_nodes(name, incarnation, lease_until_ms, dead, started_ms)
         VALUES ($1, 1, {DB_NOW} + $2, 0, {DB_NOW})
         ON CONFLICT(name) DO UPDATE SET incarnation = ludus_nodes.incarnation + 1,
         lease_until_ms = excluded.lease_until_ms, dead = 0, started_ms = excluded.started_ms, lobby = NULL
         RETURNING incarnation"
    )
}

/// Renews a lease unless it is lost (`$1` name, `$2` incarnation, `$3` lease in ms): one row,
/// locked until the transaction ends, or none when the lease is lost. A lease that expired is
/// lost only once another node took the games over (marked the node dead, under the same row
/// lock) or another process registered under the name: until then its node may renew it (a
/// database hiccup longer than the lease with no other node to take over costs nothing).
pub(crate) fn renew_sql() -> String {
    format!(
        "UPDATE ludus_nodes SET lease_until_ms = {DB_NOW} + $3
         WHERE name = $1 AND incarnation = $2 AND dead = 0"
    )
}

/// Who a node is on the database: its name, this start's incarnation and the lease length.
#[derive(Clone, Debug, Default)]
pub(crate) struct Fence {
    pub name: String,
    pub incarnation: i64,
    pub lease_ms: i64,
}

/// How long a connection attempt may take before the database counts as unreachable.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// `?N` parameters as PostgreSQL's `$N` (the statements of [`sql`] have no other `?`).
pub(crate) fn dialect(statement: &str) -> String {
    statement.replace('?', "$")
}

/// Parses a connection URL, with a connect timeout and TCP keepalives unless it sets them.
pub(crate) fn config(url: &str) -> Result<Config, postgres::Error> {
    let mut config: Config = url.parse()?;
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(CONNECT_TIMEOUT);
    }
    config.keepalives(true).keepalives_idle(Duration::from_secs(30));
    if config.get_application_name().is_none() {
        config.application_name("ludus-server");
    }
    Ok(config)
}

/// The prepared statements of one connection.
struct Prepared {
    new_player: Statement,
    credential: Statement,
    nickname: Statement,
    new_game: Statement,
    mv: Statement,
    proposal: Statement,
    finish: Statement,
    find_player: Statement,
    player: Statement,
    moves: Statement,
    proposals: Statement,
    chat_line: Statement,
    chat_lines: Statement,
    claim: Statement,
    claim_origin: Statement,
    unrated: Statement,
    rating: Statement,
    recent_games: Statement,
    recent_public_games: Statement,
    archive: Statement,
}

impl Prepared {
    fn new(client: &mut Client) -> Result<Prepared, postgres::Error> {
        let mut p = |s: &str| client.prepare(&dialect(s));
        Ok(Prepared {
            new_player: p(sql::NEW_PLAYER)?,
            credential: p(sql::CREDENTIAL)?,
            nickname: p(sql::NICKNAME)?,
            new_game: p(sql::NEW_GAME)?,
            mv: p(sql::MOVE)?,
            proposal: p(sql::PROPOSAL)?,
            finish: p(sql::FINISH)?,
            find_player: p(sql::FIND_PLAYER)?,
            player: p(sql::PLAYER)?,
            moves: p(sql::MOVES)?,
            proposals: p(sql::PROPOSALS)?,
            chat_line: p(sql::CHAT_LINE)?,
            chat_lines: p(sql::CHAT_LINES)?,
            claim: p(sql::CLAIM)?,
            claim_origin: p(sql::CLAIM_ORIGIN)?,
            unrated: p(sql::UNRATED)?,
            rating: p(sql::RATING)?,
            recent_games: p(sql::RECENT_GAMES)?,
            recent_public_games: p(sql::RECENT_PUBLIC_GAMES)?,
            archive: p(sql::ARCHIVE)?,
        })
    }
}

/// One connection to PostgreSQL; reconnects when the connection was lost.
pub(crate) struct Postgres {
    config: Config,
    pub(super) client: Client,
    prepared: Prepared,
    /// The node: every commit first renews its lease, and fails with [`DbError::LeaseLost`]
    /// once it is lost (another node owns its games: nothing more is written for them).
    pub(super) fence: Fence,
    /// This node's blocks of player and game numbers: (next, end) each.
    ids: [(u64, u64); 2],
}

impl Postgres {
    pub(super) fn connect(config: &Config, fence: &Fence) -> Result<Postgres, DbError> {
        let mut client = config.connect(NoTls)?;
        let prepared = Prepared::new(&mut client)?;
        Ok(Postgres { config: config.clone(), client, prepared, fence: fence.clone(), ids: [(1, 1); 2] })
    }

    /// A new connection if the old one is closed (the database restarted, the network broke).
    pub(super) fn reconnect_if_closed(&mut self) -> Result<(), DbError> {
        if self.client.is_closed() {
            let ids = self.ids;
            *self = Postgres::connect(&self.config, &self.fence)?;
            self.ids = ids;
            tracing::info!("database connection re-established");
        }
        Ok(())
    }
}

/// Takes `count` numbers of `kind` (`player` or `game`) for this node: (first, end).
pub(super) fn reserve_ids(client: &mut Client, kind: &str, count: u64) -> Result<(u64, u64), DbError> {
    let count = count as i64;
    let first: i64 = client
        .query_one(
            "UPDATE ludus_ids SET next = next + $2 WHERE kind = $1 RETURNING next - $2",
            &[&kind, &count],
        )?
        .get(0);
    let first = first.max(1) as u64;
    Ok((first, first + count as u64))
}

/// Connects (writer, reader), applies the migrations (one node at a time), prunes the players
/// whose credential was last used before `cutoff_ms`, registers the node `name` (a new
/// incarnation), takes back its own live games (and those of no node, stored before there were
/// nodes) and reserves its first blocks of player and game numbers.
pub(crate) fn open(
    config: &Config,
    now_ms: u64,
    cutoff_ms: u64,
    name: &str,
    lease: Duration,
) -> Result<[Postgres; 2], DbError> {
    let mut client = config.connect(NoTls)?;
    let versioned: bool = client.query_one("SELECT to_regclass('ludus_schema') IS NOT NULL", &[])?.get(0);
    if versioned {
        let current: i64 =
            client.query_one("SELECT COALESCE(MAX(version), 0)::BIGINT FROM ludus_schema", &[])?.get(0);
        super::checks::schema_version(current)?;
    }
    migrate(&mut client)?;
    let newest: Option<i64> = client.query_one("SELECT MAX(last_seen_ms)::BIGINT FROM players", &[])?.get(0);
    let cutoff_ms = super::checks::prune_cutoff(now_ms, cutoff_ms, newest);
    let pruned = client.execute(&dialect(sql::PRUNE), &[&(cutoff_ms as i64)])?;
    if pruned > 0 {
        tracing::info!(pruned, "players with expired credentials deleted");
    }
    let lease_ms = lease.as_millis().clamp(1, i64::MAX as u128) as i64;
    let incarnation: i64 = client.query_one(&register_sql(), &[&name, &lease_ms])?.get(0);
    let fence = Fence { name: name.to_string(), incarnation, lease_ms };
    let claimed = client
        .execute("UPDATE games SET owner = $1 WHERE live = 1 AND (owner IS NULL OR owner = $1)", &[&name])?;
    tracing::info!(node = name, incarnation, games = claimed, "node registered");
    let players = reserve_ids(&mut client, "player", ID_BLOCK)?;
    let games = reserve_ids(&mut client, "game", ID_BLOCK)?;
    drop(client);
    let writer = Postgres::connect(config, &fence)?;
    let mut reader = Postgres::connect(config, &fence)?;
    reader.ids = [players, games];
    Ok([writer, reader])
}

fn migrate(client: &mut Client) -> Result<(), postgres::Error> {
    client.execute("SELECT pg_advisory_lock($1)", &[&MIGRATION_LOCK])?;
    let result = (|| {
        client.batch_execute("CREATE TABLE IF NOT EXISTS ludus_schema(version BIGINT NOT NULL)")?;
        let current: i64 =
            client.query_one("SELECT COALESCE(MAX(version), 0)::BIGINT FROM ludus_schema", &[])?.get(0);
        for m in MIGRATIONS.iter().filter(|m| m.version > current) {
            let mut tx = client.transaction()?;
            tx.batch_execute(m.postgres)?;
            tx.execute("INSERT INTO ludus_schema(version) VALUES ($1)", &[&m.version])?;
            tx.commit()?;
        }
        Ok(())
    })();
    let unlocked = client.execute("SELECT pg_advisory_unlock($1)", &[&MIGRATION_LOCK]);
    result.and(unlocked.map(|_| ()))
}

fn stored_player(r: &postgres::Row) -> StoredPlayer {
    StoredPlayer {
        id: r.get::<_, i64>(0) as u64,
        hash: r.get(1),
        prev: r.get(2),
        last_seen_ms: r.get::<_, i64>(3).max(0) as u64,
        nickname: r.get(4),
    }
}

impl Backend for Postgres {
    fn commit(&mut self, batches: &[(u64, Vec<Op>)]) -> Result<(), DbError> {
        self.reconnect_if_closed()?;
        let p = &self.prepared;
        let f = &self.fence;
        let mut tx = self.client.transaction()?;
        // The lease first: its row stays locked until the commit, so no node can take this
        // node's games over in between (and none did before, or this finds no row).
        if tx.execute(&renew_sql(), &[&f.name, &f.incarnation, &f.lease_ms])? != 1 {
            return Err(DbError::LeaseLost);
        }
        for (_, ops) in batches {
            for op in ops {
                match op {
                    Op::NewPlayer { id, hash, nickname, created_ms } => {
                        tx.execute(&p.new_player, &[&(*id as i64), hash, nickname, &(*created_ms as i64)])?;
                    }
                    Op::Credential { id, hash, prev, last_seen_ms } => {
                        tx.execute(&p.credential, &[&(*id as i64), hash, prev, &(*last_seen_ms as i64)])?;
                    }
                    Op::Nickname { id, nickname } => {
                        tx.execute(&p.nickname, &[&(*id as i64), nickname])?;
                    }
                    Op::NewGame { id, room, variant, start, players, public, clock, created_ms, rated } => {
                        tx.execute(
                            &p.new_game,
                            &[
                                &(*id as i64),
                                room,
                                &variant.name(),
                                start,
                                &(players[0] as i64),
                                &(players[1] as i64),
                                &(*public as i64),
                                &clock.map(|c| c.initial_ms as i64),
                                &clock.map(|c| c.increment_ms as i64),
                                &(*created_ms as i64),
                                &(*rated as i64),
                            ],
                        )?;
                        tx.execute("UPDATE games SET owner = $2 WHERE id = $1", &[&(*id as i64), &f.name])?;
                    }
                    Op::Move { game, ply, mv, at_ms, clocks } => {
                        tx.execute(
                            &p.mv,
                            &[
                                &(*game as i64),
                                &(*ply as i64),
                                mv,
                                &(*at_ms as i64),
                                &clocks.map(|c| c[0] as i64),
                                &clocks.map(|c| c[1] as i64),
                            ],
                        )?;
                    }
                    Op::Proposals { game, ply, proposals } => {
                        for pr in proposals {
                            tx.execute(
                                &p.proposal,
                                &[&(*game as i64), &(*ply as i64), &pr.mv, &(pr.count as i64)],
                            )?;
                        }
                    }
                    Op::Chat { game, seq, line } => {
                        let row = ChatRow::of(line);
                        tx.execute(
                            &p.chat_line,
                            &[
                                &(*game as i64),
                                &i64::from(*seq),
                                &row.channel,
                                &row.player,
                                &row.nickname,
                                &row.ply,
                                &row.at_ms,
                                &row.text,
                            ],
                        )?;
                    }
                    Op::Finish { game, outcome, ended_ms, archive } => {
                        tx.execute(&p.finish, &[&(*game as i64), outcome, &(*ended_ms as i64), archive])?;
                    }
                    Op::Claim { id, skeleton, password_hash } => {
                        tx.execute(&p.claim, &[&(*id as i64), skeleton, password_hash])?;
                    }
                    Op::ClaimOrigin { id, address, claimed_ms } => {
                        tx.execute(&p.claim_origin, &[&(*id as i64), address, &(*claimed_ms as i64)])?;
                    }
                    Op::RatedOpponent { player, opponent } => {
                        tx.execute(
                            dialect(sql::RATED_OPPONENT).as_str(),
                            &[&(*player as i64), &(*opponent as i64)],
                        )?;
                    }
                    Op::Unrated { game } => {
                        tx.execute(&p.unrated, &[&(*game as i64)])?;
                    }
                    Op::TurnDeadline { game, days, deadline_ms } => {
                        tx.execute(
                            &dialect(sql::TURN_DEADLINE),
                            &[&(*game as i64), &i64::from(*days), &(*deadline_ms as i64)],
                        )?;
                    }
                    Op::NewChallenge(c) => {
                        tx.execute(
                            &dialect(sql::NEW_CHALLENGE),
                            &[
                                &c.code,
                                &(c.from as i64),
                                &c.to.map(|p| p as i64),
                                &c.variant.name(),
                                &c.side.map(i64::from),
                                &i64::from(c.days),
                                &i64::from(c.listed),
                                &(c.created_ms as i64),
                                &(c.expires_ms as i64),
                                &i64::from(c.rated),
                            ],
                        )?;
                    }
                    Op::Tournament { id, finished, created_ms, state } => {
                        tx.execute(
                            &dialect(sql::SAVE_TOURNAMENT),
                            &[&(*id as i64), &i64::from(*finished), &(*created_ms as i64), state],
                        )?;
                    }
                    Op::TournamentResult { tournament, seq, result } => {
                        tx.execute(
                            &dialect(sql::TOURNAMENT_RESULT),
                            &[&(*tournament as i64), &i64::from(*seq), result],
                        )?;
                    }
                    Op::EndChallenge { code } => {
                        tx.execute(&dialect(sql::END_CHALLENGE), &[code])?;
                    }
                    Op::Rating { player, variant, rating: r }
                    | Op::TurnRating { player, variant, rating: r } => {
                        let turn_rating;
                        let statement = if matches!(op, Op::Rating { .. }) {
                            &p.rating
                        } else {
                            turn_rating = tx.prepare(&dialect(sql::TURN_RATING))?;
                            &turn_rating
                        };
                        tx.execute(
                            statement,
                            &[
                                &(*player as i64),
                                &variant.name(),
                                &r.rating,
                                &r.deviation,
                                &r.volatility,
                                &i64::from(r.games),
                                &i64::from(r.wins),
                                &i64::from(r.draws),
                                &i64::from(r.losses),
                            ],
                        )?;
                    }
                }
            }
        }
        tx.commit()?;
        Ok(())
    }

    fn find_player(&mut self, hash: &str, cutoff_ms: u64) -> Result<Option<StoredPlayer>, DbError> {
        self.reconnect_if_closed()?;
        let row = self.client.query_opt(&self.prepared.find_player, &[&hash, &(cutoff_ms as i64)])?;
        Ok(row.as_ref().map(stored_player))
    }

    fn challenges(&mut self) -> Result<Vec<ChallengeRow>, DbError> {
        let rows = self.client.query(&dialect(sql::CHALLENGES), &[])?;
        Ok(rows
            .iter()
            .map(|r| ChallengeRow {
                code: r.get(0),
                challenger: r.get(1),
                opponent: r.get(2),
                variant: r.get(3),
                side: r.get(4),
                days: r.get(5),
                listed: r.get(6),
                created_ms: r.get(7),
                expires_ms: r.get(8),
                rated: r.get(9),
            })
            .collect())
    }

    fn tournaments(&mut self) -> Result<Vec<(i64, String)>, DbError> {
        let rows = self.client.query(&dialect(sql::TOURNAMENTS), &[])?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
    }

    fn tournament_results(&mut self, id: u64) -> Result<Vec<String>, DbError> {
        let rows = self.client.query(&dialect(sql::TOURNAMENT_RESULTS), &[&(id as i64)])?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    fn next_tournament(&mut self) -> Result<u64, DbError> {
        let row = self.client.query_one(&dialect(sql::NEXT_TOURNAMENT), &[])?;
        Ok(row.get::<_, i64>(0).max(1) as u64)
    }

    fn next_ids(&mut self) -> Result<(u64, u64), DbError> {
        Ok((self.ids[0].0, self.ids[1].0))
    }

    fn id_ends(&self) -> (u64, u64) {
        (self.ids[0].1, self.ids[1].1)
    }

    fn live_games(&mut self) -> Result<Vec<GameRow>, DbError> {
        let rows = self.client.query(
            "SELECT id, room, variant, start, first_player, second_player, public, clock_initial_ms,
             clock_increment_ms, created_ms, rated, days_per_move, deadline_ms
             FROM games WHERE live = 1 AND owner = $1 ORDER BY id",
            &[&self.fence.name],
        )?;
        Ok(game_rows(&rows))
    }

    fn moves(&mut self, game: u64) -> Result<Vec<MoveRow>, DbError> {
        let rows = self.client.query(&self.prepared.moves, &[&(game as i64)])?;
        Ok(rows.iter().map(|r| MoveRow { mv: r.get(0), clocks: [r.get(1), r.get(2)] }).collect())
    }

    fn proposals(&mut self, game: u64) -> Result<Vec<ProposalRow>, DbError> {
        let rows = self.client.query(&self.prepared.proposals, &[&(game as i64)])?;
        Ok(rows
            .iter()
            .map(|r| {
                let clamp = |v: i64| v.clamp(0, u32::MAX as i64) as u32;
                ProposalRow { ply: clamp(r.get(0)), mv: r.get(1), count: clamp(r.get(2)) }
            })
            .collect())
    }

    fn chat(&mut self, game: u64) -> Result<Vec<ChatRow>, DbError> {
        let rows = self.client.query(&self.prepared.chat_lines, &[&(game as i64)])?;
        Ok(rows
            .iter()
            .map(|r| ChatRow {
                channel: r.get(0),
                player: r.get(1),
                nickname: r.get(2),
                ply: r.get(3),
                at_ms: r.get(4),
                text: r.get(5),
            })
            .collect())
    }

    fn player(&mut self, id: u64) -> Result<Option<StoredPlayer>, DbError> {
        let row = self.client.query_opt(&self.prepared.player, &[&(id as i64)])?;
        Ok(row.as_ref().map(stored_player))
    }

    fn claims(&mut self) -> Result<Vec<ClaimRow>, DbError> {
        let rows = self.client.query(&dialect(sql::CLAIMS), &[])?;
        Ok(rows
            .iter()
            .map(|r| ClaimRow {
                player: r.get(0),
                nickname: r.get(1),
                password_hash: r.get(2),
                address: r.get(3),
                claimed_ms: r.get(4),
            })
            .collect())
    }

    fn games_since(&mut self, since_ms: u64) -> Result<Vec<[i64; 2]>, DbError> {
        let rows = self.client.query(dialect(sql::GAMES_SINCE).as_str(), &[&(since_ms as i64)])?;
        Ok(rows.iter().map(|r| [r.get(0), r.get(1)]).collect())
    }

    fn rated_opponents(&mut self) -> Result<Vec<(i64, i64)>, DbError> {
        let rows = self.client.query(dialect(sql::RATED_OPPONENTS).as_str(), &[])?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
    }

    fn rated_since(&mut self, since_ms: u64) -> Result<Vec<RatedRow>, DbError> {
        let rows = self.client.query(&dialect(sql::RATED_SINCE), &[&(since_ms as i64)])?;
        Ok(rows.iter().map(|r| RatedRow { players: [r.get(0), r.get(1)], ended_ms: r.get(2) }).collect())
    }

    fn player_claim(&mut self, id: u64) -> Result<Option<ClaimRow>, DbError> {
        self.reconnect_if_closed()?;
        let row = self.client.query_opt(&dialect(sql::PLAYER_CLAIM), &[&(id as i64)])?;
        Ok(row.map(|r| ClaimRow {
            player: id as i64,
            nickname: r.get(0),
            password_hash: r.get(1),
            address: r.get(2),
            claimed_ms: r.get(3),
        }))
    }

    fn turn_ratings(&mut self) -> Result<Vec<RatingRow>, DbError> {
        let rows = self.client.query(&dialect(sql::TURN_RATINGS), &[])?;
        Ok(rows.iter().map(rating_row).collect())
    }

    fn player_turn_ratings(&mut self, id: u64) -> Result<Vec<RatingRow>, DbError> {
        let rows = self.client.query(&dialect(sql::PLAYER_TURN_RATINGS), &[&(id as i64)])?;
        Ok(rows.iter().map(rating_row).collect())
    }

    fn player_ratings(&mut self, id: u64) -> Result<Vec<RatingRow>, DbError> {
        let rows = self.client.query(&dialect(sql::PLAYER_RATINGS), &[&(id as i64)])?;
        Ok(rows.iter().map(rating_row).collect())
    }

    fn recent_games(&mut self, player: u64, limit: u32, private: bool) -> Result<Vec<RecentRow>, DbError> {
        self.reconnect_if_closed()?;
        let params: [&(dyn postgres::types::ToSql + Sync); 2] = [&(player as i64), &i64::from(limit)];
        let statement =
            if private { &self.prepared.recent_games } else { &self.prepared.recent_public_games };
        let rows = self.client.query(statement, &params)?;
        Ok(rows
            .iter()
            .map(|r| RecentRow {
                id: r.get(0),
                variant: r.get(1),
                first_player: r.get(2),
                ended_ms: r.get(3),
                rated: r.get(4),
                archive: r.get(5),
            })
            .collect())
    }

    fn archive(&mut self, game: u64) -> Result<Option<ArchiveRow>, DbError> {
        self.reconnect_if_closed()?;
        let row = self.client.query_opt(&self.prepared.archive, &[&(game as i64)])?;
        Ok(row.map(|r| ArchiveRow { public: r.get(0), players: [r.get(1), r.get(2)], archive: r.get(3) }))
    }

    fn ratings(&mut self) -> Result<Vec<RatingRow>, DbError> {
        let rows = self.client.query(&dialect(sql::RATINGS), &[])?;
        Ok(rows.iter().map(rating_row).collect())
    }
}

/// A row of the ratings' columns (see [`RatingRow`]).
fn rating_row(r: &postgres::Row) -> RatingRow {
    RatingRow {
        player: r.get(0),
        variant: r.get(1),
        rating: r.get(2),
        deviation: r.get(3),
        volatility: r.get(4),
        games: r.get(5),
        wins: r.get(6),
        draws: r.get(7),
        losses: r.get(8),
    }
}

/// Game rows (the columns of [`sql::LIVE_GAMES`]).
pub(super) fn game_rows(rows: &[postgres::Row]) -> Vec<GameRow> {
    rows.iter()
        .map(|r| GameRow {
            id: r.get(0),
            room: r.get(1),
            variant: r.get(2),
            start: r.get(3),
            players: [r.get(4), r.get(5)],
            public: r.get::<_, i64>(6) != 0,
            clock_initial_ms: r.get(7),
            clock_increment_ms: r.get(8),
            created_ms: r.get(9),
            rated: r.get::<_, i64>(10) != 0,
            days_per_move: r.get(11),
            deadline_ms: r.get(12),
        })
        .collect()
}
