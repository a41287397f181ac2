//! The "Play online" screen: the server and the nickname, the connection's state, the lobby
//! (quick match, rooms, joining by code, open rooms and live games to watch) and, on the desktop,
//! hosting on this network. It shows the link and the server's views and turns the player's taps
//! into [`LobbyIntent`]s (the network acts on them) and [`NavIntent`]s.

use crate::app::Screen;
use crate::app::navigation::NavIntent;
use crate::game::intent::GameIntent;
use crate::game::save::Resumable;
use crate::game::session::{Seats, Session};
use crate::game::settings::Settings;
use crate::i18n::player_name;
use crate::i18n::{Id, Lang, id};
use crate::net::address::default_server;
use crate::net::connection::{Link, LinkState, OnlineConfig};
use crate::net::intents::{ChallengeAsk, LobbyIntent};
#[cfg(not(target_arch = "wasm32"))]
use crate::net::lan::LanHost;
use crate::net::servers::KnownServers;
use crate::net::sync::OnlineGame;
use crate::net::views::{Leaderboards, Lobby, NetNotice, Profiles, Waiting};
use crate::ui::theme::{Palette, palette};
use crate::ui::widgets::{big_button, choice, error_key, link_text, rating_text, side_name, variant_key};
use crate::ui::{TapTargets, root_ui};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use ludus_protocol::{
    ClockSpec, GameSummary, LobbyView, PASSWORD_MAX_CHARS, PASSWORD_MIN_CHARS, Password, RoomSummary,
};
use ludus_rules::{Side, Variant};
use std::time::Duration;

/// The "Play online" screen's input fields.
#[derive(Resource, Default)]
pub(super) struct LobbyForm {
    server: String,
    nickname: String,
    code: String,
    /// The password to claim the nickname with, or to sign in with.
    password: String,
    /// The claimed nickname to sign in as.
    claimed_name: String,
    /// Which open rooms and live games the lists show.
    filter: LobbyFilter,
    /// The turn-based challenge being made.
    challenge: ChallengeForm,
    ready: bool,
}

/// A turn-based challenge as it is filled in.
struct ChallengeForm {
    /// The nickname challenged (empty: anyone with the link).
    opponent: String,
    /// The move limit in days.
    days: u8,
    /// The challenger's side (`None`: drawn).
    side: Option<Side>,
    /// An open challenge listed in the lobby.
    listed: bool,
}

impl Default for ChallengeForm {
    fn default() -> Self {
        ChallengeForm { opponent: String::new(), days: 3, side: None, listed: true }
    }
}

/// Which open rooms (seeks) and live games the lobby lists: all, or one game, one time
/// control, rated or casual only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LobbyFilter {
    /// One game only.
    pub variant: Option<Variant>,
    /// One time control only (`Some(None)`: untimed only).
    pub clock: Option<Option<ClockSpec>>,
    /// Rated only (`Some(true)`) or casual only (`Some(false)`).
    pub rated: Option<bool>,
}

impl LobbyFilter {
    fn passes(&self, variant: Variant, clock: Option<ClockSpec>, rated: bool) -> bool {
        self.variant.is_none_or(|v| v == variant)
            && self.clock.is_none_or(|c| c == clock)
            && self.rated.is_none_or(|r| r == rated)
    }

    /// The open rooms it lets through.
    pub fn rooms<'a>(&self, lobby: &'a LobbyView) -> Vec<&'a RoomSummary> {
        lobby.rooms.iter().filter(|r| self.passes(r.variant, r.clock, r.rated)).collect()
    }

    /// The live games it lets through.
    pub fn games<'a>(&self, lobby: &'a LobbyView) -> Vec<&'a GameSummary> {
        lobby.games.iter().filter(|g| self.passes(g.variant, g.clock, g.rated)).collect()
    }
}

/// What the online screen shows: the link and the server's views, the game on the board.
#[derive(SystemParam)]
pub(super) struct LobbyShown<'w> {
    link: Res<'w, Link>,
    lobby: Res<'w, Lobby>,
    profiles: Res<'w, Profiles>,
    boards: Res<'w, Leaderboards>,
    notice: Res<'w, NetNotice>,
    known: Option<Res<'w, KnownServers>>,
    online: Option<Res<'w, OnlineGame>>,
    session: Option<Res<'w, Session>>,
    turns: Option<Res<'w, crate::net::views::TurnGames>>,
    time: Res<'w, Time<Real>>,
    resumable: Option<Res<'w, Resumable>>,
    #[cfg(not(target_arch = "wasm32"))]
    host: Option<Res<'w, LanHost>>,
}

/// How long quick match looks before the lobby says that nobody else is looking, in seconds.
const LONELY_AFTER_S: f64 = 8.0;

/// One frame of the online screen: what it reads, and the intents it writes.
struct Frame<'a, 'w> {
    lang: Lang,
    colors: Palette,
    shown: &'a LobbyShown<'w>,
    out: Vec<LobbyIntent>,
    nav: Option<Screen>,
    /// A game on this device asked for (the computer, meanwhile).
    game: Option<GameIntent>,
    /// The seats of a game against the computer at the player's usual level and side.
    computer: Seats,
}

