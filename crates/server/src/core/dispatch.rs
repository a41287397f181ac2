//! One message from a connection: decoded with errors, checked against the connection's
//! budget and strikes, then handed to the part of the core that answers it.

use super::answers::is_large;
use super::challenges::ChallengeRequest;
use super::connections::MAX_PENDING_MESSAGES;
use super::limits::Verdict;
use super::{ConnId, Core, Refusal, refuse};
use ludus_protocol::{
    ClientMessage, ErrorCode, MAX_CLIENT_MESSAGE_BYTES, PROTOCOL_VERSION, PlayerId, ServerMessage,
    decode_client, hello_version,
};

impl Core {
    /// Handles one message from a connection.
    pub(super) fn message(&mut self, conn: ConnId, bytes: &[u8]) {
        let now = self.now;
        let limits = self.limits.clone();
        let Some(c) = self.conns.get_mut(&conn) else {
            return;
        };
        if c.closing {
            return;
        }
        if let Some((_, _, waiting)) = &mut c.pending {
            if waiting.len() < MAX_PENDING_MESSAGES && bytes.len() <= MAX_CLIENT_MESSAGE_BYTES {
                waiting.push(bytes.to_vec());
            } else {
                self.strike(conn, "too many messages before the welcome".to_string());
            }
            return;
        }
        match c.bucket.take(&limits, now) {
            Verdict::Pass => {}
            Verdict::Close => {
                self.close(conn);
                return;
            }
            Verdict::Refuse { tell } => {
                if tell {
                    self.error(conn, Refusal::new(ErrorCode::RateLimited, "too many messages: slow down"));
                }
                return;
            }
        }
        let signed_in = c.player;
        if bytes.len() > MAX_CLIENT_MESSAGE_BYTES {
            self.strike(
                conn,
                format!("message of {} bytes (at most {MAX_CLIENT_MESSAGE_BYTES})", bytes.len()),
            );
            return;
        }
        let message = match decode_client(bytes) {
            Ok(m) => m,
            Err(e) => {
                if signed_in.is_none()
                    && let Some(version) = hello_version(bytes).filter(|&v| v != PROTOCOL_VERSION)
                {
                    self.incompatible(conn, version);
                    return;
                }
                self.strike(conn, e.to_string());
                return;
            }
        };
        let result = match (signed_in, message) {
            (None, ClientMessage::Hello(hello)) => self.hello(conn, hello),
            (None, _) => refuse(ErrorCode::NotSignedIn, "say Hello first"),
            (Some(_), ClientMessage::Hello(_)) => refuse(ErrorCode::AlreadySignedIn, "already signed in"),
            (Some(pid), message) => self.request(conn, pid, message),
        };
        if let Err(refusal) = result {
            self.error(conn, refusal);
        }
    }

    fn strike(&mut self, conn: ConnId, message: String) {
        self.stats.malformed += 1;
        let max = self.limits.max_strikes;
        let Some(c) = self.conns.get_mut(&conn) else {
            return;
        };
        if c.bucket.strike() > max {
            self.close(conn);
        } else {
            self.error(conn, Refusal::new(ErrorCode::Malformed, message));
        }
    }

    // Requests.

    fn request(&mut self, conn: ConnId, pid: PlayerId, message: ClientMessage) -> Result<(), Refusal> {
        if !is_large(&message) {
            return self.dispatch(conn, pid, message);
        }
        self.check_answer_budget(conn)?;
        let mark = self.effects.len();
        let result = self.dispatch(conn, pid, message);
        self.charge_answers_since(conn, mark);
        result
    }

    fn dispatch(&mut self, conn: ConnId, pid: PlayerId, message: ClientMessage) -> Result<(), Refusal> {
        match message {
            ClientMessage::Hello(_) => refuse(ErrorCode::AlreadySignedIn, "already signed in"),
            ClientMessage::SetNickname { nickname } => self.set_nickname(conn, pid, &nickname),
            ClientMessage::Lobby => {
                let lobby = self.lobby();
                self.send_conn(conn, &ServerMessage::Lobby(lobby));
                Ok(())
            }
            ClientMessage::OpenRoom { variant, clock, public, rated } => {
                self.create_room(pid, variant, clock, public, rated)
            }
            ClientMessage::JoinRoom { code } => self.join_by_code(conn, pid, &code),
            ClientMessage::FindMatch { variant, clock, rated } => {
                self.quick_match(pid, variant, clock, rated)
            }
            ClientMessage::ClaimNickname { password } => self.claim_nickname(conn, pid, password),
            ClientMessage::Leaderboard { variant } => self.leaderboard(conn, pid, variant),
            ClientMessage::Profile { nickname } => self.profile(conn, pid, &nickname),
            ClientMessage::Archive { game } => self.archive(conn, pid, game),
            ClientMessage::SignInClaimed { nickname, password } => {
                self.sign_in_claimed(conn, pid, &nickname, password)
            }
            ClientMessage::Watch { game } => self.watch(pid, game),
            ClientMessage::Move { game, ply, mv } => self.play(pid, game, ply, &mv),
            ClientMessage::Propose { game, ply, mv } => self.propose(pid, game, ply, &mv),
            ClientMessage::Resign { game } => self.resign(pid, game),
            ClientMessage::OfferDraw { game } => self.offer_draw(pid, game),
            ClientMessage::AnswerDraw { game, accept } => self.answer_draw(pid, game, accept),
            ClientMessage::Rematch { game } => self.rematch(pid, game),
            ClientMessage::Chat { game, text } => self.chat(pid, game, text),
            ClientMessage::Mute { game, player, muted } => self.mute(pid, game, player, muted),
            ClientMessage::Leave => {
                self.leave(pid);
                self.send_conn(conn, &ServerMessage::Left);
                Ok(())
            }
            ClientMessage::Challenge { opponent, variant, side, days, listed, rated } => {
                self.challenge(pid, ChallengeRequest { opponent, variant, side, days, listed, rated })
            }
            ClientMessage::AcceptChallenge { code } => self.accept_challenge(conn, pid, &code),
            ClientMessage::DeclineChallenge { code } => self.decline_challenge(pid, &code),
            ClientMessage::CancelChallenge { code } => self.cancel_challenge(pid, &code),
            ClientMessage::MyGames => {
                self.send_my_games(conn, pid);
                Ok(())
            }
            ClientMessage::OpenGame { game } => self.open_game(pid, game),
            ClientMessage::Tournaments => {
                self.tournament_list(pid);
                Ok(())
            }
            ClientMessage::CreateTournament(settings) => self.create_tournament(conn, pid, settings),
            ClientMessage::JoinTournament(which) => self.join_tournament(conn, pid, which),
            ClientMessage::WithdrawTournament { tournament } => self.withdraw_tournament(pid, tournament),
            ClientMessage::ViewTournament { tournament } => self.view_tournament(pid, tournament),
            ClientMessage::Berserk { game } => self.berserk(pid, game),
            ClientMessage::Ping { nonce } => {
                self.send_conn(conn, &ServerMessage::Pong { nonce });
                Ok(())
            }
        }
    }
}
