//! The interface's words in English and Vietnamese, from the Project Fluent files
//! `assets/i18n/en.ftl` and `vi.ftl` (the same message ids in both).

use serde::{Deserialize, Serialize};

mod fluent;
pub use fluent::{errors, ids, template, variables};

/// A language of the interface.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// Tiếng Việt.
    Vi,
}

impl Lang {
    /// Every language.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Vi];

    /// The language's own name.
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Vi => "Tiếng Việt",
        }
    }

    /// The language's code: `en` or `vi` (the Fluent files' names).
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Vi => "vi",
        }
    }

    /// Reads `en` or `vi`.
    pub fn parse(s: &str) -> Option<Lang> {
        match s {
            "en" => Some(Lang::En),
            "vi" => Some(Lang::Vi),
            _ => None,
        }
    }

    /// The language for a list of preferred locales, most preferred first (`vi`, `vi-VN`,
    /// `vi_VN.UTF-8`, `en-US`...): Vietnamese when the first one's language is Vietnamese (any
    /// region, any case), else English (also for no locale, an empty one, `C` or `POSIX`).
    pub fn from_locales<S: AsRef<str>>(locales: impl IntoIterator<Item = S>) -> Lang {
        let first = locales.into_iter().map(|l| l.as_ref().trim().to_string()).find(|l| !l.is_empty());
        let language = first.as_deref().and_then(|l| l.split(['-', '_', '.', '@']).next()).unwrap_or("");
        if language.eq_ignore_ascii_case("vi") { Lang::Vi } else { Lang::En }
    }

    /// The text of the plain message `id` (one without variables); English if this language
    /// lacks it, the id itself if both do. `id` is a literal (the texts' test reads them from
    /// the sources); a message chosen at run time is an [`Id`], for [`Lang::text`].
    pub fn t(self, id: &'static str) -> &'static str {
        fluent::plain(self, id).unwrap_or(id)
    }

    /// The message `id` with its variables: `lang.fmt("over-wins", [("side", name.into())])`.
    /// English if this language lacks it, the id itself if both do.
    pub fn fmt<'a>(
        self,
        id: &'static str,
        args: impl IntoIterator<Item = (&'static str, Value<'a>)>,
    ) -> String {
        fluent::format(self, id, args).unwrap_or_else(|| id.to_string())
    }

    /// [`Lang::t`] for a message chosen at run time.
    pub fn text(self, id: Id) -> &'static str {
        self.t(id.0)
    }

    /// [`Lang::fmt`] for a message chosen at run time.
    pub fn text_with<'a>(self, id: Id, args: impl IntoIterator<Item = (&'static str, Value<'a>)>) -> String {
        self.fmt(id.0, args)
    }
}

/// A value for a message's variable: text or a number (`"Red".into()`, `5.into()`).
pub type Value<'a> = fluent_bundle::FluentValue<'a>;

/// The id of a message chosen at run time (a variant's name, a refusal's text...). Only
/// [`id!`] makes one, from a literal, so that the texts' test finds every id in the sources.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Id(&'static str);

impl Id {
    #[doc(hidden)]
    pub const fn literal(id: &'static str) -> Id {
        Id(id)
    }

    /// The message's id in the Fluent files.
    pub fn as_str(self) -> &'static str {
        self.0
    }
}

/// The [`Id`] of a message: `id!("game-alquerque")`.
macro_rules! id {
    ($id:literal) => {
        $crate::i18n::Id::literal($id)
    };
}
pub(crate) use id;