impl Frame<'_, '_> {
    fn ask(&mut self, intent: LobbyIntent) {
        self.out.push(intent);
    }
}

pub(super) fn online_screen(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    mut config: ResMut<OnlineConfig>,
    shown: LobbyShown,
    mut fields: ResMut<LobbyForm>,
    mut taps: ResMut<TapTargets>,
    mut intents: MessageWriter<LobbyIntent>,
    mut nav: MessageWriter<NavIntent>,
    mut game: MessageWriter<GameIntent>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if !fields.ready {
        fields.server = if config.server.is_empty() { default_server() } else { config.server.clone() };
        fields.nickname = config.nickname.clone();
        fields.ready = true;
    }
    // While connected the field shows the server in use (a hosted one's local address too).
    if shown.link.is_active() && fields.server != shown.link.server {
        fields.server = shown.link.server.clone();
    }
    let mut frame = Frame {
        lang: settings.lang,
        colors: palette(settings.theme),
        shown: &shown,
        out: Vec::new(),
        nav: None,
        game: None,
        computer: Seats::versus_computer(settings.human_side, settings.level),
    };
    egui::CentralPanel::default().show(&mut root_ui(ctx), |ui| {
        // One centred column, like the other menu screens.
        let column = ui.available_width().min(720.0);
        let pad = ((ui.available_width() - column) / 2.0).max(0.0);
        ui.horizontal_top(|ui| {
            ui.add_space(pad);
            ui.vertical(|ui| {
                ui.set_width(column);
                screen_top(ui, &mut frame);
                egui::ScrollArea::vertical().show(ui, |ui| {
                    ui.set_max_width(column);
                    screen_body(ui, &mut frame, &mut config, &mut fields, &mut taps);
                });
            });
        });
    });
    intents.write_batch(frame.out);
    if let Some(intent) = frame.game {
        game.write(intent);
    }
    if let Some(screen) = frame.nav {
        nav.write(NavIntent::Go(screen));
    }
    Ok(())
}

/// The header (back), the connection's line and the last refusal.
fn screen_top(ui: &mut egui::Ui, frame: &mut Frame) {
    let shown = frame.shown;
    let lang = frame.lang;
    ui.horizontal(|ui| {
        if crate::ui::widgets::back_button(ui, lang) {
            frame.ask(LobbyIntent::Close);
            frame.nav = Some(Screen::Title);
        }
        ui.heading(egui::RichText::new(lang.t("net-title")).size(28.0));
    });
    let (tone, text) = link_text(lang, &shown.link);
    let color = tone.color(&frame.colors);
    ui.horizontal(|ui| {
        let (rect, _) = ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
        ui.painter().circle_filled(rect.center(), 6.0, color);
        ui.label(egui::RichText::new(text).color(color));
    });
    if notice_box(ui, lang, &frame.colors, &shown.notice) {
        frame.ask(LobbyIntent::DismissNotice);
    }
}

/// The scrolling part: back to the game, the server and nickname, hosting, the account and the
/// lobby once signed in.
fn screen_body(
    ui: &mut egui::Ui,
    frame: &mut Frame,
    config: &mut OnlineConfig,
    fields: &mut LobbyForm,
    taps: &mut TapTargets,
) {
    let (lang, shown) = (frame.lang, frame.shown);
    if shown.online.is_some()
        && shown.session.as_ref().is_some_and(|s| !s.game.is_over())
        && big_button(ui, lang.t("net-back-to-game"), 320.0).clicked()
    {
        frame.nav = Some(Screen::Playing);
    }
    connect_section(ui, frame, fields);
    #[cfg(not(target_arch = "wasm32"))]
    host_section(ui, frame, fields);
    if shown.link.phase != LinkState::SignedIn {
        return;
    }
    ui.separator();
    account_section(ui, frame, fields, taps);
    let LobbyForm { code, filter, challenge, .. } = fields;
    lobby_section(ui, frame, config, (code, filter, challenge), taps);
}

/// The server and the nickname, and connect or disconnect.
fn connect_section(ui: &mut egui::Ui, frame: &mut Frame, fields: &mut LobbyForm) {
    let shown = frame.shown;
    let lang = frame.lang;
    let connected = shown.link.is_active();
    ui.add_space(6.0);
    ui.label(lang.t("net-server"));
    if !connected && let Some(known) = shown.known.as_deref() {
        known_servers(ui, lang, &frame.colors, known, &mut fields.server);
    }
    ui.add_enabled_ui(!connected, |ui| {
        ui.add(egui::TextEdit::singleline(&mut fields.server).desired_width(360.0));
        ui.label(lang.t("net-nickname"));
        ui.add(
            egui::TextEdit::singleline(&mut fields.nickname)
                .desired_width(240.0)
                .char_limit(ludus_protocol::NICKNAME_MAX_CHARS),
        );
    });
    crate::ui::widgets::button_row(ui, |ui| {
        if !connected {
            if ui.add_sized([180.0, 44.0], egui::Button::new(lang.t("net-connect"))).clicked() {
                frame.ask(LobbyIntent::Connect {
                    server: fields.server.clone(),
                    nickname: fields.nickname.clone(),
                });
            }
        } else if ui.add_sized([180.0, 44.0], egui::Button::new(lang.t("net-disconnect"))).clicked() {
            frame.ask(LobbyIntent::Disconnect);
        }
    });
}

