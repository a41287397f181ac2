//! The SQLite backend: one file, WAL, `synchronous=FULL`, checkpoints on their own thread.

use super::checks;
use super::schema::Upgrade;
use super::{
    ArchiveRow, Backend, ChallengeRow, ChatRow, ClaimRow, DbError, GameRow, MIGRATIONS, MoveRow, ProposalRow,
    RatedRow, RatingRow, RecentRow, sql,
};
use crate::core::records::{Op, StoredPlayer};
use rusqlite::{Connection, OptionalExtension, params};
use std::path::Path;
use std::time::Duration;

/// One connection to the SQLite file.
pub(crate) struct Sqlite {
    conn: Connection,
    checkpoints: bool,
}

fn connect(path: &Path) -> rusqlite::Result<Connection> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(Duration::from_secs(10))?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    Ok(conn)
}

/// Opens the file (writer, reader, checkpointer), applies the migrations and prunes the
/// players whose credential was last used before `cutoff_ms`.
pub(crate) fn open(path: &Path, now_ms: u64, cutoff_ms: u64) -> Result<[Sqlite; 3], DbError> {
    checks::sqlite_file(path)?;
    let mut writer = connect(path)?;
    let current: Option<i64> = writer
        .query_row("SELECT MAX(version) FROM ludus_schema", [], |r| r.get(0))
        .optional()
        .unwrap_or(None)
        .flatten();
    checks::schema_version(current.unwrap_or(0))?;
    migrate(&mut writer, now_ms)?;
    let newest: Option<i64> = writer.query_row("SELECT MAX(last_seen_ms) FROM players", [], |r| r.get(0))?;
    let cutoff_ms = checks::prune_cutoff(now_ms, cutoff_ms, newest);
    let pruned = writer.execute(sql::PRUNE, params![cutoff_ms as i64])?;
    if pruned > 0 {
        tracing::info!(pruned, "players with expired credentials deleted");
    }
    // Checkpoints run on their own thread, so that a commit never waits for one.
    writer.pragma_update(None, "wal_autocheckpoint", 0)?;
    Ok([
        Sqlite { conn: writer, checkpoints: false },
        Sqlite { conn: connect(path)?, checkpoints: false },
        Sqlite { conn: connect(path)?, checkpoints: true },
    ])
}

/// Applies the migrations not applied yet, each in its transaction, and every version's upgrade
/// in code after its statements (again on each open: an upgrade finds its own work done).
fn migrate(conn: &mut Connection, now_ms: u64) -> rusqlite::Result<()> {
    conn.execute_batch("CREATE TABLE IF NOT EXISTS ludus_schema(version INTEGER NOT NULL)")?;
    let current: i64 =
        conn.query_row("SELECT COALESCE(MAX(version), 0) FROM ludus_schema", [], |r| r.get(0))?;
    for m in MIGRATIONS {
        if m.version > current {
            let tx = conn.transaction()?;
            tx.execute_batch(m.sqlite)?;
            tx.execute("INSERT INTO ludus_schema(version) VALUES (?1)", params![m.version])?;
            tx.commit()?;
        }
        match m.upgrade {
            Some(Upgrade::HashCredentials) => hash_credentials(conn, now_ms)?,
            None => {}
        }
    }
    Ok(())
}