#[cfg(test)]
const EN: &[(&str, &str)] = &[
    ("app.title", "Ludus"),
    ("app.subtitle", "Two ancient capture games"),
    ("game.latrunculi", "Latrunculi"),
    ("game.latrunculi-quick", "Latrunculi, quick 8x8"),
    ("game.alquerque", "Alquerque"),
    ("game.latrunculi.blurb", "Roman soldiers' game: rook moves, sandwich captures, trap the king."),
    ("game.latrunculi-quick.blurb", "The same battle on a smaller 8x8 field."),
    ("game.alquerque.blurb", "The ancestor of checkers: jump, capture, keep jumping."),
    ("menu.game", "Game"),
    ("menu.mode", "Opponent"),
    ("menu.vs_computer", "Against the computer"),
    ("menu.two_players", "Two players on this device"),
    ("menu.play_as", "Play as"),
    ("menu.level", "Level"),
    ("menu.play", "Play"),
    ("menu.resume", "Resume the unfinished game"),
    ("menu.rules", "Rules and tips"),
    ("menu.settings", "Settings"),
    ("menu.quit", "Quit"),
    ("menu.back", "Back"),
    ("menu.online", "Play online or on the local network (LAN)"),
    ("menu.analyse", "Analyse a game"),
    ("net.title", "Play online"),
    ("net.offline", "Not connected"),
    ("net.connecting", "Connecting to {}…"),
    ("net.signed_in", "Connected to {} as {}"),
    ("net.reconnecting", "Connection to {} lost: reconnecting (attempt {})…"),
    ("net.bad_address", "That address does not work: {}"),
    ("net.address.empty", "no address typed"),
    (
        "net.address.wss_on_desktop",
        "wss:// is for browsers: type the server's address (host:5000, or https://host:5000)",
    ),
    ("net.address.malformed", "“{}” is not an address"),
    ("net.address.unresolved", "no computer called {} was found ({})"),
    ("net.unreachable", "Cannot reach the server at {} ({}). Check the address and that the server runs."),
    (
        "net.no_internet",
        "This device has no network connection: online play needs one. The game tries again once the network is back; games against the computer and two-player games still work.",
    ),
    ("net.incompatible", "This game and the server speak different versions: {}"),
    ("net.back_to_game", "Back to your game"),
    ("net.lobby", "Lobby"),
    ("net.server", "Server address"),
    ("net.nickname", "Nickname"),
    ("net.connect", "Connect"),
    ("net.disconnect", "Disconnect"),
    ("net.room_waiting", "Waiting for an opponent in {}. Give your friend this code:"),
    ("net.room_public", "The room is listed in the lobby."),
    ("net.room_private", "Private room: only this code lets someone in."),
    ("net.queue_waiting", "Looking for an opponent for {}…"),
    ("net.cancel", "Cancel"),
    ("net.time_control", "Time control (minutes + seconds a move)"),
    ("net.rated", "Rated game (both ratings change)"),
    ("net.rated_needs_claim", "Rated games need a claimed nickname (below the server's address)."),
    ("net.account", "Keep your nickname, rating and games"),
    (
        "net.claim_why",
        "Claim your nickname with a password: nobody else can take it, and you sign in with it on any device.",
    ),
    ("net.password", "Password"),
    (
        "net.password_insecure",
        "This server was not reached over https: someone on the network could read a password. Use a password you use nowhere else.",
    ),
    ("net.claim", "Claim \u{201c}{}\u{201d}"),
    ("net.sign_in_claimed", "Already claimed a nickname? Sign in with it:"),
    ("net.sign_in", "Sign in"),
    ("net.password_length", "A password has at least {} characters."),
    ("net.claimed", "Your nickname \u{201c}{}\u{201d} is claimed."),
    ("net.your_ratings", "Your ratings: {}"),
    ("net.leaderboard", "Leaderboard: {}"),
    ("net.your_place", "Your place: {} (rating {})"),
    ("net.game_rated", "Rated"),
    ("net.game_casual", "Casual"),
    ("net.rating_change", "{}: rating {} \u{2192} {} ({})"),
    ("net.show", "Show:"),
    ("net.all", "All"),
    ("net.filtered", "Showing {} of the {} listed"),
    ("net.my_profile", "My profile and games"),
    ("profile.title", "Profile"),
    ("profile.rating", "Rating"),
    ("profile.games", "Games"),
    ("profile.wins", "Won"),
    ("profile.draws", "Drawn"),
    ("profile.losses", "Lost"),
    ("profile.won", "won"),
    ("profile.drawn", "drawn"),
    ("profile.lost", "lost"),
    ("profile.against", "against {}"),
    (
        "profile.not_claimed",
        "This nickname is not claimed: only players who claim their nickname have ratings.",
    ),
    ("profile.recent", "Recent games"),
    ("profile.replay_hint", "Tap a game to replay and analyse it."),
    ("net.quick_match", "Quick match"),
    ("net.create_public", "New public room"),
    ("net.create_private", "New private room"),
    ("net.code", "Room code"),
    ("net.join", "Join"),
    ("net.online_count", "{} players online"),
    ("net.open_rooms", "Open rooms ({})"),
    ("net.none", "None right now"),
    ("net.live_games", "Live games ({})"),
    ("net.watch", "Watch"),
    ("net.plies", "{} moves"),
    ("net.spectators", "{} watching"),
    ("net.no_clock", "no clock"),
    ("net.you", "{} — you"),
    ("net.opponent_away", "{} is disconnected: the game waits {} for them to come back"),
    ("net.watching", "You are watching"),
    ("net.propose_hint", "Tap a piece and a destination to propose the next move."),
    ("net.your_proposal", "Your proposal: {}"),
    ("net.proposal", "{} — proposed by {}"),
    ("net.crowd_guessed", "The crowd guessed it: {} ({} proposed it)"),
    ("net.crowd_missed", "The crowd missed: {} ({} proposed it)"),
    ("net.crowd_record", "What the spectators proposed"),
    ("net.rematch_offered", "Your opponent offers a rematch"),
    ("net.resign_confirm", "Tap again to resign"),
    ("net.rematch_sent", "Rematch asked: waiting for your opponent"),
    ("net.err.malformed", "The server did not understand the request."),
    ("net.err.internal", "The server could not do that; try again."),
    ("net.err.elsewhere", "You signed in from another window or device."),
    ("net.err.nickname", "That nickname is not allowed: 2 to 20 letters, digits, spaces, - or _."),
    ("net.err.rate", "Too many requests: slow down a little."),
    ("net.err.clock", "That time control is not allowed."),
    ("net.err.unknown_room", "No room has that code."),
    ("net.err.room_full", "That room already has two players."),
    ("net.err.own_room", "That is your own room: give the code to a friend."),
    ("net.err.busy", "You are still playing a game: finish or resign it first."),
    ("net.err.unknown_game", "That game is not available."),
    ("net.err.not_allowed", "That is not allowed in this game."),
    ("net.err.turn", "It is not your turn."),
    ("net.err.illegal", "The server refused that move."),
    ("net.err.over", "The game is over."),
    ("net.err.no_rematch", "No rematch: the opponent has left."),
    ("net.err.no_draw_offer", "There is no draw offer to answer."),
    ("net.err.draw_offered", "You have already offered a draw on this move."),
    ("net.err.full", "The server is full; try again later."),
    ("net.err.chat_too_long", "That message is too long: 200 characters at most."),
    (
        "net.err.chat_bad_text",
        "That message cannot be sent: it is empty or has invisible or control characters.",
    ),
    ("net.err.not_in_game", "You are not in that game."),
    ("net.err.chat_full", "The chat of this game is full."),
    ("net.err.mute_self", "You cannot mute yourself."),
    ("net.err.password", "A password has 8 to 128 characters."),
    ("net.err.credentials", "Wrong nickname or password."),
    ("net.err.not_claimed", "Rated games need a claimed nickname, for both players."),
    ("net.err.unknown_player", "No player has that nickname."),
    ("over.back_lobby", "Back to the lobby"),
    ("host.title", "Host on the local network (LAN)"),
    (
        "host.explain",
        "Run a server on this computer: other computers, tablets and phones on the same network join it.",
    ),
    ("host.start", "Host on the local network"),
    ("host.running", "Hosting. Others on this network connect to:"),
    ("host.desktop", "Ludus on a computer: {}"),
    ("host.browser", "In a browser: {}"),
    ("host.stop", "Stop hosting"),
    ("host.failed", "Could not start the server: {}"),
    ("host.found", "Ludus servers on the local network:"),
    ("level.easy", "Easy"),
    ("level.medium", "Medium"),
    ("level.hard", "Hard"),
    ("level.random", "Random"),
    ("side.red", "Red"),
    ("side.black", "Black"),
    ("side.white", "White"),
    ("status.to_move", "{} to move"),
    ("status.your_move", "Your move ({})"),
    ("status.must_capture", "{} to move: a capture is compulsory"),
    ("status.thinking", "The computer is thinking…"),
    ("status.chain", "Keep jumping: tap the next landing point"),
    ("status.king_danger", "{}'s king has only one free side!"),
    ("status.clock", "Plies in a row without a capture: {} (the limit is {})"),
    (
        "status.repetition.latrunculi",
        "This position has now occurred twice: whoever makes it occur a third time loses",
    ),
    ("status.repetition", "This position has now occurred twice: a third time ends the game in a draw"),
    ("hud.moves", "Moves"),
    ("hud.captured", "Captured"),
    ("hud.undo", "Undo"),
    ("hud.redo", "Redo"),
    ("hud.hint", "Hint"),
    ("hud.resign", "Resign"),
    ("hud.offer_draw", "Offer a draw"),
    ("chat.title", "Chat ({})"),
    ("chat.none", "No messages yet."),
    ("chat.hint", "Write a message"),
    ("chat.send", "Send"),
    ("chat.mute", "Mute:"),
    ("chat.spectator_line", "{} (spectator): {}"),
    ("chat.hello", "Hello!"),
    ("chat.good_luck", "Good luck!"),
    ("chat.have_fun", "Have fun!"),
    ("chat.nice_move", "Nice move!"),
    ("chat.oops", "Oops!"),
    ("chat.thanks", "Thanks!"),
    ("chat.well_played", "Well played!"),
    ("chat.good_game", "Good game!"),
    ("chat.rematch", "Rematch?"),
    ("draw.offered", "{} offers a draw."),
    ("draw.accept", "Accept the draw"),
    ("draw.decline", "Decline"),
    ("draw.waiting", "You offered a draw: waiting for the answer."),
    ("draw.declined", "{} declined the draw."),
    ("hud.new_game", "New game"),
    ("hud.menu", "Menu"),
    ("hud.flip", "Turn the board"),
    ("hud.level", "Computer: {}"),
    ("over.title", "Game over"),
    ("over.wins", "{} wins"),
    ("over.draw", "Draw"),
    ("over.moment.win", "Victory!"),
    ("over.moment.loss", "Defeat"),
    ("over.rematch", "Rematch"),
    ("over.view", "View the board"),
    ("over.back", "Back to the menu"),
    ("over.analyse", "Analyse"),
    ("analysis.title", "Analysis"),
    ("analysis.wins_in", "{} wins in {}"),
    ("analysis.progress", "Analysing: {} of {} positions"),
    ("analysis.position", "After {} moves:"),
    ("analysis.pending", "not analysed yet"),
    ("analysis.played", "{} played"),
    ("analysis.better", "Better:"),
    ("analysis.blunder", "blunder"),
    ("analysis.mistake", "mistake"),
    ("analysis.tally", "{} — blunders: {}, mistakes: {}"),
    ("records.title", "Analyse a game"),
    ("records.recent", "Recent games"),
    ("records.none", "No finished game yet: games are kept here when they end."),
    ("records.paste", "Paste a record"),
    (
        "records.paste.help",
        "The record's JSON (as the game saves it) or text: the game's name (latrunculi, latrunculi-quick or alquerque), optionally the start position, then the moves.",
    ),
    ("records.open", "Analyse this record"),
    ("records.bad", "This record cannot be read: {}"),
    ("records.no_moves", "The record has no moves."),
    (
        "records.corrupt",
        "The recent games could not be read ({}). The file was kept, renamed {}; nothing was deleted.",
    ),
    ("records.unwritable", "The finished game could not be kept: {}"),
    ("records.you", "you"),
    ("records.computer", "computer ({})"),
    ("analysis.start", "Start:"),
    ("records.person", "a player"),
    ("records.online", "online player"),
    ("records.unfinished", "not finished"),
    ("records.moves", "moves: {}"),
    ("reason.KingImmobilised", "The king was immobilised: no free square around it."),
    ("reason.KingImmobilised.self", "The king was walled in by its own side's move."),
    ("reason.OnlyKingLeft", "Only the king was left: every soldier was captured."),
    ("reason.NoPieces", "Every piece was captured."),
    ("reason.NoLegalMove", "No legal move was left."),
    ("reason.Repetition", "The same position occurred a third time."),
    (
        "reason.Repetition.latrunculi",
        "The same position occurred a third time: the player who repeated it loses.",
    ),
    ("reason.NoCaptureLimit", "50 plies in a row without a capture: the game is drawn."),
    ("reason.NoCaptureLimit.latrunculi", "100 plies without a capture: decided on material."),
    ("reason.Resignation", "Resignation."),
    ("reason.Timeout", "Time ran out."),
    ("reason.Abandoned", "The game was abandoned."),
    ("reason.Agreement", "Draw agreed by both players."),
    ("settings.title", "Settings"),
    ("settings.language", "Language"),
    ("settings.animation", "Animation speed"),
    ("settings.anim.off", "Off"),
    ("settings.anim.fast", "Fast"),
    ("settings.anim.normal", "Normal"),
    ("settings.anim.slow", "Slow"),
    ("settings.theme", "Board theme"),
    ("settings.theme.wood", "Wood"),
    ("settings.theme.stone", "Stone"),
    ("settings.theme.contrast", "High contrast"),
    ("settings.sound", "Sound effects"),
    ("settings.sound.unavailable", "(not available in this build)"),
    ("settings.coordinates", "Show coordinates"),
    ("menu.lessons", "Learn to play: lessons"),
    ("title.card.latrunculi", "Latrunculi 12x8"),
    ("title.card.latrunculi-quick", "Latrunculi 8x8"),
    ("title.card.alquerque", "Alquerque 5x5"),
    ("title.online", "Online or on the network (LAN)"),
    ("lessons.title", "Learn to play"),
    ("lessons.progress", "{} of {} lessons done"),
    ("lessons.count", "Lesson {} of {}"),
    ("lessons.task", "Your task"),
    ("lessons.retry", "Try again"),
    ("lessons.next", "Next lesson"),
    ("lessons.list", "All lessons"),
    ("lessons.well_done", "Well done!"),
    ("lessons.wrong", "Not quite: that move does not do what the task asks."),
    ("lessons.your_move", "Your move: tap a piece, then where it goes."),
    ("lessons.all_done", "You have finished every lesson of this game."),
    ("lessons.lost", "Not this time: the game is lost. Try again."),
    ("lessons.unavailable", "The lessons could not be read: {}"),
    (
        "lessons.corrupt",
        "Your progress in the lessons could not be read ({}). The file was kept, renamed {}; nothing was deleted.",
    ),
    ("settings.text_size", "Text size"),
    ("ui.ok", "OK"),
    (
        "level.easy.about",
        "Easy plays mostly at random: it takes pieces it can take and a win in one move, but looks no further.",
    ),
    (
        "level.medium.about",
        "Medium looks a few moves ahead and follows the captures after them; it never misses a win in one move or a safe capture. In Alquerque it also knows the endings with few pieces.",
    ),
    (
        "level.hard.about",
        "Hard searches as deep as it can in about two seconds a move; in Alquerque it also knows the endings with few pieces by heart.",
    ),
    ("menu.new_player", "New to these games? Start with the lessons: a few minutes on the board."),
    (
        "save.corrupt",
        "The saved game could not be read ({}). The file was kept, renamed {}; nothing was deleted.",
    ),
    (
        "settings.corrupt",
        "Your settings could not be read ({}); the usual ones are used. The file was kept, renamed {}; nothing was deleted.",
    ),
    (
        "net.config_corrupt",
        "The online settings could not be read ({}). The file was kept, renamed {}; nothing was deleted.",
    ),
    ("save.resumed", "The unfinished game was restored."),
    ("rules.title", "Rules and tips"),
    ("rules.latrunculi.title", "Latrunculi"),
    ("rules.alquerque.title", "Alquerque"),
    (
        "rules.latrunculi.setup",
        "Red starts with twelve soldiers on rank 1 and its king on g2; Black has twelve soldiers on rank 8 and its king on f7. Red moves first. The quick variant is played on 8x8 with kings on e2 and d7.",
    ),
    (
        "rules.latrunculi.move",
        "Every piece, soldier or king, moves like a rook in chess: any number of empty squares along a rank or a file. No jumping, no diagonal moves.",
    ),
    (
        "rules.latrunculi.capture",
        "Capture by sandwich: after your move, an enemy soldier that sits between the piece you moved and another of your pieces (soldier or king), in a straight line, is removed. One move can take up to three soldiers. Capturing is optional. Moving in between two enemies is safe: only the side that moves captures. Kings help to capture but are never captured by a sandwich.",
    ),
    (
        "rules.latrunculi.king",
        "The king is lost when it cannot move: when no square next to it (up, down, left, right) is empty, whatever blocks it, its own pieces and the board's edge included. Careful: if your own move walls in your own king, you lose at once.",
    ),
    (
        "rules.latrunculi.end",
        "You also win when the opponent has only the king left. Repeating a position for the third time loses the game for the player who repeats it. After 100 plies without a capture, the side with more pieces wins (equal material is a draw): this last rule is Ludus's own, so that every game ends. A player with no legal move loses.",
    ),
    (
        "rules.latrunculi.tips",
        "Tips: keep your king's sides open; a king next to the edge has only three free sides, in a corner only two. Attack in pairs: a soldier alone cannot capture. Before moving between two enemy pieces, check that they cannot close the sandwich next turn from another line.",
    ),
    (
        "rules.alquerque.setup",
        "A board of 25 points joined by lines. White fills ranks 1 and 2 plus d3 and e3; Black fills ranks 4 and 5 plus a3 and b3; only the centre c3 is empty. White moves first. Diagonal lines exist only on every other point, as drawn.",
    ),
    (
        "rules.alquerque.move",
        "A piece steps to an adjacent empty point along a line, forward or sideways, never backward. A piece on the far rank can only move sideways or capture. There is no promotion.",
    ),
    (
        "rules.alquerque.capture",
        "Capture by jumping over an adjacent enemy piece along a line to the empty point just beyond it, in any direction, backward too. The jumped piece is removed at once. Capturing is compulsory: if you can capture, you must (any capture you like). A capturing piece must keep jumping while it can, and may turn between jumps.",
    ),
    (
        "rules.alquerque.end",
        "You win when the opponent has no pieces or no legal move. The game is drawn after 50 plies without a capture or when a position occurs for the third time.",
    ),
    (
        "rules.alquerque.tips",
        "Tips: control the centre, where the most lines meet. Watch the diagonals: they exist only on every other point, and most surprise captures come along them. Keep your pieces together, so that none can be jumped alone. Trade pieces when you are ahead. Before every move, check the reply it forces: compulsory capture is a weapon, and a piece offered can pull the enemy where you take two back.",
    ),
    (
        "rules.latrunculi.history",
        "History: ludus latrunculorum, the \u{201c}game of little soldiers\u{201d}, was the war game of Rome. Varro names it in the first century BC, Ovid and Martial mention it, and a poem of the first century AD praises a player who wins by breaking the enemy lines. Its ancestor is the Greek petteia, which Plato says came from Egypt, a gift of the god Thoth. Boards scratched into stone have been found in Roman forts along the frontiers: the legionaries played it in camp. No Roman wrote the rules down, so every modern version, this one too, is a reconstruction.",
    ),
    (
        "rules.alquerque.history",
        "History: Alquerque comes from the Arab game qirkat, named in the tenth-century Book of Songs. The Moors brought it to Spain, and the Book of Games that King Alfonso X of Castile had made in 1283 describes it with its board. Played on a chessboard, it became checkers (draughts) in France around the twelfth century. Ludus follows the rules R. C. Bell gave in his book of board games.",
    ),
    (
        "rules.alquerque.chain",
        "To play a chain, tap the piece, then each landing point in turn; the move is made when the chain cannot go on. The pieces that must capture glow.",
    ),
    ("rules.faq.title", "Questions"),
    (
        "rules.faq.forced",
        "Why was I made to capture? In Alquerque capturing is compulsory: when a capture exists, only captures may be played, and a capturing piece keeps jumping while it can. In Latrunculi capturing is never forced.",
    ),
    (
        "rules.faq.draw",
        "Why did the game end in a draw? In Alquerque: 50 moves in a row without a capture, or a position seen for the third time. In Latrunculi there is no draw by repetition (whoever repeats a position a third time loses); after 100 moves without a capture the side with more pieces wins, and equal material is a draw.",
    ),
    (
        "rules.faq.online",
        "What if the connection drops online? The game reconnects by itself and takes your seat back. Your seat is held for a while: if you do not come back in time, the game is lost by abandonment. Clocks keep running while you are away.",
    ),
    (
        "rules.diagram.sandwich",
        "Sandwich: Red moves to close the line and the black soldier in between is removed.",
    ),
    ("rules.diagram.king", "King immobilised: the black king has no empty square beside it. Red wins."),
    (
        "rules.diagram.chain",
        "Multi-jump: White jumps twice, turning on the way; both black pieces are removed.",
    ),
    (
        "rules.notation",
        "Notation: squares are named by file letter and rank number (a1 is bottom left). A slide is written g2-g5, a capture path a1xc3xe5.",
    ),
];