/// The servers the game knows, each a tap that puts its address in the field; with none, what
/// to do (host on this network, or run a server); and what was wrong with `servers.txt`.
fn known_servers(ui: &mut egui::Ui, lang: Lang, colors: &Palette, known: &KnownServers, field: &mut String) {
    let list = known.list();
    if list.is_empty() {
        ui.add(egui::Label::new(egui::RichText::new(KnownServers::none_text(lang)).small()).wrap());
    } else {
        ui.horizontal_wrapped(|ui| {
            for server in list {
                let label = format!("{} · {}", server.address, server.origin.text(lang));
                if ui.selectable_label(*field == server.address, label).clicked() {
                    *field = server.address;
                }
            }
        });
    }
    for problem in &known.problems {
        ui.add(
            egui::Label::new(egui::RichText::new(problem.text(lang)).small().color(colors.caution)).wrap(),
        );
    }
}

/// The server's last refusal, until the person closes it: the refusal's words in the player's
/// language (the server's own English sentence went to the log when it came). True: closed.
pub(super) fn notice_box(ui: &mut egui::Ui, lang: Lang, colors: &Palette, notice: &NetNotice) -> bool {
    let Some((code, _)) = &notice.0 else { return false };
    let text = lang.text(error_key(*code));
    let mut close = false;
    egui::Frame::group(ui.style()).fill(colors.notice).show(ui, |ui| {
        ui.label(egui::RichText::new(text).color(colors.on_notice));
        close = ui.button(lang.t("ui-ok")).clicked();
    });
    close
}

fn clock_label(lang: Lang, clock: Option<ClockSpec>) -> String {
    match clock {
        Some(c) => c.label(),
        None => lang.t("net-no-clock").to_string(),
    }
}

/// The room or queue the person waits in, and "cancel".
fn waiting_box(ui: &mut egui::Ui, frame: &mut Frame, waiting: &Waiting, rated: bool) {
    let lang = frame.lang;
    egui::Frame::group(ui.style()).show(ui, |ui| {
        match waiting {
            Waiting::Room { code, variant, public } => {
                ui.label(lang.fmt("net-room-waiting", [("game", lang.text(variant_key(*variant)).into())]));
                ui.label(egui::RichText::new(code).size(40.0).monospace().strong());
                ui.label(if *public { lang.t("net-room-public") } else { lang.t("net-room-private") });
            }
            Waiting::Queue { variant } => {
                ui.label(lang.fmt("net-queue-waiting", [("game", lang.text(variant_key(*variant)).into())]));
                lonely(ui, frame, *variant, rated);
            }
        }
        if ui.add_sized([180.0, 44.0], egui::Button::new(lang.t("net-cancel"))).clicked() {
            frame.ask(LobbyIntent::CancelWaiting);
        }
    });
}

/// Quick match has found nobody for a while: the lobby says so and offers the computer
/// meanwhile (the search goes on, and the player is asked when someone comes) or an open
/// turn-based challenge instead.
fn lonely(ui: &mut egui::Ui, frame: &mut Frame, variant: Variant, rated: bool) {
    let lang = frame.lang;
    let waited = frame.shown.time.elapsed_secs_f64() - frame.shown.lobby.waiting_since;
    if waited < LONELY_AFTER_S {
        ui.ctx().request_repaint_after(Duration::from_secs_f64(LONELY_AFTER_S - waited));
        return;
    }
    ui.add(egui::Label::new(lang.t("net-queue-lonely")).wrap());
    crate::ui::widgets::button_row(ui, |ui| {
        if ui.add_sized([240.0, 44.0], egui::Button::new(lang.t("net-queue-computer"))).clicked() {
            // The unfinished game against the computer, if there is one; else a new one.
            let resume = matches!(frame.shown.resumable.as_deref(), Some(Resumable::Game(s)) if s.seats.players.iter().any(|p| matches!(p, crate::game::session::Player::Computer(_))));
            frame.game = Some(if resume {
                GameIntent::Resume
            } else {
                GameIntent::Start { variant, seats: frame.computer }
            });
        }
        if ui.add_sized([240.0, 44.0], egui::Button::new(lang.t("net-queue-challenge"))).clicked() {
            frame.ask(LobbyIntent::CancelWaiting);
            frame.ask(LobbyIntent::Challenge(ChallengeAsk {
                opponent: String::new(),
                variant,
                side: None,
                days: ChallengeForm::default().days,
                listed: true,
                rated,
            }));
        }
    });
}

