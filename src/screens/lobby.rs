//! The "Play online" screen: the server and the nickname, the connection's state, the lobby
//! (quick match, rooms, joining by code, open rooms and live games to watch) and, on the desktop,
//! hosting on this network.

use crate::app::Screen;
use crate::game::session::Session;
use crate::game::settings::Settings;
use crate::i18n::{Id, Lang, id};
use crate::net::address::default_server;
use crate::net::connection::{LinkState, Net, OnlineConfig, Waiting};
#[cfg(not(target_arch = "wasm32"))]
use crate::net::lan::LanHost;
use crate::net::sync::OnlineGame;
use crate::ui::widgets::{big_button, choice, error_key, link_text, rating_text, variant_key};
use crate::ui::{TapTargets, root_ui};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use ludus_protocol::{
    ClientMessage, ClockSpec, GameSummary, LobbyView, PASSWORD_MAX_CHARS, PASSWORD_MIN_CHARS, Password,
    RoomSummary,
};
use ludus_rules::Variant;
#[cfg(not(target_arch = "wasm32"))]
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
    ready: bool,
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

pub(super) fn online_screen(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    mut config: ResMut<OnlineConfig>,
    mut net: ResMut<Net>,
    mut fields: ResMut<LobbyForm>,
    mut taps: ResMut<TapTargets>,
    online: Option<Res<OnlineGame>>,
    session: Option<Res<Session>>,
    mut next: ResMut<NextState<Screen>>,
    #[cfg(not(target_arch = "wasm32"))] mut host: ResMut<LanHost>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let lang = settings.lang;
    if !fields.ready {
        fields.server = if config.server.is_empty() { default_server() } else { config.server.clone() };
        fields.nickname = config.nickname.clone();
        fields.ready = true;
    }
    egui::CentralPanel::default().show(&mut root_ui(ctx), |ui| {
        // One centred column, like the other menu screens.
        let column = ui.available_width().min(720.0);
        let pad = ((ui.available_width() - column) / 2.0).max(0.0);
        ui.horizontal_top(|ui| {
            ui.add_space(pad);
            ui.vertical(|ui| {
                ui.set_width(column);
                ui.horizontal(|ui| {
                    if crate::ui::widgets::back_button(ui, lang) {
                        if net.waiting.is_some() {
                            net.send(ClientMessage::Leave);
                        }
                        if online.is_none() {
                            net.disconnect();
                        }
                        next.set(Screen::Title);
                    }
                    ui.heading(egui::RichText::new(lang.t("net-title")).size(28.0));
                });
                let (color, text) = link_text(lang, &net);
                ui.horizontal(|ui| {
                    let (rect, _) = ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
                    ui.painter().circle_filled(rect.center(), 6.0, color);
                    ui.label(egui::RichText::new(text).color(color));
                });
                notice_box(ui, lang, &mut net);
                egui::ScrollArea::vertical().show(ui, |ui| {
                    ui.set_max_width(720.0);
                    if online.is_some()
                        && session.as_ref().is_some_and(|s| !s.game.is_over())
                        && big_button(ui, lang.t("net-back-to-game"), 320.0).clicked()
                    {
                        next.set(Screen::Playing);
                    }
                    let connected = net.is_active();
                    ui.add_space(6.0);
                    ui.label(lang.t("net-server"));
                    ui.add_enabled_ui(!connected, |ui| {
                        ui.add(egui::TextEdit::singleline(&mut fields.server).desired_width(360.0));
                        ui.label(lang.t("net-nickname"));
                        ui.add(
                            egui::TextEdit::singleline(&mut fields.nickname)
                                .desired_width(240.0)
                                .char_limit(ludus_protocol::NICKNAME_MAX_CHARS),
                        );
                    });
                    ui.horizontal_wrapped(|ui| {
                        if !connected {
                            if ui.add_sized([180.0, 44.0], egui::Button::new(lang.t("net-connect"))).clicked()
                            {
                                config.server = fields.server.trim().to_string();
                                config.nickname = fields.nickname.trim().to_string();
                                let server = config.server.clone();
                                net.connect(&server, &config);
                            }
                        } else if ui
                            .add_sized([180.0, 44.0], egui::Button::new(lang.t("net-disconnect")))
                            .clicked()
                        {
                            net.disconnect();
                        }
                    });
                    #[cfg(not(target_arch = "wasm32"))]
                    host_section(ui, lang, &mut host, &mut net, &mut config, &mut fields.server);
                    if net.phase != LinkState::SignedIn {
                        return;
                    }
                    ui.separator();
                    if account_section(ui, lang, &mut net, &mut fields, &mut taps) {
                        next.set(Screen::Profile);
                    }
                    let LobbyForm { code, filter, .. } = &mut *fields;
                    if lobby_section(ui, lang, &mut net, &mut config, code, filter) {
                        next.set(Screen::Profile);
                    }
                });
            });
        });
    });
    Ok(())
}