#[cfg(test)]
const VI: &[(&str, &str)] = &[
    ("app.title", "Ludus"),
    ("app.subtitle", "Hai trò chơi ăn quân cổ xưa"),
    ("game.latrunculi", "Latrunculi (cờ La Mã)"),
    ("game.latrunculi-quick", "Latrunculi (cờ La Mã), bàn nhanh 8x8"),
    ("game.alquerque", "Alquerque (cờ đam cổ)"),
    ("game.latrunculi.blurb", "Trò chơi của lính La Mã: đi như xe, kẹp để ăn quân, vây chặt vua."),
    ("game.latrunculi-quick.blurb", "Cùng trận chiến trên bàn 8x8 nhỏ hơn."),
    ("game.alquerque.blurb", "Tổ tiên của cờ đam: nhảy qua, ăn quân, nhảy tiếp."),
    ("menu.game", "Trò chơi"),
    ("menu.mode", "Đối thủ"),
    ("menu.vs_computer", "Chơi với máy"),
    ("menu.two_players", "Hai người trên cùng thiết bị"),
    ("menu.play_as", "Cầm quân"),
    ("menu.level", "Mức độ"),
    ("menu.play", "Chơi"),
    ("menu.resume", "Chơi tiếp ván dang dở"),
    ("menu.rules", "Luật chơi và mẹo"),
    ("menu.settings", "Cài đặt"),
    ("menu.quit", "Thoát"),
    ("menu.back", "Quay lại"),
    ("menu.online", "Chơi trực tuyến hoặc qua mạng nội bộ (LAN)"),
    ("menu.analyse", "Phân tích một ván"),
    ("net.title", "Chơi trực tuyến"),
    ("net.offline", "Chưa kết nối"),
    ("net.connecting", "Đang kết nối tới {}…"),
    ("net.signed_in", "Đã kết nối tới {} với tên {}"),
    ("net.reconnecting", "Mất kết nối tới {}: đang kết nối lại (lần {})…"),
    ("net.bad_address", "Địa chỉ này không dùng được: {}"),
    ("net.address.empty", "chưa nhập địa chỉ"),
    (
        "net.address.wss_on_desktop",
        "wss:// chỉ dùng trong trình duyệt: hãy nhập địa chỉ của máy chủ (máy:5000, hoặc https://máy:5000)",
    ),
    ("net.address.malformed", "“{}” không phải là một địa chỉ"),
    ("net.address.unresolved", "không tìm thấy máy nào tên {} ({})"),
    (
        "net.unreachable",
        "Không liên lạc được với máy chủ {} ({}). Hãy kiểm tra địa chỉ và máy chủ có đang chạy không.",
    ),
    (
        "net.no_internet",
        "Thiết bị đang không có kết nối mạng: chơi trực tuyến cần mạng. Trò chơi sẽ tự thử lại khi có mạng; chơi với máy và hai người trên một máy vẫn chơi được.",
    ),
    ("net.incompatible", "Trò chơi này và máy chủ dùng hai phiên bản khác nhau: {}"),
    ("net.back_to_game", "Quay lại ván của bạn"),
    ("net.lobby", "Sảnh chờ"),
    ("net.server", "Địa chỉ máy chủ"),
    ("net.nickname", "Biệt danh"),
    ("net.connect", "Kết nối"),
    ("net.disconnect", "Ngắt kết nối"),
    ("net.room_waiting", "Đang chờ đối thủ vào ván {}. Hãy gửi mã phòng này cho bạn mình:"),
    ("net.room_public", "Phòng được hiện trong sảnh chờ."),
    ("net.room_private", "Phòng riêng: chỉ ai có mã này mới vào được."),
    ("net.queue_waiting", "Đang tìm đối thủ cho ván {}…"),
    ("net.cancel", "Hủy"),
    ("net.time_control", "Thời gian (phút + giây mỗi nước)"),
    ("net.rated", "Ván tính điểm (điểm của cả hai thay đổi)"),
    ("net.rated_needs_claim", "Ván tính điểm cần một biệt danh đã đăng ký (ở dưới địa chỉ máy chủ)."),
    ("net.account", "Giữ biệt danh, điểm và các ván của bạn"),
    (
        "net.claim_why",
        "Đăng ký biệt danh bằng một mật khẩu: không ai khác lấy được nó, và bạn đăng nhập bằng nó trên mọi thiết bị.",
    ),
    ("net.password", "Mật khẩu"),
    (
        "net.password_insecure",
        "Máy chủ này không được kết nối qua https: người khác trong mạng có thể đọc được mật khẩu. Hãy dùng một mật khẩu bạn không dùng ở nơi nào khác.",
    ),
    ("net.claim", "Đăng ký biệt danh \u{201c}{}\u{201d}"),
    ("net.sign_in_claimed", "Đã đăng ký biệt danh? Đăng nhập bằng biệt danh đó:"),
    ("net.sign_in", "Đăng nhập"),
    ("net.password_length", "Mật khẩu có ít nhất {} ký tự."),
    ("net.claimed", "Biệt danh \u{201c}{}\u{201d} của bạn đã được đăng ký."),
    ("net.your_ratings", "Điểm của bạn: {}"),
    ("net.leaderboard", "Bảng xếp hạng: {}"),
    ("net.your_place", "Hạng của bạn: {} (điểm {})"),
    ("net.game_rated", "Tính điểm"),
    ("net.game_casual", "Giao hữu"),
    ("net.rating_change", "{}: điểm {} \u{2192} {} ({})"),
    ("net.show", "Hiện:"),
    ("net.all", "Tất cả"),
    ("net.filtered", "Đang hiện {} trong {} mục"),
    ("net.my_profile", "Hồ sơ và các ván của tôi"),
    ("profile.title", "Hồ sơ"),
    ("profile.rating", "Điểm"),
    ("profile.games", "Số ván"),
    ("profile.wins", "Thắng"),
    ("profile.draws", "Hòa"),
    ("profile.losses", "Thua"),
    ("profile.won", "thắng"),
    ("profile.drawn", "hòa"),
    ("profile.lost", "thua"),
    ("profile.against", "với {}"),
    (
        "profile.not_claimed",
        "Biệt danh này chưa được đăng ký: chỉ người chơi đã đăng ký biệt danh mới có điểm.",
    ),
    ("profile.recent", "Các ván gần đây"),
    ("profile.replay_hint", "Chạm vào một ván để xem lại và phân tích."),
    ("net.quick_match", "Ghép trận nhanh"),
    ("net.create_public", "Tạo phòng công khai"),
    ("net.create_private", "Tạo phòng riêng"),
    ("net.code", "Mã phòng"),
    ("net.join", "Vào"),
    ("net.online_count", "{} người đang trực tuyến"),
    ("net.open_rooms", "Phòng đang chờ ({})"),
    ("net.none", "Hiện chưa có"),
    ("net.live_games", "Ván đang diễn ra ({})"),
    ("net.watch", "Xem"),
    ("net.plies", "{} nước"),
    ("net.spectators", "{} người xem"),
    ("net.no_clock", "không đồng hồ"),
    ("net.you", "{} — bạn"),
    ("net.opponent_away", "{} đã mất kết nối: ván cờ chờ người này quay lại thêm {}"),
    ("net.watching", "Bạn đang xem ván này"),
    ("net.propose_hint", "Chạm vào một quân rồi chạm vào chỗ muốn đến để đề xuất nước đi tiếp theo."),
    ("net.your_proposal", "Đề xuất của bạn: {}"),
    ("net.proposal", "{} — {} người đề xuất"),
    ("net.crowd_guessed", "Khán giả đoán đúng: {} ({} người đề xuất)"),
    ("net.crowd_missed", "Khán giả đoán sai: {} ({} người đề xuất)"),
    ("net.crowd_record", "Các đề xuất của khán giả"),
    ("net.rematch_offered", "Đối thủ mời đấu lại"),
    ("net.resign_confirm", "Chạm lần nữa để xin thua"),
    ("net.rematch_sent", "Đã mời đấu lại: đang chờ đối thủ"),
    ("net.err.malformed", "Máy chủ không hiểu yêu cầu."),
    ("net.err.internal", "Máy chủ không làm được việc đó; hãy thử lại."),
    ("net.err.elsewhere", "Bạn đã đăng nhập từ một cửa sổ hoặc thiết bị khác."),
    ("net.err.nickname", "Biệt danh không hợp lệ: từ 2 đến 20 chữ cái, chữ số, dấu cách, - hoặc _."),
    ("net.err.rate", "Quá nhiều yêu cầu: hãy chậm lại một chút."),
    ("net.err.clock", "Cách tính giờ này không được phép."),
    ("net.err.unknown_room", "Không có phòng nào mang mã này."),
    ("net.err.room_full", "Phòng này đã đủ hai người chơi."),
    ("net.err.own_room", "Đây là phòng của chính bạn: hãy đưa mã cho bạn bè."),
    ("net.err.busy", "Bạn vẫn đang chơi một ván: hãy chơi xong hoặc xin thua trước."),
    ("net.err.unknown_game", "Ván này không còn."),
    ("net.err.not_allowed", "Không được làm vậy trong ván này."),
    ("net.err.turn", "Chưa đến lượt bạn."),
    ("net.err.illegal", "Máy chủ từ chối nước đi đó."),
    ("net.err.over", "Ván đấu đã kết thúc."),
    ("net.err.no_rematch", "Không thể đấu lại: đối thủ đã rời đi."),
    ("net.err.no_draw_offer", "Không có lời đề nghị hòa nào để trả lời."),
    ("net.err.draw_offered", "Bạn đã đề nghị hòa ở nước này rồi."),
    ("net.err.full", "Máy chủ đã đầy; hãy thử lại sau."),
    ("net.err.chat_too_long", "Tin nhắn quá dài: tối đa 200 ký tự."),
    (
        "net.err.chat_bad_text",
        "Không gửi được tin nhắn này: tin nhắn trống hoặc có ký tự ẩn hay ký tự điều khiển.",
    ),
    ("net.err.not_in_game", "Bạn không ở trong ván này."),
    ("net.err.chat_full", "Khung trò chuyện của ván này đã đầy."),
    ("net.err.mute_self", "Bạn không thể tự tắt tiếng chính mình."),
    ("net.err.password", "Mật khẩu phải có từ 8 đến 128 ký tự."),
    ("net.err.credentials", "Sai biệt danh hoặc mật khẩu."),
    ("net.err.not_claimed", "Ván có xếp hạng cần biệt danh đã đăng ký, cho cả hai người chơi."),
    ("net.err.unknown_player", "Không có người chơi nào có biệt danh này."),
    ("over.back_lobby", "Về sảnh chờ"),
    ("host.title", "Làm máy chủ trong mạng nội bộ (LAN)"),
    (
        "host.explain",
        "Chạy một máy chủ trên máy tính này: máy tính, máy tính bảng và điện thoại khác trong cùng mạng có thể vào chơi.",
    ),
    ("host.start", "Làm máy chủ trong mạng nội bộ"),
    ("host.running", "Đang làm máy chủ. Người khác trong mạng này kết nối tới:"),
    ("host.desktop", "Ludus trên máy tính: {}"),
    ("host.browser", "Trong trình duyệt: {}"),
    ("host.stop", "Dừng máy chủ"),
    ("host.failed", "Không khởi động được máy chủ: {}"),
    ("host.found", "Các máy chủ Ludus trong mạng nội bộ:"),
    ("level.easy", "Dễ"),
    ("level.medium", "Trung bình"),
    ("level.hard", "Khó"),
    ("level.random", "Ngẫu nhiên"),
    ("side.red", "Đỏ"),
    ("side.black", "Đen"),
    ("side.white", "Trắng"),
    ("status.to_move", "Lượt của {}"),
    ("status.your_move", "Đến lượt bạn ({})"),
    ("status.must_capture", "Lượt của {}: bắt buộc phải ăn quân"),
    ("status.thinking", "Máy đang suy nghĩ…"),
    ("status.chain", "Nhảy tiếp: chạm vào điểm đáp tiếp theo"),
    ("status.king_danger", "Vua của {} chỉ còn một ô trống!"),
    ("status.clock", "Số nước liên tiếp không ăn quân: {} (giới hạn là {})"),
    (
        "status.repetition.latrunculi",
        "Thế cờ này đã xuất hiện hai lần: ai đi để nó xuất hiện lần thứ ba sẽ bị thua",
    ),
    ("status.repetition", "Thế cờ này đã xuất hiện hai lần: nếu xuất hiện lần thứ ba, ván cờ kết thúc hòa"),
    ("hud.moves", "Các nước đi"),
    ("hud.captured", "Quân bị ăn"),
    ("hud.undo", "Lùi nước"),
    ("hud.redo", "Khôi phục nước"),
    ("hud.hint", "Gợi ý"),
    ("hud.resign", "Xin thua"),
    ("hud.offer_draw", "Đề nghị hòa"),
    ("chat.title", "Trò chuyện ({})"),
    ("chat.none", "Chưa có tin nhắn nào."),
    ("chat.hint", "Viết tin nhắn"),
    ("chat.send", "Gửi"),
    ("chat.mute", "Tắt tiếng:"),
    ("chat.spectator_line", "{} (khán giả): {}"),
    ("chat.hello", "Xin chào!"),
    ("chat.good_luck", "Chúc may mắn!"),
    ("chat.have_fun", "Chơi vui nhé!"),
    ("chat.nice_move", "Nước đi hay!"),
    ("chat.oops", "Ôi, lỡ tay!"),
    ("chat.thanks", "Cảm ơn!"),
    ("chat.well_played", "Chơi hay lắm!"),
    ("chat.good_game", "Ván cờ hay!"),
    ("chat.rematch", "Chơi lại nhé?"),
    ("draw.offered", "{} đề nghị hòa."),
    ("draw.accept", "Đồng ý hòa"),
    ("draw.decline", "Từ chối"),
    ("draw.waiting", "Bạn đã đề nghị hòa: đang chờ trả lời."),
    ("draw.declined", "{} đã từ chối hòa."),
    ("hud.new_game", "Ván mới"),
    ("hud.menu", "Trình đơn"),
    ("hud.flip", "Xoay bàn cờ"),
    ("hud.level", "Máy: {}"),
    ("over.title", "Kết thúc ván"),
    ("over.wins", "{} thắng"),
    ("over.draw", "Hòa"),
    ("over.moment.win", "Chiến thắng!"),
    ("over.moment.loss", "Thất bại"),
    ("over.rematch", "Chơi lại"),
    ("over.view", "Xem bàn cờ"),
    ("over.back", "Về trình đơn"),
    ("over.analyse", "Phân tích"),
    ("analysis.title", "Phân tích ván cờ"),
    ("analysis.wins_in", "{} thắng sau {} nước"),
    ("analysis.progress", "Đang phân tích: {} trên {} thế cờ"),
    ("analysis.position", "Sau {} nước:"),
    ("analysis.pending", "chưa phân tích"),
    ("analysis.played", "{} đã đi"),
    ("analysis.better", "Nước tốt hơn:"),
    ("analysis.blunder", "nước hớ"),
    ("analysis.mistake", "nước yếu"),
    ("analysis.tally", "{} — nước hớ: {}, nước yếu: {}"),
    ("records.title", "Phân tích một ván"),
    ("records.recent", "Các ván gần đây"),
    ("records.none", "Chưa có ván nào kết thúc: ván cờ được lưu lại ở đây khi kết thúc."),
    ("records.paste", "Dán biên bản ván cờ"),
    (
        "records.paste.help",
        "JSON của biên bản (như trò chơi lưu) hoặc văn bản: tên trò chơi (latrunculi, latrunculi-quick hoặc alquerque), có thể thêm thế cờ bắt đầu, rồi đến các nước đi.",
    ),
    ("records.open", "Phân tích biên bản này"),
    ("records.bad", "Không đọc được biên bản này: {}"),
    ("records.no_moves", "Biên bản không có nước đi nào."),
    (
        "records.corrupt",
        "Không đọc được danh sách các ván gần đây ({}). Tệp vẫn được giữ lại với tên mới {}; không có gì bị xóa.",
    ),
    ("records.unwritable", "Không lưu được ván vừa kết thúc: {}"),
    ("records.you", "bạn"),
    ("records.computer", "máy ({})"),
    ("analysis.start", "Thế cờ ban đầu:"),
    ("records.person", "người chơi"),
    ("records.online", "người chơi trực tuyến"),
    ("records.unfinished", "chưa kết thúc"),
    ("records.moves", "số nước: {}"),
    ("reason.KingImmobilised", "Vua bị vây chặt: không còn ô trống nào kề bên."),
    ("reason.KingImmobilised.self", "Vua bị chính nước đi của phe mình vây kín."),
    ("reason.OnlyKingLeft", "Chỉ còn lại vua: mọi quân lính đã bị ăn."),
    ("reason.NoPieces", "Mọi quân đã bị ăn."),
    ("reason.NoLegalMove", "Không còn nước đi hợp lệ."),
    ("reason.Repetition", "Cùng một thế cờ xuất hiện lần thứ ba."),
    ("reason.Repetition.latrunculi", "Cùng một thế cờ xuất hiện lần thứ ba: người lặp lại bị thua."),
    ("reason.NoCaptureLimit", "50 nước liên tiếp không có quân nào bị ăn: ván cờ hòa."),
    ("reason.NoCaptureLimit.latrunculi", "100 nước không ăn quân: phân định bằng số quân."),
    ("reason.Resignation", "Xin thua."),
    ("reason.Timeout", "Hết giờ."),
    ("reason.Abandoned", "Ván cờ bị bỏ dở."),
    ("reason.Agreement", "Hòa theo thỏa thuận của hai bên."),
    ("settings.title", "Cài đặt"),
    ("settings.language", "Ngôn ngữ"),
    ("settings.animation", "Tốc độ di chuyển của quân"),
    ("settings.anim.off", "Tắt"),
    ("settings.anim.fast", "Nhanh"),
    ("settings.anim.normal", "Vừa"),
    ("settings.anim.slow", "Chậm"),
    ("settings.theme", "Giao diện bàn cờ"),
    ("settings.theme.wood", "Gỗ"),
    ("settings.theme.stone", "Đá"),
    ("settings.theme.contrast", "Tương phản cao"),
    ("settings.sound", "Hiệu ứng âm thanh"),
    ("settings.sound.unavailable", "(không có trong bản này)"),
    ("settings.coordinates", "Hiện tọa độ"),
    ("menu.lessons", "Học chơi: các bài học"),
    ("title.card.latrunculi", "Cờ La Mã 12x8"),
    ("title.card.latrunculi-quick", "Cờ La Mã 8x8"),
    ("title.card.alquerque", "Cờ đam cổ 5x5"),
    ("title.online", "Trực tuyến hoặc mạng LAN"),
    ("lessons.title", "Học chơi"),
    ("lessons.progress", "Đã xong {} trên {} bài"),
    ("lessons.count", "Bài {} trên {}"),
    ("lessons.task", "Nhiệm vụ"),
    ("lessons.retry", "Thử lại"),
    ("lessons.next", "Bài tiếp theo"),
    ("lessons.list", "Danh sách bài học"),
    ("lessons.well_done", "Làm tốt lắm!"),
    ("lessons.wrong", "Chưa đúng: nước đi đó chưa làm được điều nhiệm vụ yêu cầu."),
    ("lessons.your_move", "Đến lượt bạn: chạm vào một quân rồi chạm vào nơi nó đi tới."),
    ("lessons.all_done", "Bạn đã học xong mọi bài của trò chơi này."),
    ("lessons.lost", "Lần này chưa được: bạn đã thua ván. Hãy thử lại."),
    ("lessons.unavailable", "Không đọc được các bài học: {}"),
    (
        "lessons.corrupt",
        "Không đọc được tiến độ học của bạn ({}). Tệp vẫn được giữ lại với tên mới {}; không có gì bị xóa.",
    ),
    ("settings.text_size", "Cỡ chữ"),
    ("ui.ok", "Đã hiểu"),
    (
        "level.easy.about",
        "Dễ chủ yếu đi ngẫu nhiên: ăn quân khi ăn được và không bỏ lỡ nước thắng ngay, nhưng không tính xa hơn.",
    ),
    (
        "level.medium.about",
        "Trung bình tính trước vài nước và theo hết các nước ăn quân, không bỏ lỡ nước thắng ngay hay nước ăn quân an toàn; nó biết các thế tàn cuộc Alquerque ít quân.",
    ),
    (
        "level.hard.about",
        "Khó tính sâu hết mức có thể trong khoảng hai giây mỗi nước; trong Alquerque nó còn thuộc lòng các thế tàn cuộc ít quân.",
    ),
    ("menu.new_player", "Mới chơi lần đầu? Hãy bắt đầu với các bài học: chỉ vài phút trên bàn cờ."),
    (
        "save.corrupt",
        "Không đọc được ván đã lưu ({}). Tệp vẫn được giữ lại với tên mới {}; không có gì bị xóa.",
    ),
    (
        "settings.corrupt",
        "Không đọc được cài đặt của bạn ({}); trò chơi dùng cài đặt mặc định. Tệp vẫn được giữ lại với tên mới {}; không có gì bị xóa.",
    ),
    (
        "net.config_corrupt",
        "Không đọc được cài đặt chơi trực tuyến ({}). Tệp vẫn được giữ lại với tên mới {}; không có gì bị xóa.",
    ),
    ("save.resumed", "Đã khôi phục ván dang dở."),
    ("rules.title", "Luật chơi và mẹo"),
    ("rules.latrunculi.title", "Latrunculi (cờ La Mã)"),
    ("rules.alquerque.title", "Alquerque (cờ đam cổ)"),
    (
        "rules.latrunculi.setup",
        "Đỏ có mười hai lính ở hàng 1 và vua ở g2; Đen có mười hai lính ở hàng 8 và vua ở f7. Đỏ đi trước. Biến thể nhanh chơi trên bàn 8x8 với vua ở e2 và d7.",
    ),
    (
        "rules.latrunculi.move",
        "Mọi quân, lính hay vua, đều đi như quân xe: bao nhiêu ô trống cũng được theo hàng ngang hoặc hàng dọc. Không được nhảy qua quân, không đi chéo.",
    ),
    (
        "rules.latrunculi.capture",
        "Ăn quân bằng cách kẹp: sau nước đi của bạn, lính địch nằm thẳng hàng giữa quân vừa đi và một quân khác của bạn (lính hoặc vua) bị loại khỏi bàn. Một nước có thể ăn tới ba lính. Ăn quân là không bắt buộc. Đi vào giữa hai quân địch là an toàn: chỉ bên vừa đi mới ăn được quân. Vua giúp kẹp nhưng không bao giờ bị ăn bằng cách kẹp.",
    ),
    (
        "rules.latrunculi.king",
        "Vua bị bắt khi không còn đi được: cả bốn ô kề bên (trên, dưới, trái, phải) đều bị chặn, bởi quân địch, bởi quân mình hay bởi mép bàn (vua sát mép bàn chỉ có ba ô kề bên, ở góc chỉ có hai). Bên vây kín vua đối phương thắng ván. Cẩn thận: nếu chính nước đi của bạn vây kín vua của mình, bạn thua ngay.",
    ),
    (
        "rules.latrunculi.end",
        "Bạn cũng thắng khi đối thủ chỉ còn lại vua. Ai làm một thế cờ lặp lại lần thứ ba sẽ bị thua. Sau 100 nước liên tiếp không ăn quân, bên nhiều quân hơn thắng (bằng quân thì hòa): luật cuối này là của riêng Ludus, để ván nào cũng kết thúc. Người không còn nước đi hợp lệ bị thua.",
    ),
    (
        "rules.latrunculi.tips",
        "Mẹo: luôn để trống vài ô kề bên vua; vua sát mép bàn chỉ có ba ô kề bên, ở góc chỉ có hai. Tấn công theo cặp: một lính đơn độc không thể ăn quân. Trước khi đi vào giữa hai quân địch, hãy xem chúng có thể khép kẹp từ hướng khác ở lượt sau hay không.",
    ),
    (
        "rules.alquerque.setup",
        "Bàn cờ có 25 điểm nối với nhau bằng các đường kẻ. Trắng đặt kín hàng 1 và 2 cùng d3 và e3; Đen đặt kín hàng 4 và 5 cùng a3 và b3; chỉ điểm giữa c3 để trống. Trắng đi trước. Đường chéo chỉ có ở cách một điểm, như trên hình.",
    ),
    (
        "rules.alquerque.move",
        "Mỗi quân đi một bước tới điểm trống kề bên theo đường kẻ, tiến lên hoặc sang ngang, không bao giờ lùi. Quân ở hàng cuối chỉ có thể đi ngang hoặc ăn quân. Không có phong cấp.",
    ),
    (
        "rules.alquerque.capture",
        "Ăn quân bằng cách nhảy qua một quân địch kề bên theo đường kẻ tới điểm trống ngay phía sau, theo mọi hướng, kể cả lùi. Quân bị nhảy qua bị loại ngay. Ăn quân là bắt buộc: nếu ăn được thì phải ăn (được chọn cách ăn nào cũng được). Quân đang ăn phải nhảy tiếp khi còn có thể, và được đổi hướng giữa các lần nhảy.",
    ),
    (
        "rules.alquerque.end",
        "Bạn thắng khi đối thủ hết quân hoặc không còn nước đi hợp lệ. Ván cờ hòa sau 50 nước liên tiếp không ăn quân hoặc khi một thế cờ xuất hiện lần thứ ba.",
    ),
    (
        "rules.alquerque.tips",
        "Mẹo: chiếm giữ trung tâm, nơi nhiều đường kẻ gặp nhau nhất. Để ý các đường chéo: chúng chỉ có ở cách một điểm, và phần lớn các nước ăn bất ngờ đến từ đó. Giữ các quân gần nhau để không quân nào bị nhảy qua khi đứng một mình. Khi đang hơn quân, hãy đổi quân. Trước mỗi nước đi, hãy xem nước ăn bắt buộc mà nó buộc đối thủ phải đi: luật bắt buộc ăn quân là một vũ khí, và một quân thí có thể kéo đối thủ tới chỗ bạn ăn lại được hai quân.",
    ),
    (
        "rules.latrunculi.history",
        "Lịch sử: ludus latrunculorum, \u{201c}trò chơi của những người lính nhỏ\u{201d}, là trò chơi chiến trận của người La Mã. Varro nhắc tới nó vào thế kỷ thứ nhất trước Công nguyên, Ovid và Martial cũng nói đến, và một bài thơ thế kỷ thứ nhất ca ngợi một người chơi thắng nhờ phá vỡ hàng quân địch. Tổ tiên của nó là trò petteia của Hy Lạp, mà Platon cho là đến từ Ai Cập, món quà của thần Thoth. Người ta đã tìm thấy bàn cờ khắc trên đá trong các đồn lũy La Mã dọc biên giới: lính lê dương chơi nó trong doanh trại. Không người La Mã nào ghi lại luật chơi, nên mọi phiên bản ngày nay, kể cả phiên bản này, đều là phục dựng.",
    ),
    (
        "rules.alquerque.history",
        "Lịch sử: Alquerque bắt nguồn từ trò qirkat của người Ả Rập, được nhắc tới trong Sách Ca khúc thế kỷ thứ mười. Người Moor mang nó sang Tây Ban Nha, và Sách Trò chơi do vua Alfonso X xứ Castilla cho soạn năm 1283 mô tả nó cùng bàn cờ. Khi được chơi trên bàn cờ vua, nó trở thành cờ đam ở Pháp vào khoảng thế kỷ mười hai. Ludus theo luật do R. C. Bell ghi lại trong cuốn sách về các trò chơi bàn cờ của ông.",
    ),
    (
        "rules.alquerque.chain",
        "Để đi một chuỗi nhảy, chạm vào quân rồi lần lượt chạm vào từng điểm đáp; nước đi hoàn tất khi chuỗi không thể nhảy tiếp. Các quân phải ăn được tô sáng.",
    ),
    ("rules.faq.title", "Hỏi đáp"),
    (
        "rules.faq.forced",
        "Vì sao tôi bị buộc phải ăn quân? Trong Alquerque ăn quân là bắt buộc: khi có nước ăn thì chỉ được đi nước ăn, và quân đang ăn phải nhảy tiếp khi còn có thể. Trong Latrunculi không bao giờ bắt buộc ăn quân.",
    ),
    (
        "rules.faq.draw",
        "Vì sao ván cờ hòa? Trong Alquerque: 50 nước liên tiếp không ăn quân, hoặc một thế cờ xuất hiện lần thứ ba. Trong Latrunculi không có hòa do lặp lại (ai làm một thế cờ lặp lại lần thứ ba sẽ thua); sau 100 nước không ăn quân, bên nhiều quân hơn thắng, bằng quân thì hòa.",
    ),
    (
        "rules.faq.online",
        "Nếu mất kết nối khi chơi trực tuyến thì sao? Trò chơi tự kết nối lại và lấy lại chỗ ngồi của bạn. Chỗ của bạn được giữ một lúc: nếu bạn không quay lại kịp, ván cờ bị xử thua vì bỏ cuộc. Đồng hồ vẫn chạy khi bạn vắng mặt.",
    ),
    ("rules.diagram.sandwich", "Kẹp: Đỏ đi khép hàng và lính đen ở giữa bị loại."),
    ("rules.diagram.king", "Vua bị vây: vua đen không còn ô trống nào kề bên. Đỏ thắng."),
    (
        "rules.diagram.chain",
        "Nhảy liên tiếp: Trắng nhảy hai lần, đổi hướng giữa chừng; cả hai quân đen bị loại.",
    ),
    (
        "rules.notation",
        "Ký hiệu: ô được gọi bằng chữ cột và số hàng (a1 ở góc dưới bên trái). Nước đi được viết g2-g5, đường ăn quân viết a1xc3xe5.",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The Fluent files say what the tables said, key by key, in both languages.
    #[test]
    fn the_fluent_files_keep_every_text_of_the_tables() {
        for lang in Lang::ALL {
            assert!(errors(lang).is_empty(), "{lang:?}: {:?}", errors(lang));
            let table = match lang {
                Lang::En => EN,
                Lang::Vi => VI,
            };
            assert_eq!(ids(lang).len(), table.len());
            for (key, text) in table {
                let mut id = String::new();
                for (i, c) in key.char_indices() {
                    if c.is_ascii_uppercase() && key[..i].ends_with(|p: char| p.is_ascii_lowercase()) {
                        id.push('-');
                    }
                    id.push(if c == '.' || c == '_' { '-' } else { c.to_ascii_lowercase() });
                }
                assert_eq!(template(lang, &id).as_deref(), Some(*text), "{lang:?} {key} ({id})");
                if !text.contains("{}") {
                    assert_eq!(fluent::plain(lang, &id), Some(*text), "{lang:?} {key}");
                }
            }
        }
        let args = [("side", "Red".into()), ("moves", 5.into())];
        assert_eq!(fluent::format(Lang::En, "analysis-wins-in", args).as_deref(), Some("Red wins in 5"));
    }
}