/// The lobby: the room waited in, or the game, time control and rated choice, quick match and
/// rooms; the open rooms and live games (filtered), the leaderboard.
fn lobby_section(
    ui: &mut egui::Ui,
    frame: &mut Frame,
    config: &mut OnlineConfig,
    (code, filter, challenge): (&mut String, &mut LobbyFilter, &mut ChallengeForm),
    taps: &mut TapTargets,
) {
    let shown = frame.shown;
    // Rated play needs a claimed nickname (above).
    let claimed = shown.profiles.own.as_ref().is_some_and(|p| p.claimed);
    if let Some(waiting) = &shown.lobby.waiting {
        waiting_box(ui, frame, waiting, config.rated && claimed);
        return;
    }
    let variant = config.variant.unwrap_or(Variant::Alquerque);
    match_choices(ui, frame.lang, config, variant);
    let rated = rated_choice(ui, frame.lang, config, claimed);
    let clock = config.time_control;
    let lang = frame.lang;
    crate::ui::widgets::button_row(ui, |ui| {
        if ui.add_sized([200.0, 48.0], egui::Button::new(lang.t("net-quick-match"))).clicked() {
            frame.ask(LobbyIntent::QuickMatch { variant, clock, rated });
        }
        for (public, text) in [(true, id!("net-create-public")), (false, id!("net-create-private"))] {
            if ui.add_sized([200.0, 48.0], egui::Button::new(lang.text(text))).clicked() {
                frame.ask(LobbyIntent::OpenRoom { variant, clock, public, rated });
            }
        }
    });
    ui.horizontal(|ui| {
        ui.label(lang.t("net-code"));
        ui.add(egui::TextEdit::singleline(code).desired_width(120.0).char_limit(12));
        if ui.add_enabled(!code.trim().is_empty(), egui::Button::new(lang.t("net-join"))).clicked() {
            frame.ask(LobbyIntent::JoinRoom(code.trim().to_string()));
        }
    });
    challenge_form(ui, frame, challenge, (variant, rated), taps);
    if let Some(turns) = shown.turns.as_ref().and_then(|t| t.0.as_ref()) {
        turn_based(ui, frame, turns);
    }
    ui.separator();
    let Some(lobby) = shown.lobby.view.as_ref() else {
        ui.spinner();
        return;
    };
    ui.label(lang.fmt("net-online-count", [("count", lobby.online.into())]));
    filter_row(ui, lang, filter);
    rooms_list(ui, frame, lobby, filter, claimed);
    ui.add_space(6.0);
    games_list(ui, frame, lobby, filter);
    leaderboard_section(ui, frame, variant);
}

/// The game and the time control for quick match and new rooms.
fn match_choices(ui: &mut egui::Ui, lang: Lang, config: &mut OnlineConfig, variant: Variant) {
    ui.label(egui::RichText::new(lang.t("menu-game")).strong());
    crate::ui::widgets::button_row(ui, |ui| {
        for v in Variant::ALL {
            if ui.add(choice(variant == v, lang.text(variant_key(v)))).clicked() {
                config.variant = Some(v);
            }
        }
    });
    ui.label(egui::RichText::new(lang.t("net-time-control")).strong());
    crate::ui::widgets::button_row(ui, |ui| {
        let choices = std::iter::once(None).chain(ClockSpec::CONTROLS.map(Some));
        for c in choices {
            if ui.add(choice(config.time_control == c, clock_label(lang, c))).clicked() {
                config.time_control = c;
            }
        }
    });
}

/// Rated or not (with a claimed nickname only). Returns whether the games asked for are rated.
fn rated_choice(ui: &mut egui::Ui, lang: Lang, config: &mut OnlineConfig, claimed: bool) -> bool {
    let mut rated = config.rated && claimed;
    let rated_box = ui.add_enabled(claimed, egui::Checkbox::new(&mut rated, lang.t("net-rated")));
    // The rules of rated play: what makes a game count.
    if rated_box.on_hover_text(lang.t("net-rated-rules")).changed() {
        config.rated = rated;
    }
    if !claimed {
        ui.label(egui::RichText::new(lang.t("net-rated-needs-claim")).small());
    }
    rated
}