/// The server's last refusal, until the person closes it: the refusal's words in the player's
/// language (the server's own English sentence went to the log when it came).
pub(super) fn notice_box(ui: &mut egui::Ui, lang: Lang, net: &mut Net) {
    let Some((code, _)) = &net.notice else { return };
    let text = lang.text(error_key(*code));
    let mut close = false;
    egui::Frame::group(ui.style()).fill(egui::Color32::from_rgb(90, 40, 30)).show(ui, |ui| {
        ui.label(egui::RichText::new(text).color(egui::Color32::WHITE));
        close = ui.button(lang.t("ui-ok")).clicked();
    });
    if close {
        net.notice = None;
    }
}

fn clock_label(lang: Lang, clock: Option<ClockSpec>) -> String {
    match clock {
        Some(c) => c.label(),
        None => lang.t("net-no-clock").to_string(),
    }
}

/// The lobby: the game, time control and rated choice, quick match and rooms, the open rooms
/// and live games (filtered), the leaderboard. `true`: a nickname was tapped, its profile asked
/// for.
fn lobby_section(
    ui: &mut egui::Ui,
    lang: Lang,
    net: &mut Net,
    config: &mut OnlineConfig,
    code: &mut String,
    filter: &mut LobbyFilter,
) -> bool {
    if let Some(waiting) = net.waiting.clone() {
        egui::Frame::group(ui.style()).show(ui, |ui| {
            match &waiting {
                Waiting::Room { code, variant, public } => {
                    ui.label(
                        lang.fmt("net-room-waiting", [("game", lang.text(variant_key(*variant)).into())]),
                    );
                    ui.label(egui::RichText::new(code).size(40.0).monospace().strong());
                    ui.label(if *public { lang.t("net-room-public") } else { lang.t("net-room-private") });
                }
                Waiting::Queue { variant } => {
                    ui.label(
                        lang.fmt("net-queue-waiting", [("game", lang.text(variant_key(*variant)).into())]),
                    );
                }
            }
            if ui.add_sized([180.0, 44.0], egui::Button::new(lang.t("net-cancel"))).clicked() {
                net.send(ClientMessage::Leave);
            }
        });
        return false;
    }
    let variant = config.variant.unwrap_or(Variant::Alquerque);
    ui.label(egui::RichText::new(lang.t("menu-game")).strong());
    ui.horizontal_wrapped(|ui| {
        for v in Variant::ALL {
            if ui.add(choice(variant == v, lang.text(variant_key(v)))).clicked() {
                config.variant = Some(v);
            }
        }
    });
    ui.label(egui::RichText::new(lang.t("net-time-control")).strong());
    ui.horizontal_wrapped(|ui| {
        let choices = std::iter::once(None).chain(ClockSpec::CONTROLS.map(Some));
        for choice in choices {
            if ui
                .add(crate::ui::widgets::choice(config.time_control == choice, clock_label(lang, choice)))
                .clicked()
            {
                config.time_control = choice;
            }
        }
    });
    let clock = config.time_control;
    // Rated play needs a claimed nickname (above).
    let claimed = net.profile.as_ref().is_some_and(|p| p.claimed);
    let mut rated = config.rated && claimed;
    let rated_box = ui.add_enabled(claimed, egui::Checkbox::new(&mut rated, lang.t("net-rated")));
    // The rules of rated play: what makes a game count.
    if rated_box.on_hover_text(lang.t("net-rated-rules")).changed() {
        config.rated = rated;
    }
    if !claimed {
        ui.label(egui::RichText::new(lang.t("net-rated-needs-claim")).small());
    }
    ui.horizontal_wrapped(|ui| {
        if ui.add_sized([200.0, 48.0], egui::Button::new(lang.t("net-quick-match"))).clicked() {
            net.send(ClientMessage::FindMatch { variant, clock, rated });
        }
        if ui.add_sized([200.0, 48.0], egui::Button::new(lang.t("net-create-public"))).clicked() {
            net.send(ClientMessage::OpenRoom { variant, clock, public: true, rated });
        }
        if ui.add_sized([200.0, 48.0], egui::Button::new(lang.t("net-create-private"))).clicked() {
            net.send(ClientMessage::OpenRoom { variant, clock, public: false, rated });
        }
    });
    ui.horizontal(|ui| {
        ui.label(lang.t("net-code"));
        ui.add(egui::TextEdit::singleline(code).desired_width(120.0).char_limit(12));
        if ui.add_enabled(!code.trim().is_empty(), egui::Button::new(lang.t("net-join"))).clicked() {
            net.send(ClientMessage::JoinRoom { code: code.trim().to_string() });
        }
    });
    ui.separator();
    let Some(lobby) = net.lobby.clone() else {
        ui.spinner();
        return false;
    };
    let mut profile = None;
    ui.label(lang.fmt("net-online-count", [("count", lobby.online.into())]));
    filter_row(ui, lang, filter);
    let rooms = filter.rooms(&lobby);
    list_heading(ui, lang, id!("net-open-rooms"), lobby.total_rooms, rooms.len(), lobby.rooms.len());
    for room in rooms {
        ui.horizontal_wrapped(|ui| {
            // A rated room takes claimed players only: the server would refuse the others.
            let can = !room.rated || claimed;
            let join = ui.add_enabled(can, egui::Button::new(lang.t("net-join")));
            if join.clicked() {
                net.send(ClientMessage::JoinRoom { code: room.code.clone() });
            }
            if !can {
                join.on_disabled_hover_text(lang.t("net-rated-needs-claim"));
            }
            let host = match &room.host_rating {
                Some(r) => format!("{} {}", room.host, rating_text(r)),
                None => room.host.clone(),
            };
            if ui.link(host).clicked() {
                profile = Some(room.host.clone());
            }
            ui.label(format!(
                "{} · {} · {}",
                lang.text(variant_key(room.variant)),
                clock_label(lang, room.clock),
                if room.rated { lang.t("net-game-rated") } else { lang.t("net-game-casual") },
            ));
        });
    }
    ui.add_space(6.0);
    let games = filter.games(&lobby);
    list_heading(ui, lang, id!("net-live-games"), lobby.total_games, games.len(), lobby.games.len());
    for g in games {
        ui.horizontal_wrapped(|ui| {
            if ui.button(lang.t("net-watch")).clicked() {
                net.send(ClientMessage::Watch { game: g.game });
            }
            ui.label(format!(
                "{} – {} · {} · {} · {} · {}{}",
                g.players[0],
                g.players[1],
                lang.text(variant_key(g.variant)),
                clock_label(lang, g.clock),
                lang.fmt("net-plies", [("count", g.ply.into())]),
                lang.fmt("net-spectators", [("count", g.spectators.into())]),
                if g.rated { format!(" · {}", lang.t("net-game-rated")) } else { String::new() },
            ));
        });
    }
    if let Some(name) = leaderboard_section(ui, lang, net, variant) {
        profile = Some(name);
    }
    match profile {
        Some(name) => {
            net.view_profile(&name);
            true
        }
        None => false,
    }
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
    ui.horizontal_wrapped(|ui| {
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
/// person's alone, on any device), or sign in as a claimed nickname with its password. `true`:
/// the person's own profile was asked for.
fn account_section(
    ui: &mut egui::Ui,
    lang: Lang,
    net: &mut Net,
    fields: &mut LobbyForm,
    taps: &mut TapTargets,
) -> bool {
    let Some(profile) = net.profile.clone() else { return false };
    let mut own = false;
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
        net.view_profile(&profile.nickname);
        own = true;
    }
    if profile.claimed {
        return own;
    }
    egui::CollapsingHeader::new(lang.t("net-account")).id_salt("account").show(ui, |ui| {
        ui.label(lang.t("net-claim-why"));
        // The password travels inside netcode's encryption, whose keys come over HTTP: only
        // https keeps them from the network.
        let secure = ["https://", "wss://"].iter().any(|p| net.server.to_ascii_lowercase().starts_with(p));
        if !secure {
            ui.label(
                egui::RichText::new(lang.t("net-password-insecure"))
                    .color(egui::Color32::from_rgb(230, 170, 90)),
            );
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
        ui.horizontal_wrapped(|ui| {
            if ui
                .add_enabled(
                    long_enough,
                    egui::Button::new(
                        lang.fmt("net-claim", [("nickname", profile.nickname.as_str().into())]),
                    ),
                )
                .clicked()
            {
                net.send(ClientMessage::ClaimNickname {
                    password: Password(std::mem::take(&mut fields.password)),
                });
            }
        });
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
            net.send(ClientMessage::SignInClaimed {
                nickname: fields.claimed_name.trim().to_string(),
                password: Password(std::mem::take(&mut fields.password)),
            });
        }
        if !long_enough {
            ui.label(
                egui::RichText::new(lang.fmt("net-password-length", [("count", PASSWORD_MIN_CHARS.into())]))
                    .small(),
            );
        }
    });
    own
}

/// The best rated players of the chosen game, and the person's own place (asked for when the
/// section is opened and when another game is chosen). A tapped name is returned (its profile).
fn leaderboard_section(ui: &mut egui::Ui, lang: Lang, net: &mut Net, variant: Variant) -> Option<String> {
    ui.add_space(6.0);
    let mut tapped = None;
    let header = egui::CollapsingHeader::new(
        egui::RichText::new(lang.fmt("net-leaderboard", [("game", lang.text(variant_key(variant)).into())]))
            .strong(),
    )
    .id_salt("leaderboard")
    .show(ui, |ui| {
        let board = net.leaderboard.clone().filter(|b| b.variant == variant);
        let Some(board) = board else {
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
                entry.nickname,
                rating_text(&entry.rating),
                entry.games
            );
            let text = egui::RichText::new(line).monospace();
            let text = if Some(entry.player) == net.player { text.strong() } else { text };
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
    // Asked for when opened, for another game, and with each refresh of the lobby.
    let open = header.body_returned.is_some();
    if open {
        net.ask_leaderboard(variant);
    }
    tapped
}

#[cfg(not(target_arch = "wasm32"))]
/// The hosting part of the online screen.
fn host_section(
    ui: &mut egui::Ui,
    lang: Lang,
    host: &mut LanHost,
    net: &mut Net,
    config: &mut OnlineConfig,
    server_field: &mut String,
) {
    let now = ui.ctx().input(|i| i.time);
    host.listen(now);
    ui.add_space(6.0);
    ui.separator();
    ui.label(egui::RichText::new(lang.t("host-title")).strong());
    if let Some((desktop, browser)) = host.addresses() {
        ui.label(lang.t("host-running"));
        ui.label(
            egui::RichText::new(lang.fmt("host-desktop", [("address", desktop.as_str().into())])).monospace(),
        );
        ui.label(
            egui::RichText::new(lang.fmt("host-browser", [("address", browser.as_str().into())])).monospace(),
        );
        if ui.add_sized([220.0, 44.0], egui::Button::new(lang.t("host-stop"))).clicked() {
            net.disconnect();
            host.stop();
        }
    } else {
        ui.label(lang.t("host-explain"));
        if ui.add_sized([260.0, 44.0], egui::Button::new(lang.t("host-start"))).clicked() {
            let name = if config.nickname.trim().is_empty() { "Ludus" } else { config.nickname.trim() };
            match host.start(name) {
                Ok(local) => {
                    host.error = None;
                    *server_field = local.clone();
                    net.connect(&local, config);
                }
                Err(e) => host.error = Some(e),
            }
        }
        if let Some(e) = &host.error {
            ui.label(
                egui::RichText::new(lang.fmt("host-failed", [("error", e.into())]))
                    .color(egui::Color32::LIGHT_RED),
            );
        }
    }
    if !host.found.is_empty() && !net.is_active() {
        ui.label(lang.t("host-found"));
        for (addr, (name, _)) in host.found.clone() {
            ui.horizontal(|ui| {
                if ui.button(lang.t("net-connect")).clicked() {
                    *server_field = addr.clone();
                    config.server = addr.clone();
                    net.connect(&addr, config);
                }
                ui.label(format!("{name} — {addr}"));
            });
        }
    }
    if net.phase == LinkState::Offline {
        ui.ctx().request_repaint_after(Duration::from_millis(500));
    }
}