/// Brings a database of an earlier version up to date, in one transaction: session
/// credentials were stored in clear (`players.token`); they are replaced by their SHA-256
/// (`token_hash`), so that a stolen database file signs nobody in. Their last use counts as now.
fn hash_credentials(conn: &mut Connection, now_ms: u64) -> rusqlite::Result<()> {
    let columns: Vec<String> = conn
        .prepare("SELECT name FROM pragma_table_info('players')")?
        .query_map([], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    if columns.iter().any(|c| c == "token") {
        let tx = conn.transaction()?;
        tx.execute_batch(
            "ALTER TABLE players ADD COLUMN prev_hash TEXT;
             ALTER TABLE players ADD COLUMN last_seen_ms INTEGER NOT NULL DEFAULT 0;",
        )?;
        let rows: Vec<(i64, String)> = tx
            .prepare("SELECT id, token FROM players")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?;
        {
            let mut update = tx.prepare("UPDATE players SET token = ?2, last_seen_ms = ?3 WHERE id = ?1")?;
            for (id, token) in rows {
                update.execute(params![id, crate::credential::credential_hash(&token), now_ms as i64])?;
            }
        }
        tx.execute_batch("ALTER TABLE players RENAME COLUMN token TO token_hash;")?;
        // The index of version 2, in case the schema is recorded past it already.
        tx.execute_batch(MIGRATIONS[1].sqlite)?;
        tx.commit()?;
        tracing::info!("database migrated: session credentials are now stored hashed");
    }
    Ok(())
}

fn stored_player(r: &rusqlite::Row<'_>) -> rusqlite::Result<StoredPlayer> {
    Ok(StoredPlayer {
        id: r.get::<_, i64>(0)? as u64,
        hash: r.get(1)?,
        prev: r.get(2)?,
        last_seen_ms: r.get::<_, i64>(3)?.max(0) as u64,
        nickname: r.get(4)?,
    })
}

impl Backend for Sqlite {
    fn commit(&mut self, batches: &[(u64, Vec<Op>)]) -> Result<(), DbError> {
        let tx = self.conn.transaction()?;
        for (_, ops) in batches {
            for op in ops {
                match op {
                    Op::NewPlayer { id, hash, nickname, created_ms } => {
                        tx.prepare_cached(sql::NEW_PLAYER)?.execute(params![
                            *id as i64,
                            hash,
                            nickname,
                            *created_ms as i64
                        ])?;
                    }
                    Op::Credential { id, hash, prev, last_seen_ms } => {
                        tx.prepare_cached(sql::CREDENTIAL)?.execute(params![
                            *id as i64,
                            hash,
                            prev,
                            *last_seen_ms as i64
                        ])?;
                    }
                    Op::Nickname { id, nickname } => {
                        tx.prepare_cached(sql::NICKNAME)?.execute(params![*id as i64, nickname])?;
                    }
                    Op::NewGame { id, room, variant, start, players, public, clock, created_ms, rated } => {
                        tx.prepare_cached(sql::NEW_GAME)?.execute(params![
                            *id as i64,
                            room,
                            variant.name(),
                            start,
                            players[0] as i64,
                            players[1] as i64,
                            *public,
                            clock.map(|c| c.initial_ms),
                            clock.map(|c| c.increment_ms),
                            *created_ms as i64,
                            *rated,
                        ])?;
                    }
                    Op::TurnDeadline { game, days, deadline_ms } => {
                        tx.prepare_cached(sql::TURN_DEADLINE)?.execute(params![
                            *game as i64,
                            i64::from(*days),
                            *deadline_ms as i64
                        ])?;
                    }
                    Op::NewChallenge(c) => {
                        tx.prepare_cached(sql::NEW_CHALLENGE)?.execute(params![
                            c.code,
                            c.from as i64,
                            c.to.map(|p| p as i64),
                            c.variant.name(),
                            c.side.map(i64::from),
                            i64::from(c.days),
                            i64::from(c.listed),
                            c.created_ms as i64,
                            c.expires_ms as i64,
                            i64::from(c.rated),
                        ])?;
                    }
                    Op::EndChallenge { code } => {
                        tx.prepare_cached(sql::END_CHALLENGE)?.execute(params![code])?;
                    }
                    Op::Tournament { id, finished, created_ms, state } => {
                        tx.prepare_cached(sql::SAVE_TOURNAMENT)?.execute(params![
                            *id as i64,
                            i64::from(*finished),
                            *created_ms as i64,
                            state
                        ])?;
                    }
                    Op::TournamentResult { tournament, seq, result } => {
                        tx.prepare_cached(sql::TOURNAMENT_RESULT)?.execute(params![
                            *tournament as i64,
                            i64::from(*seq),
                            result
                        ])?;
                    }
                    Op::Move { game, ply, mv, at_ms, clocks } => {
                        tx.prepare_cached(sql::MOVE)?.execute(params![
                            *game as i64,
                            *ply,
                            mv,
                            *at_ms as i64,
                            clocks.map(|c| c[0] as i64),
                            clocks.map(|c| c[1] as i64),
                        ])?;
                    }
                    Op::Proposals { game, ply, proposals } => {
                        let mut stmt = tx.prepare_cached(sql::PROPOSAL)?;
                        for p in proposals {
                            stmt.execute(params![*game as i64, *ply, p.mv, p.count])?;
                        }
                    }
                    Op::Chat { game, seq, line } => {
                        let row = ChatRow::of(line);
                        tx.prepare_cached(sql::CHAT_LINE)?.execute(params![
                            *game as i64,
                            *seq,
                            row.channel,
                            row.player,
                            row.nickname,
                            row.ply,
                            row.at_ms,
                            row.text
                        ])?;
                    }
                    Op::Finish { game, outcome, ended_ms, archive } => {
                        tx.prepare_cached(sql::FINISH)?.execute(params![
                            *game as i64,
                            outcome,
                            *ended_ms as i64,
                            archive
                        ])?;
                    }
                    Op::Claim { id, skeleton, password_hash } => {
                        tx.prepare_cached(sql::CLAIM)?.execute(params![
                            *id as i64,
                            skeleton,
                            password_hash
                        ])?;
                    }
                    Op::ClaimOrigin { id, address, claimed_ms } => {
                        tx.prepare_cached(sql::CLAIM_ORIGIN)?.execute(params![
                            *id as i64,
                            address,
                            *claimed_ms as i64
                        ])?;
                    }
                    Op::RatedOpponent { player, opponent } => {
                        tx.prepare_cached(sql::RATED_OPPONENT)?
                            .execute(params![*player as i64, *opponent as i64])?;
                    }
                    Op::Unrated { game } => {
                        tx.prepare_cached(sql::UNRATED)?.execute(params![*game as i64])?;
                    }
                    Op::Rating { player, variant, rating: r }
                    | Op::TurnRating { player, variant, rating: r } => {
                        let statement =
                            if matches!(op, Op::Rating { .. }) { sql::RATING } else { sql::TURN_RATING };
                        tx.prepare_cached(statement)?.execute(params![
                            *player as i64,
                            variant.name(),
                            r.rating,
                            r.deviation,
                            r.volatility,
                            r.games,
                            r.wins,
                            r.draws,
                            r.losses
                        ])?;
                    }
                }
            }
        }
        tx.commit()?;
        Ok(())
    }

    fn find_player(&mut self, hash: &str, cutoff_ms: u64) -> Result<Option<StoredPlayer>, DbError> {
        Ok(self
            .conn
            .prepare_cached(sql::FIND_PLAYER)?
            .query_row(params![hash, cutoff_ms as i64], stored_player)
            .optional()?)
    }

    fn challenges(&mut self) -> Result<Vec<ChallengeRow>, DbError> {
        let mut stmt = self.conn.prepare(sql::CHALLENGES)?;
        let rows = stmt.query_map([], |r| {
            Ok(ChallengeRow {
                code: r.get(0)?,
                challenger: r.get(1)?,
                opponent: r.get(2)?,
                variant: r.get(3)?,
                side: r.get(4)?,
                days: r.get(5)?,
                listed: r.get(6)?,
                created_ms: r.get(7)?,
                expires_ms: r.get(8)?,
                rated: r.get(9)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn tournaments(&mut self) -> Result<Vec<(i64, String)>, DbError> {
        let mut stmt = self.conn.prepare(sql::TOURNAMENTS)?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn tournament_results(&mut self, id: u64) -> Result<Vec<String>, DbError> {
        let mut stmt = self.conn.prepare_cached(sql::TOURNAMENT_RESULTS)?;
        let rows = stmt.query_map(params![id as i64], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn next_tournament(&mut self) -> Result<u64, DbError> {
        let next: i64 = self.conn.query_row(sql::NEXT_TOURNAMENT, [], |r| r.get(0))?;
        Ok(next.max(1) as u64)
    }

    fn next_ids(&mut self) -> Result<(u64, u64), DbError> {
        let player: i64 = self.conn.query_row(sql::NEXT_PLAYER, [], |r| r.get(0))?;
        let game: i64 = self.conn.query_row(sql::NEXT_GAME, [], |r| r.get(0))?;
        Ok((player.max(1) as u64, game.max(1) as u64))
    }

    fn live_games(&mut self) -> Result<Vec<GameRow>, DbError> {
        let mut stmt = self.conn.prepare(sql::LIVE_GAMES)?;
        let rows = stmt.query_map([], |r| {
            Ok(GameRow {
                id: r.get(0)?,
                room: r.get(1)?,
                variant: r.get(2)?,
                start: r.get(3)?,
                players: [r.get(4)?, r.get(5)?],
                public: r.get(6)?,
                clock_initial_ms: r.get(7)?,
                clock_increment_ms: r.get(8)?,
                created_ms: r.get(9)?,
                rated: r.get(10)?,
                days_per_move: r.get(11)?,
                deadline_ms: r.get(12)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn moves(&mut self, game: u64) -> Result<Vec<MoveRow>, DbError> {
        let mut stmt = self.conn.prepare_cached(sql::MOVES)?;
        let rows = stmt.query_map(params![game as i64], |r| {
            Ok(MoveRow { mv: r.get(0)?, clocks: [r.get(1)?, r.get(2)?] })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn proposals(&mut self, game: u64) -> Result<Vec<ProposalRow>, DbError> {
        let mut stmt = self.conn.prepare_cached(sql::PROPOSALS)?;
        let rows = stmt.query_map(params![game as i64], |r| {
            Ok(ProposalRow { ply: r.get(0)?, mv: r.get(1)?, count: r.get(2)? })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn chat(&mut self, game: u64) -> Result<Vec<ChatRow>, DbError> {
        let mut stmt = self.conn.prepare_cached(sql::CHAT_LINES)?;
        let rows = stmt.query_map(params![game as i64], |r| {
            Ok(ChatRow {
                channel: r.get(0)?,
                player: r.get(1)?,
                nickname: r.get(2)?,
                ply: r.get(3)?,
                at_ms: r.get(4)?,
                text: r.get(5)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn player(&mut self, id: u64) -> Result<Option<StoredPlayer>, DbError> {
        Ok(self.conn.prepare_cached(sql::PLAYER)?.query_row(params![id as i64], stored_player).optional()?)
    }

    fn claims(&mut self) -> Result<Vec<ClaimRow>, DbError> {
        let mut stmt = self.conn.prepare(sql::CLAIMS)?;
        let rows = stmt.query_map([], |r| {
            Ok(ClaimRow {
                player: r.get(0)?,
                nickname: r.get(1)?,
                password_hash: r.get(2)?,
                address: r.get(3)?,
                claimed_ms: r.get(4)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn games_since(&mut self, since_ms: u64) -> Result<Vec<[i64; 2]>, DbError> {
        let mut stmt = self.conn.prepare(sql::GAMES_SINCE)?;
        let rows = stmt.query_map(params![since_ms as i64], |r| Ok([r.get(0)?, r.get(1)?]))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn rated_opponents(&mut self) -> Result<Vec<(i64, i64)>, DbError> {
        let mut stmt = self.conn.prepare(sql::RATED_OPPONENTS)?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn rated_since(&mut self, since_ms: u64) -> Result<Vec<RatedRow>, DbError> {
        let mut stmt = self.conn.prepare(sql::RATED_SINCE)?;
        let rows = stmt.query_map(params![since_ms as i64], |r| {
            Ok(RatedRow { players: [r.get(0)?, r.get(1)?], ended_ms: r.get(2)? })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn ratings(&mut self) -> Result<Vec<RatingRow>, DbError> {
        let mut stmt = self.conn.prepare(sql::RATINGS)?;
        let rows = stmt.query_map([], rating_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn player_claim(&mut self, id: u64) -> Result<Option<ClaimRow>, DbError> {
        let mut stmt = self.conn.prepare_cached(sql::PLAYER_CLAIM)?;
        let mut rows = stmt.query_map(params![id as i64], |r| {
            Ok(ClaimRow {
                player: id as i64,
                nickname: r.get(0)?,
                password_hash: r.get(1)?,
                address: r.get(2)?,
                claimed_ms: r.get(3)?,
            })
        })?;
        Ok(rows.next().transpose()?)
    }

    fn turn_ratings(&mut self) -> Result<Vec<RatingRow>, DbError> {
        let mut stmt = self.conn.prepare(sql::TURN_RATINGS)?;
        let rows = stmt.query_map([], rating_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn player_turn_ratings(&mut self, id: u64) -> Result<Vec<RatingRow>, DbError> {
        let mut stmt = self.conn.prepare_cached(sql::PLAYER_TURN_RATINGS)?;
        let rows = stmt.query_map(params![id as i64], rating_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn player_ratings(&mut self, id: u64) -> Result<Vec<RatingRow>, DbError> {
        let mut stmt = self.conn.prepare_cached(sql::PLAYER_RATINGS)?;
        let rows = stmt.query_map(params![id as i64], rating_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn recent_games(&mut self, player: u64, limit: u32, private: bool) -> Result<Vec<RecentRow>, DbError> {
        let statement = if private { sql::RECENT_GAMES } else { sql::RECENT_PUBLIC_GAMES };
        let mut stmt = self.conn.prepare_cached(statement)?;
        let rows = stmt.query_map(params![player as i64, limit], |r| {
            Ok(RecentRow {
                id: r.get(0)?,
                variant: r.get(1)?,
                first_player: r.get(2)?,
                ended_ms: r.get(3)?,
                rated: r.get(4)?,
                archive: r.get(5)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn archive(&mut self, game: u64) -> Result<Option<ArchiveRow>, DbError> {
        let mut stmt = self.conn.prepare_cached(sql::ARCHIVE)?;
        Ok(stmt
            .query_row(params![game as i64], |r| {
                Ok(ArchiveRow { public: r.get(0)?, players: [r.get(1)?, r.get(2)?], archive: r.get(3)? })
            })
            .optional()?)
    }

    fn upkeep(&mut self, last: bool) {
        let pragma = if last { "PRAGMA wal_checkpoint(TRUNCATE)" } else { "PRAGMA wal_checkpoint(PASSIVE)" };
        let _ = self.conn.query_row(pragma, [], |_| Ok(()));
    }

    fn needs_upkeep(&self) -> bool {
        self.checkpoints
    }
}

/// A row of the ratings' columns (see [`RatingRow`]).
fn rating_row(r: &rusqlite::Row) -> rusqlite::Result<RatingRow> {
    Ok(RatingRow {
        player: r.get(0)?,
        variant: r.get(1)?,
        rating: r.get(2)?,
        deviation: r.get(3)?,
        volatility: r.get(4)?,
        games: r.get(5)?,
        wins: r.get(6)?,
        draws: r.get(7)?,
        losses: r.get(8)?,
    })
}