/// The open rooms the filter lets through: join, the host's profile.
fn rooms_list(ui: &mut egui::Ui, frame: &mut Frame, lobby: &LobbyView, filter: &LobbyFilter, claimed: bool) {
    let lang = frame.lang;
    let rooms = filter.rooms(lobby);
    list_heading(ui, lang, id!("net-open-rooms"), lobby.total_rooms, rooms.len(), lobby.rooms.len());
    for room in rooms {
        crate::ui::widgets::button_row(ui, |ui| {
            // A rated room takes claimed players only: the server would refuse the others.
            let can = !room.rated || claimed;
            let join = ui.add_enabled(can, egui::Button::new(lang.t("net-join")));
            if join.clicked() {
                frame.ask(LobbyIntent::JoinRoom(room.code.clone()));
            }
            if !can {
                join.on_disabled_hover_text(lang.t("net-rated-needs-claim"));
            }
            let host = match &room.host_rating {
                Some(r) => format!("{} {}", player_name(lang, &room.host), rating_text(r)),
                None => player_name(lang, &room.host).into_owned(),
            };
            if ui.link(host).clicked() {
                open_profile(frame, room.host.clone());
            }
            ui.label(format!(
                "{} · {} · {}",
                lang.text(variant_key(room.variant)),
                clock_label(lang, room.clock),
                if room.rated { lang.t("net-game-rated") } else { lang.t("net-game-casual") },
            ));
        });
    }
}

/// Time left as a person says it: days and hours, or hours and minutes.
fn time_left(lang: Lang, ms: u64) -> String {
    let minutes = ms / 60_000;
    let (days, hours, mins) = (minutes / (24 * 60), minutes / 60 % 24, minutes % 60);
    if days > 0 {
        lang.fmt("net-turn-days", [("days", days.into()), ("hours", hours.into())])
    } else {
        lang.fmt("net-turn-hours", [("hours", hours.into()), ("minutes", mins.into())])
    }
}

/// Making a turn-based challenge: a nickname or anyone with the link, the move limit, the side,
/// listed or not (the game and rated are the lobby's choices above).
fn challenge_form(
    ui: &mut egui::Ui,
    frame: &mut Frame,
    form: &mut ChallengeForm,
    (variant, rated): (Variant, bool),
    taps: &mut TapTargets,
) {
    let lang = frame.lang;
    let header = egui::CollapsingHeader::new(egui::RichText::new(lang.t("net-challenge-make")).strong())
        .id_salt("challenge")
        .show(ui, |ui| {
            ui.label(lang.t("net-challenge-opponent"));
            let field = ui.add(
                egui::TextEdit::singleline(&mut form.opponent)
                    .desired_width(ui.available_width().min(240.0))
                    .char_limit(ludus_protocol::NICKNAME_MAX_CHARS),
            );
            taps.note(ui, "challenge_form", &field);
            crate::ui::widgets::button_row(ui, |ui| {
                for days in ludus_protocol::TURN_DAYS {
                    let text = lang.fmt("net-challenge-days", [("days", days.into())]);
                    if ui.add(choice(form.days == days, text)).clicked() {
                        form.days = days;
                    }
                }
            });
            crate::ui::widgets::button_row(ui, |ui| {
                ui.label(lang.t("net-challenge-side"));
                let sides = [None, Some(Side::First), Some(Side::Second)];
                for side in sides {
                    let text =
                        side.map_or(lang.t("net-challenge-side-drawn"), |s| side_name(lang, variant, s));
                    if ui.add(choice(form.side == side, text)).clicked() {
                        form.side = side;
                    }
                }
            });
            let open = form.opponent.trim().is_empty();
            if open {
                ui.checkbox(&mut form.listed, lang.t("net-challenge-listed"));
            }
            let send = ui.add_sized([240.0, 44.0], egui::Button::new(lang.t("net-challenge-send")));
            taps.note(ui, "challenge_send", &send);
            if send.clicked() {
                frame.ask(LobbyIntent::Challenge(ChallengeAsk {
                    opponent: form.opponent.trim().to_string(),
                    variant,
                    side: form.side,
                    days: form.days,
                    listed: form.listed,
                    rated,
                }));
                form.opponent.clear();
            }
        });
    taps.note(ui, "challenge_open", &header.header_response);
}

/// One challenge in words: who, which game, the move limit.
fn challenge_line(lang: Lang, c: &ludus_protocol::ChallengeView, who: &str) -> String {
    format!(
        "{} · {} · {}{}",
        who,
        lang.text(variant_key(c.variant)),
        lang.fmt("net-challenge-days", [("days", c.days.into())]),
        if c.rated { format!(" · {}", lang.t("net-game-rated")) } else { String::new() },
    )
}

/// The player's own pending challenges: its code, its link to pass on, and withdrawing it.
fn own_challenges(ui: &mut egui::Ui, frame: &mut Frame, outgoing: &[ludus_protocol::ChallengeView]) {
    let lang = frame.lang;
    if outgoing.is_empty() {
        return;
    }
    ui.label(egui::RichText::new(lang.t("net-challenge-yours")).strong());
    for c in outgoing {
        let who = match &c.to {
            Some(to) => {
                lang.fmt("profile-against", [("opponent", player_name(lang, to).into_owned().into())])
            }
            None => lang.t("net-challenge-anyone").to_string(),
        };
        ui.add(egui::Label::new(challenge_line(lang, c, &who)).wrap());
        crate::ui::widgets::button_row(ui, |ui| {
            ui.label(egui::RichText::new(&c.code).size(24.0).monospace().strong());
            if c.to.is_none()
                && crate::platform::share::can_share()
                && ui.button(lang.t("net-challenge-share")).clicked()
            {
                frame.ask(LobbyIntent::ShareChallenge(c.code.clone()));
            }
            if ui.button(lang.t("net-challenge-cancel")).clicked() {
                frame.ask(LobbyIntent::CancelChallenge(c.code.clone()));
            }
        });
        if c.to.is_none() {
            let link = crate::net::address::challenge_link(&c.code, &frame.shown.link.server);
            ui.add(egui::Label::new(egui::RichText::new(link).small().monospace()).wrap());
        }
    }
}

/// The player's turn-based games (open one on the board) and the challenges to answer.
fn turn_based(ui: &mut egui::Ui, frame: &mut Frame, turns: &ludus_protocol::MyGamesView) {
    let lang = frame.lang;
    // In the browser: a system notice when it is the player's turn, if the person allows it.
    let waiting = !turns.games.is_empty() || !turns.outgoing.is_empty();
    if waiting
        && crate::platform::notices::permission() == crate::platform::notices::NoticePermission::Ask
        && ui.button(lang.t("net-turn-notices")).clicked()
    {
        frame.ask(LobbyIntent::AllowTurnNotices);
    }
    if !turns.games.is_empty() {
        ui.separator();
        ui.label(egui::RichText::new(lang.t("net-turn-games")).strong());
    }
    for g in &turns.games {
        crate::ui::widgets::button_row(ui, |ui| {
            if ui.button(lang.t("net-turn-open")).clicked() {
                frame.ask(LobbyIntent::OpenTurnGame(g.game));
            }
            let whose = if g.your_turn { lang.t("net-turn-yours") } else { lang.t("net-turn-theirs") };
            let text = format!(
                "{} · {} · {} · {}",
                lang.text(variant_key(g.variant)),
                lang.fmt(
                    "profile-against",
                    [("opponent", player_name(lang, &g.opponent).into_owned().into())]
                ),
                whose,
                time_left(lang, g.time_left_ms),
            );
            let text = egui::RichText::new(text);
            ui.add(egui::Label::new(if g.your_turn { text.strong() } else { text }).wrap());
        });
    }
    own_challenges(ui, frame, &turns.outgoing);
    let incoming = turns.incoming.iter().map(|c| (c, true));
    let open = turns.open.iter().map(|c| (c, false));
    let challenges: Vec<_> = incoming.chain(open).collect();
    if !challenges.is_empty() {
        ui.label(egui::RichText::new(lang.t("net-challenges")).strong());
    }
    for (c, mine) in challenges {
        crate::ui::widgets::button_row(ui, |ui| {
            if ui.button(lang.t("net-challenge-accept")).clicked() {
                frame.ask(LobbyIntent::AcceptChallenge(c.code.clone()));
            }
            if mine && ui.button(lang.t("net-challenge-decline")).clicked() {
                frame.ask(LobbyIntent::DeclineChallenge(c.code.clone()));
            }
            let side = match c.side {
                // The side the challenger leaves to the player.
                Some(theirs) => {
                    let yours = side_name(lang, c.variant, theirs.opponent());
                    format!(" · {}", lang.fmt("net-challenge-you-play", [("side", yours.into())]))
                }
                None => String::new(),
            };
            let line = challenge_line(lang, c, &player_name(lang, &c.from)) + &side;
            ui.add(egui::Label::new(line).wrap());
        });
    }
}

/// The live games the filter lets through: watch.
fn games_list(ui: &mut egui::Ui, frame: &mut Frame, lobby: &LobbyView, filter: &LobbyFilter) {
    let lang = frame.lang;
    let games = filter.games(lobby);
    list_heading(ui, lang, id!("net-live-games"), lobby.total_games, games.len(), lobby.games.len());
    for g in games {
        crate::ui::widgets::button_row(ui, |ui| {
            if ui.button(lang.t("net-watch")).clicked() {
                frame.ask(LobbyIntent::Watch(g.game));
            }
            ui.label(format!(
                "{} – {} · {} · {} · {} · {}{}",
                player_name(lang, &g.players[0]),
                player_name(lang, &g.players[1]),
                lang.text(variant_key(g.variant)),
                clock_label(lang, g.clock),
                lang.fmt("net-plies", [("count", g.ply.into())]),
                lang.fmt("net-spectators", [("count", g.spectators.into())]),
                if g.rated { format!(" · {}", lang.t("net-game-rated")) } else { String::new() },
            ));
        });
    }
}

/// A nickname tapped: its profile asked for, and the profile screen shown.
fn open_profile(frame: &mut Frame, nickname: String) {
    frame.ask(LobbyIntent::OpenProfile(nickname));
    frame.nav = Some(Screen::Profile);
}

/// A list's heading with the server's total, how many of those listed the filter shows, and
/// "none" for an empty list.
fn list_heading(ui: &mut egui::Ui, lang: Lang, heading: Id, total: u32, shown: usize, listed: usize) {
    ui.label(egui::RichText::new(lang.text_with(heading, [("count", total.into())])).strong());
    if shown < listed {
        ui.label(
            egui::RichText::new(
                lang.fmt("net-filtered", [("shown", shown.into()), ("listed", listed.into())]),
            )
            .small(),
        );
    }
    if shown == 0 {
        ui.label(egui::RichText::new(lang.t("net-none")).italics());
    }
}

/// The lists' filter: one game, one time control, rated or casual (each "all" by default).
fn filter_row(ui: &mut egui::Ui, lang: Lang, filter: &mut LobbyFilter) {
    crate::ui::widgets::button_row(ui, |ui| {
        ui.label(lang.t("net-show"));
        let all = lang.t("net-all");
        let game_text = |v: Option<Variant>| v.map_or(all, |v| lang.text(variant_key(v)));
        egui::ComboBox::from_id_salt("filter-game").selected_text(game_text(filter.variant)).show_ui(
            ui,
            |ui| {
                for choice in std::iter::once(None).chain(Variant::ALL.map(Some)) {
                    ui.selectable_value(&mut filter.variant, choice, game_text(choice));
                }
            },
        );
        let clock_text =
            |c: Option<Option<ClockSpec>>| c.map_or_else(|| all.to_string(), |c| clock_label(lang, c));
        egui::ComboBox::from_id_salt("filter-clock").selected_text(clock_text(filter.clock)).show_ui(
            ui,
            |ui| {
                let choices =
                    [None, Some(None)].into_iter().chain(ClockSpec::CONTROLS.map(|c| Some(Some(c))));
                for choice in choices {
                    ui.selectable_value(&mut filter.clock, choice, clock_text(choice));
                }
            },
        );
        let rated_text = |r: Option<bool>| match r {
            None => all,
            Some(true) => lang.t("net-game-rated"),
            Some(false) => lang.t("net-game-casual"),
        };
        egui::ComboBox::from_id_salt("filter-rated").selected_text(rated_text(filter.rated)).show_ui(
            ui,
            |ui| {
                for choice in [None, Some(true), Some(false)] {
                    ui.selectable_value(&mut filter.rated, choice, rated_text(choice));
                }
            },
        );
    });
}

/// The nickname's claim and the ratings: claim the nickname with a password (then it is the
/// person's alone, on any device), or sign in as a claimed nickname with its password.
fn account_section(ui: &mut egui::Ui, frame: &mut Frame, fields: &mut LobbyForm, taps: &mut TapTargets) {
    let shown = frame.shown;
    let lang = frame.lang;
    let Some(profile) = shown.profiles.own.as_ref() else { return };
    if profile.claimed {
        let ratings: Vec<String> = profile
            .ratings
            .iter()
            .map(|r| format!("{} {}", lang.text(variant_key(r.variant)), rating_text(&r.rating)))
            .collect();
        ui.label(lang.fmt("net-claimed", [("nickname", profile.nickname.as_str().into())]));
        ui.label(lang.fmt("net-your-ratings", [("ratings", ratings.join(" · ").into())]));
    }
    let mine = ui.button(lang.t("net-my-profile"));
    taps.note(ui, "my_profile", &mine);
    if mine.clicked() {
        open_profile(frame, profile.nickname.clone());
    }
    if profile.claimed {
        return;
    }
    let nickname = profile.nickname.clone();
    egui::CollapsingHeader::new(lang.t("net-account"))
        .id_salt("account")
        .show(ui, |ui| claim_form(ui, frame, fields, &nickname));
}

/// Claiming the nickname, or signing in as a claimed one.
fn claim_form(ui: &mut egui::Ui, frame: &mut Frame, fields: &mut LobbyForm, nickname: &str) {
    let shown = frame.shown;
    let lang = frame.lang;
    ui.label(lang.t("net-claim-why"));
    // The password travels inside netcode's encryption, whose keys come over HTTP: only https
    // keeps them from the network.
    let server = shown.link.server.to_ascii_lowercase();
    if !["https://", "wss://"].iter().any(|p| server.starts_with(p)) {
        ui.label(egui::RichText::new(lang.t("net-password-insecure")).color(frame.colors.caution));
    }
    ui.horizontal_wrapped(|ui| {
        ui.label(lang.t("net-password"));
        ui.add(
            egui::TextEdit::singleline(&mut fields.password)
                .password(true)
                .char_limit(PASSWORD_MAX_CHARS)
                .desired_width(200.0),
        );
    });
    let long_enough = fields.password.chars().count() >= PASSWORD_MIN_CHARS;
    let claim = egui::Button::new(lang.fmt("net-claim", [("nickname", nickname.into())]));
    if ui.add_enabled(long_enough, claim).clicked() {
        frame.ask(LobbyIntent::Claim(Password(std::mem::take(&mut fields.password))));
    }
    ui.separator();
    ui.label(lang.t("net-sign-in-claimed"));
    ui.horizontal_wrapped(|ui| {
        ui.label(lang.t("net-nickname"));
        ui.add(
            egui::TextEdit::singleline(&mut fields.claimed_name)
                .char_limit(ludus_protocol::NICKNAME_MAX_CHARS)
                .desired_width(200.0),
        );
    });
    let ready = long_enough && !fields.claimed_name.trim().is_empty();
    if ui.add_enabled(ready, egui::Button::new(lang.t("net-sign-in"))).clicked() {
        frame.ask(LobbyIntent::SignIn {
            nickname: fields.claimed_name.trim().to_string(),
            password: Password(std::mem::take(&mut fields.password)),
        });
    }
    if !long_enough {
        let text = lang.fmt("net-password-length", [("count", PASSWORD_MIN_CHARS.into())]);
        ui.label(egui::RichText::new(text).small());
    }
}

/// The best rated players of the chosen game, and the person's own place (asked for when the
/// section is opened, when another game is chosen and with each refresh of the lobby). A tapped
/// name opens its profile.
fn leaderboard_section(ui: &mut egui::Ui, frame: &mut Frame, variant: Variant) {
    let shown = frame.shown;
    let lang = frame.lang;
    ui.add_space(6.0);
    let title = lang.fmt("net-leaderboard", [("game", lang.text(variant_key(variant)).into())]);
    let mut tapped = None;
    let header = egui::CollapsingHeader::new(egui::RichText::new(title).strong())
        .id_salt("leaderboard")
        .show(ui, |ui| {
            let Some(board) = shown.boards.shown.as_ref().filter(|b| b.variant == variant) else {
                ui.spinner();
                return;
            };
            if board.top.is_empty() {
                ui.label(egui::RichText::new(lang.t("net-none")).italics());
            }
            for (i, entry) in board.top.iter().take(20).enumerate() {
                let line = format!(
                    "{:>3}. {}  {}  ({})",
                    i + 1,
                    player_name(lang, &entry.nickname),
                    rating_text(&entry.rating),
                    entry.games
                );
                let text = egui::RichText::new(line).monospace();
                let text = if Some(entry.player) == shown.link.player { text.strong() } else { text };
                if ui.add(egui::Button::new(text).frame(false)).clicked() {
                    tapped = Some(entry.nickname.clone());
                }
            }
            if let Some((place, entry)) = &board.yours {
                ui.label(lang.fmt(
                    "net-your-place",
                    [("place", place.into()), ("rating", rating_text(&entry.rating).into())],
                ));
            }
        });
    if header.body_returned.is_some() {
        frame.ask(LobbyIntent::AskLeaderboard(variant));
    }
    if let Some(name) = tapped {
        open_profile(frame, name);
    }
}

#[cfg(not(target_arch = "wasm32"))]
/// The hosting part of the online screen: host, stop, or join a server announced on the network.
fn host_section(ui: &mut egui::Ui, frame: &mut Frame, fields: &mut LobbyForm) {
    let shown = frame.shown;
    let Some(host) = shown.host.as_deref() else { return };
    let lang = frame.lang;
    ui.add_space(6.0);
    ui.separator();
    ui.label(egui::RichText::new(lang.t("host-title")).strong());
    if let Some((desktop, browser)) = host.addresses() {
        ui.label(lang.t("host-running"));
        for (key, address) in [(id!("host-desktop"), desktop), (id!("host-browser"), browser)] {
            let text = lang.text_with(key, [("address", address.as_str().into())]);
            ui.label(egui::RichText::new(text).monospace());
        }
        if ui.add_sized([220.0, 44.0], egui::Button::new(lang.t("host-stop"))).clicked() {
            frame.ask(LobbyIntent::StopHost);
        }
    } else {
        ui.label(lang.t("host-explain"));
        if ui.add_sized([260.0, 44.0], egui::Button::new(lang.t("host-start"))).clicked() {
            frame.ask(LobbyIntent::Host);
        }
        if let Some(e) = host.error {
            let text = e.text(lang);
            ui.label(egui::RichText::new(text).color(frame.colors.warn));
        }
    }
    if !host.found.is_empty() && !shown.link.is_active() {
        ui.label(lang.t("host-found"));
        for (addr, (name, _)) in &host.found {
            ui.horizontal(|ui| {
                if ui.button(lang.t("net-connect")).clicked() {
                    fields.server = addr.clone();
                    let nickname = fields.nickname.clone();
                    frame.out.push(LobbyIntent::Connect { server: addr.clone(), nickname });
                }
                ui.label(format!("{name} — {addr}"));
            });
        }
    }
    if shown.link.phase == LinkState::Offline {
        ui.ctx().request_repaint_after(Duration::from_millis(500));
    }
}

/// The online screen.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LobbyForm>().add_systems(
        EguiPrimaryContextPass,
        online_screen.run_if(in_state(Screen::Online)).in_set(crate::ui::UiSet::Screens),
    );
}
