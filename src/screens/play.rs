//! The game screen around the board: the panel (status, players and clocks online, captured
//! pieces, buttons, the moves), the spectators' counts on the ghost moves, and the coordinates.
//! It shows the game and turns the player's taps into intents ([`GameIntent`], [`OnlineIntent`],
//! [`NavIntent`]); the game and the network act on them.

use crate::app::Screen;
use crate::app::navigation::NavIntent;
use crate::board::view::{BoardArea, BoardLayout, BoardView};
use crate::game::intent::{Confirm, Confirming, GameIntent};
use crate::game::selection::Selected;
use crate::game::session::{Player, Session};
use crate::game::settings::Settings;
use crate::i18n::player_name;
use crate::i18n::{Id, Lang, id};
use crate::net::connection::{Link, LinkState};
use crate::net::intents::OnlineIntent;
use crate::net::sync::{FoundMatch, OnlineGame};
use crate::players::computer::Thinking;
use crate::ui::theme::{Palette, palette};
use crate::ui::widgets::{
    clock_text, draw_coordinates, level_key, link_text, rating_text, side_name, side_swatch, status_text,
    variant_key,
};
use crate::ui::{TapTargets, root_ui};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use ludus_protocol::{CHAT_MAX_CHARS, ChatChannel, ChatLine, ChatText, PlayerId, QuickPhrase};
use ludus_rules::{AnyGame, AnyPosition, Side};

/// A move typed in the game's notation (`d1-d5`, `a1xc3xe5`), and why the last one was refused.
#[derive(Resource, Default)]
pub struct TypedMove {
    pub text: String,
    pub error: Option<String>,
}

/// Whether the game-over card is hidden to look at the final board.
#[derive(Resource, Default)]
pub struct OverCardHidden(pub bool);

/// What the game screen shows: the game, the person's settings, the computer's and the server's
/// part, what waits for a second tap.
#[derive(SystemParam)]
pub(super) struct GameShown<'w> {
    pub settings: Res<'w, Settings>,
    pub session: Option<Res<'w, Session>>,
    pub online: Option<Res<'w, OnlineGame>>,
    pub found: Option<Res<'w, FoundMatch>>,
    pub link: Res<'w, Link>,
    pub thinking: Res<'w, Thinking>,
    pub selected: Res<'w, Selected>,
    pub confirming: Res<'w, Confirming>,
    pub time: Res<'w, Time<Real>>,
}

impl GameShown<'_> {
    /// The online game, when the game on the board is that one.
    pub fn online(&self) -> Option<&OnlineGame> {
        let online = self.session.as_ref().is_some_and(|s| s.seats.is_online());
        self.online.as_deref().filter(|_| online)
    }
}

/// The board as the screen lays it out: where it is, what it shows, the space it gets.
#[derive(SystemParam)]
pub(super) struct BoardOnScreen<'w> {
    pub layout: ResMut<'w, BoardLayout>,
    pub view: ResMut<'w, BoardView>,
    pub area: ResMut<'w, BoardArea>,
}

/// What the game screen's taps turn into: intents for the game, the online game and the
/// navigation (and, for the browser test, where the buttons are).
#[derive(SystemParam)]
pub(super) struct PlayIntents<'w> {
    pub game: MessageWriter<'w, GameIntent>,
    pub online: MessageWriter<'w, OnlineIntent>,
    pub nav: MessageWriter<'w, NavIntent>,
    pub taps: ResMut<'w, TapTargets>,
    pub typed: ResMut<'w, TypedMove>,
}

/// One frame of the panel: everything it reads.
pub struct PanelView<'a> {
    pub lang: Lang,
    pub colors: Palette,
    pub session: &'a Session,
    pub online: Option<&'a OnlineGame>,
    /// An online game the server started while this one goes on, waiting to be taken.
    pub found: Option<&'a FoundMatch>,
    pub link: &'a Link,
    pub thinking: bool,
    pub selected: &'a Selected,
    pub confirming: Confirming,
    /// Real seconds now (the clocks, the confirmations).
    pub now: f64,
    /// The board shows the game as it is (no move on its way).
    pub settled: bool,
}

/// What the panel changes on the board's side of the screen.
pub struct PanelChanges<'a> {
    pub turned: &'a mut bool,
    pub card_hidden: &'a mut bool,
}

/// What the player asked on the panel this frame, for the wings that act on it (and, for the
/// browser test, where some buttons are; the move being typed).
pub struct PanelAsks<'a> {
    pub game: Vec<GameIntent>,
    pub online: Vec<OnlineIntent>,
    pub nav: Vec<NavIntent>,
    pub taps: &'a mut TapTargets,
    pub typed: &'a mut TypedMove,
}

/// The panel beside (or under) the board in `root`: draws it and returns the rest of the
/// window, the board's share (the layout tests call it without a game app).
pub fn game_panel(
    root: &mut egui::Ui,
    view: &PanelView,
    asks: &mut PanelAsks,
    changes: &mut PanelChanges,
) -> egui::Rect {
    let (portrait, size, low) = hud_geometry(root.ctx().viewport_rect());
    // A low panel (a phone held sideways, the strip under the board in portrait) scrolls as a
    // whole, the chat and the move list in it; a tall one keeps the move list scrolling alone.
    let whole = |ui: &mut egui::Ui| {
        let mut body = |ui: &mut egui::Ui| panel_body(ui, view, asks, changes, low);
        if low {
            egui::ScrollArea::vertical().id_salt("hud-scroll").auto_shrink([false, false]).show(ui, body);
        } else {
            body(ui);
        }
    };
    if portrait {
        egui::Panel::bottom("hud").exact_size(size).show(root, whole);
    } else {
        egui::Panel::right("hud").exact_size(size).show(root, whole);
    }
    root.available_rect_before_wrap()
}

/// The panel's size: under the board in a portrait window (its height), beside it otherwise
/// (its width), and whether it is low enough to scroll as a whole.
fn hud_geometry(viewport: egui::Rect) -> (bool, f32, bool) {
    let portrait = super::portrait(viewport);
    if portrait {
        let height = (viewport.height() * 0.36).clamp(220.0, 420.0);
        (true, height, height < 560.0)
    } else {
        let width = (viewport.width() * 0.28).clamp(260.0, 380.0);
        (false, width, viewport.height() < 560.0)
    }
}

/// The panel beside (or under) the board, which leaves the board the rest of the window.
pub(super) fn panel(
    mut contexts: EguiContexts,
    shown: GameShown,
    mut board: BoardOnScreen,
    mut hidden: ResMut<OverCardHidden>,
    mut intents: PlayIntents,
) -> Result {
    let Some(session) = shown.session.as_deref().filter(|s| !s.is_lesson()) else {
        return Ok(()); // a lesson has its own panel
    };
    let ctx = contexts.ctx_mut()?;
    let view = PanelView {
        lang: shown.settings.lang,
        colors: palette(shown.settings.theme),
        session,
        online: shown.online(),
        found: shown.found.as_deref(),
        link: &shown.link,
        thinking: shown.thinking.active,
        selected: &shown.selected,
        confirming: *shown.confirming,
        now: shown.time.elapsed_secs_f64(),
        settled: board.view.settled(session),
    };
    if view.confirming.0.is_some() {
        ctx.request_repaint_after(std::time::Duration::from_secs_f64(
            crate::game::intent::CONFIRM_WINDOW_S + 0.1,
        ));
    }
    let (mut turned, mut card_hidden) = (board.view.turned, hidden.0);
    let mut changes = PanelChanges { turned: &mut turned, card_hidden: &mut card_hidden };
    let PlayIntents { game, online, nav, taps, typed } = &mut intents;
    let mut asks = PanelAsks {
        game: Vec::new(),
        online: Vec::new(),
        nav: Vec::new(),
        taps: &mut *taps,
        typed: &mut *typed,
    };
    let mut root = root_ui(ctx);
    let rest = game_panel(&mut root, &view, &mut asks, &mut changes);
    game.write_batch(asks.game);
    online.write_batch(asks.online);
    nav.write_batch(asks.nav);
    if board.view.turned != turned {
        board.view.turned = turned;
    }
    if session.game.is_over() && hidden.0 != card_hidden {
        hidden.0 = card_hidden;
    }
    super::give_board(&mut board.area, &mut board.layout, crate::ui::logical_rect(ctx, rest));
    if shown.settings.coordinates {
        draw_coordinates(ctx, &board.layout);
    }
    if !session.game.is_over() && hidden.0 {
        hidden.0 = false;
    }
    Ok(())
}

/// An opponent was found online while the person plays here: take that game (this one stays
/// saved, to resume) or let it go.
fn found_match(ui: &mut egui::Ui, v: &PanelView, found: &FoundMatch, out: &mut Vec<OnlineIntent>) {
    let lang = v.lang;
    let view = &found.view;
    let opponent = match view.role {
        ludus_protocol::Role::Player(side) => &view.players[(!side).index()].nickname,
        ludus_protocol::Role::Spectator => return,
    };
    egui::Frame::group(ui.style()).fill(v.colors.notice).show(ui, |ui| {
        let text = lang.fmt(
            "net-found-match",
            [
                ("opponent", player_name(lang, opponent).into_owned().into()),
                ("game", lang.text(variant_key(view.variant)).into()),
            ],
        );
        ui.add(egui::Label::new(egui::RichText::new(text).color(v.colors.on_notice)).wrap());
        crate::ui::widgets::button_row(ui, |ui| {
            if ui.button(lang.t("net-found-take")).clicked() {
                out.push(OnlineIntent::TakeMatch);
            }
            if ui.button(lang.t("net-found-let-go")).clicked() {
                out.push(OnlineIntent::LetMatchGo);
            }
        });
    });
}

/// The panel's content, top to bottom.
fn panel_body(
    ui: &mut egui::Ui,
    v: &PanelView,
    intents: &mut PanelAsks,
    changes: &mut PanelChanges,
    low: bool,
) {
    status_section(ui, v);
    if let Some(found) = v.found {
        found_match(ui, v, found, &mut intents.online);
    }
    if let Some(online) = v.online {
        online_panel(ui, v, online);
    }
    draw_offer(ui, v, &mut intents.game);
    captured_row(ui, v);
    if let Some(online) = v.online {
        online_buttons(ui, v, online, intents, changes);
    } else {
        local_buttons(ui, v, intents, changes);
    }
    if v.session.game.is_over() && *changes.card_hidden && ui.button(v.lang.t("over-title")).clicked() {
        *changes.card_hidden = false;
    }
    // The chat below the buttons, so that the buttons stay in sight.
    if let Some(online) = v.online
        && let Some(phrase) = chat_panel(ui, v, online, &mut intents.online)
    {
        intents.taps.note(ui, "phrase_good_game", &phrase);
    }
    typed_move(ui, v, &mut *intents.typed, &mut intents.game);
    move_list(ui, v.lang, &v.session.game, low);
}

/// The game's name, the status lines, and the computer's level.
fn status_section(ui: &mut egui::Ui, v: &PanelView) {
    let (lang, game) = (v.lang, &v.session.game);
    let variant = game.variant();
    ui.horizontal(|ui| {
        side_swatch(ui, variant, game.side_to_move());
        // Wraps: a long name ("Latrunculi (cờ La Mã), bàn nhanh 8x8") must not widen the panel.
        ui.add(egui::Label::new(egui::RichText::new(lang.text(variant_key(variant))).heading()).wrap());
    });
    for (i, line) in status_text(lang, v.session, v.thinking, v.selected).iter().enumerate() {
        let text = egui::RichText::new(line);
        let text = if i == 0 { text.size(20.0).strong() } else { text };
        if v.thinking && line == lang.t("status-thinking") {
            // A turning wheel while the engine searches (it asks for its own frames).
            ui.horizontal(|ui| {
                ui.add(egui::Spinner::new().size(16.0));
                ui.add(egui::Label::new(text).wrap());
            });
        } else {
            ui.label(text);
        }
    }
    let level = v.session.seats.players.iter().find_map(|p| match p {
        Player::Computer(l) => Some(*l),
        Player::Human | Player::Remote => None,
    });
    if let Some(level) = level {
        ui.label(lang.fmt("hud-level", [("level", lang.text(level_key(level)).into())]));
    }
}

/// How many pieces each side has lost.
fn captured_row(ui: &mut egui::Ui, v: &PanelView) {
    let game = &v.session.game;
    let variant = game.variant();
    let (start, now) = (game.start(), game.position());
    let count = |pos: &AnyPosition, side: Side| pos.pieces().iter().filter(|(_, p)| p.side == side).count();
    // Wraps on a narrow panel (a phone at 200 % text): a row wider than the panel would widen
    // the whole scrolled panel past the window's edge.
    crate::ui::widgets::button_row(ui, |ui| {
        ui.label(v.lang.t("hud-captured"));
        for side in [Side::First, Side::Second] {
            let lost = count(&start, side).saturating_sub(count(&now, side));
            crate::ui::widgets::swatch_text(ui, v.lang, variant, side, &format!("×{lost}"));
        }
    });
}

/// A button for an act that asks for a second tap: its label says so while it waits.
fn confirm_button(ui: &mut egui::Ui, enabled: bool, label: &str, confirm_label: &str, armed: bool) -> bool {
    let button = if armed {
        egui::Button::new(egui::RichText::new(confirm_label).strong()).selected(true)
    } else {
        egui::Button::new(label)
    };
    ui.add_enabled(enabled, button).clicked()
}

/// The buttons of a game on this device: take back, replay, hint, resign, draw, new game, flip,
/// menu.
fn local_buttons(ui: &mut egui::Ui, v: &PanelView, intents: &mut PanelAsks, changes: &mut PanelChanges) {
    let (lang, session) = (v.lang, v.session);
    let game = &session.game;
    let human_turn_or_over = session.human_to_move() || game.is_over() || session.seats.is_two_players();
    let out = &mut intents.game;
    crate::ui::widgets::button_row(ui, |ui| {
        if ui.add_enabled(game.ply() > 0, egui::Button::new(lang.t("hud-undo"))).clicked() {
            out.push(GameIntent::Undo);
        }
        if ui.add_enabled(!session.redo.is_empty(), egui::Button::new(lang.t("hud-redo"))).clicked() {
            out.push(GameIntent::Redo);
        }
        let hint = session.human_to_move() && !v.thinking;
        if ui.add_enabled(hint, egui::Button::new(lang.t("hud-hint"))).clicked() {
            out.push(GameIntent::Hint);
        }
        let armed = v.confirming.armed(Confirm::Resign, v.now);
        let can_resign = !game.is_over() && human_turn_or_over;
        if confirm_button(ui, can_resign, lang.t("hud-resign"), lang.t("hud-resign-confirm"), armed) {
            out.push(GameIntent::Resign);
        }
        draw_button(ui, v, human_turn_or_over, out, &mut *intents.taps);
        let armed = v.confirming.armed(Confirm::NewGame, v.now);
        if confirm_button(ui, true, lang.t("hud-new-game"), lang.t("hud-new-game-confirm"), armed) {
            out.push(GameIntent::NewGame);
        }
        // Either side can be looked at from below, against the computer too.
        if ui.button(lang.t("hud-flip")).clicked() {
            *changes.turned = !*changes.turned;
        }
        if ui.button(lang.t("hud-menu")).clicked() {
            out.push(GameIntent::Leave);
        }
    });
}

/// "Offer a draw", enabled once both sides have moved (and said so while it is not).
fn draw_button(
    ui: &mut egui::Ui,
    v: &PanelView,
    enabled: bool,
    out: &mut Vec<GameIntent>,
    taps: &mut TapTargets,
) {
    let session = v.session;
    let side = match v.online {
        Some(online) => online.local_side(),
        None => session.offering_side(),
    };
    let Some(side) = side else { return };
    let may = session.may_offer_draw(side);
    let offer = ui.add_enabled(may && enabled, egui::Button::new(v.lang.t("hud-offer-draw")));
    let offer = if session.game.ply() < 2 {
        offer.on_disabled_hover_text(v.lang.t("hud-draw-after-first-moves"))
    } else {
        offer
    };
    if offer.clicked() {
        out.push(GameIntent::OfferDraw);
    }
    if offer.enabled() {
        taps.note(ui, "offer_draw", &offer);
    }
}

/// The buttons of an online game: resign (a second tap confirms), offer a draw, flip (watching),
/// and the lobby.
fn online_buttons(
    ui: &mut egui::Ui,
    v: &PanelView,
    online: &OnlineGame,
    intents: &mut PanelAsks,
    changes: &mut PanelChanges,
) {
    let (lang, session) = (v.lang, v.session);
    let playing = online.local_side().is_some() && !session.game.is_over();
    crate::ui::widgets::button_row(ui, |ui| {
        let armed = v.confirming.armed(Confirm::Resign, v.now);
        if playing && confirm_button(ui, true, lang.t("hud-resign"), lang.t("net-resign-confirm"), armed) {
            intents.game.push(GameIntent::Resign);
        }
        if playing {
            draw_button(ui, v, true, &mut intents.game, &mut *intents.taps);
        }
        if session.is_watching() && ui.button(lang.t("hud-flip")).clicked() {
            *changes.turned = !*changes.turned;
        }
        let lobby = ui.button(lang.t("net-lobby"));
        intents.taps.note(ui, "lobby", &lobby);
        if lobby.clicked() {
            if playing {
                // The seat stays: the lobby offers the way back to the game.
                intents.nav.push(NavIntent::Go(Screen::Online));
            } else {
                intents.online.push(OnlineIntent::LeaveGame);
            }
        }
    });
}

/// The moves played, two a line, each capture marked with `×` (and how many pieces it took when
/// more than one).
pub fn move_list_lines(game: &AnyGame) -> Vec<String> {
    let mut position = game.start();
    let mut moves = Vec::new();
    for mv in game.moves() {
        let text = position.move_to_string(&mv).unwrap_or_default();
        let Ok(next) = position.try_play(&mv) else { break };
        let theirs =
            |p: &AnyPosition| p.pieces().iter().filter(|(_, q)| q.side != position.side_to_move()).count();
        let taken = theirs(&position).saturating_sub(theirs(&next));
        moves.push(match taken {
            0 => text,
            1 => format!("{text}×"),
            n => format!("{text}×{n}"),
        });
        position = next;
    }
    let mut lines = Vec::new();
    let mut iter = moves.iter().peekable();
    let mut n = 1;
    if game.start().side_to_move() == Side::Second
        && let Some(m) = iter.next()
    {
        lines.push(format!("{n:>3}. …      {m}"));
        n += 1;
    }
    while let Some(a) = iter.next() {
        let b = iter.next().map(String::as_str).unwrap_or("");
        lines.push(format!("{n:>3}. {a:<10} {b}"));
        n += 1;
    }
    lines
}

/// The move list (in a low panel, part of the panel's own scrolling).
fn move_list(ui: &mut egui::Ui, lang: Lang, game: &AnyGame, low: bool) {
    ui.separator();
    ui.label(egui::RichText::new(lang.t("hud-moves")).strong());
    let lines = move_list_lines(game);
    let list = |ui: &mut egui::Ui| {
        for l in lines {
            ui.label(egui::RichText::new(l).monospace());
        }
    };
    if low {
        list(ui);
    } else {
        egui::ScrollArea::vertical().stick_to_bottom(true).auto_shrink([false, false]).show(ui, list);
    }
}

/// An example of the notation for the move field: the shape of a move that is not a legal move
/// here (the field gives no free hint).
pub fn example_move(game: &AnyGame) -> String {
    let position = game.position();
    let (w, h) = (position.width(), position.height());
    let name = |f: u8, r: u8| format!("{}{}", char::from(b'a' + f), r + 1);
    for r in 0..h {
        for f in 0..w {
            for (df, dr) in [(0u8, 1u8), (1, 0), (1, 1)] {
                let (tf, tr) = (f + df, r + dr);
                if tf >= w || tr >= h {
                    continue;
                }
                let text = format!("{}-{}", name(f, r), name(tf, tr));
                if position.parse_move(&text).is_err() {
                    return text;
                }
            }
        }
    }
    String::new()
}

/// A field for a move in the game's notation: Enter (or the button) plays it when it is legal
/// here, and says why not otherwise. It stays in its place (greyed) while the person here cannot
/// move, so that the move list under it does not jump.
fn typed_move(ui: &mut egui::Ui, v: &PanelView, typed: &mut TypedMove, out: &mut Vec<GameIntent>) {
    let session = v.session;
    let game = &session.game;
    let someone_here = session.seats.players.contains(&Player::Human) || session.is_watching();
    if game.is_over() || session.is_review() || !someone_here {
        return;
    }
    let lang = v.lang;
    let ready = session.can_touch() && v.settled;
    ui.label(lang.t("hud-type-move"));
    ui.add_enabled_ui(ready, |ui| {
        ui.horizontal(|ui| {
            let field = ui.add(
                egui::TextEdit::singleline(&mut typed.text)
                    .id_salt("typed-move")
                    .hint_text(example_move(game))
                    .char_limit(40)
                    .desired_width(120.0),
            );
            let entered = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            let filled = !typed.text.trim().is_empty();
            let pressed = ui.add_enabled(filled, egui::Button::new(lang.t("hud-type-move-play"))).clicked();
            if (entered || pressed) && filled && ready {
                match game.position().parse_move(typed.text.trim()) {
                    Ok(mv) => {
                        typed.text.clear();
                        typed.error = None;
                        out.push(GameIntent::Play(mv));
                    }
                    Err(e) => typed.error = Some(crate::i18n::problems::parse_error(lang, &e)),
                }
                field.request_focus();
            }
            if field.changed() && typed.error.is_some() {
                typed.error = None;
            }
        });
    });
    if let Some(error) = &typed.error {
        ui.add(egui::Label::new(egui::RichText::new(error).color(v.colors.warn)).wrap());
    }
}

/// The draw offer on the table: who offers it, with "accept" and "decline" for the person who
/// answers it here (the opponent online; the other player with two players on one device; the
/// computer answers its own), and the answer to the last one until the next move.
fn draw_offer(ui: &mut egui::Ui, v: &PanelView, out: &mut Vec<GameIntent>) {
    let (lang, session, online) = (v.lang, v.session, v.online);
    if session.game.is_over() {
        return;
    }
    let variant = session.game.variant();
    let news = v.colors.accent;
    if let Some(by) = session.draw.open {
        let answers_here = match online {
            Some(online) => online.local_side() == Some(!by),
            None => session.seats.player(!by) == Player::Human,
        };
        let mine = online.is_some_and(|o| o.local_side() == Some(by))
            || (online.is_none() && session.seats.human_side() == Some(by));
        if answers_here {
            let text = lang.fmt("draw-offered", [("side", side_name(lang, variant, by).into())]);
            ui.label(egui::RichText::new(text).color(news));
            crate::ui::widgets::button_row(ui, |ui| {
                if ui.button(lang.t("draw-accept")).clicked() {
                    out.push(GameIntent::AnswerDraw(true));
                }
                if ui.button(lang.t("draw-decline")).clicked() {
                    out.push(GameIntent::AnswerDraw(false));
                }
            });
        } else if mine {
            ui.label(egui::RichText::new(lang.t("draw-waiting")).color(news));
        }
    } else if let Some(side) = session.draw.declined_by {
        let text = lang.fmt("draw-declined", [("side", side_name(lang, variant, side).into())]);
        ui.label(egui::RichText::new(text).color(news));
    }
}

/// How many spectators proposed each ghost move, and the frames a running clock needs.
pub(super) fn ghost_counts(mut contexts: EguiContexts, shown: GameShown, board: BoardOnScreen) -> Result {
    let Some(session) = shown.session.as_deref() else {
        return Ok(());
    };
    let online = shown.online();
    let ctx = contexts.ctx_mut()?;
    let colors = palette(shown.settings.theme);
    let (layout, view) = (&*board.layout, &*board.view);
    if !view.ghosts.is_empty() {
        let painter = ctx.layer_painter(egui::LayerId::new(egui::Order::Foreground, egui::Id::new("ghosts")));
        // The board is laid out in logical pixels, egui in points (they differ by the zoom).
        let z = ctx.zoom_factor();
        let font = egui::FontId::proportional((layout.cell * 0.3 / z).clamp(11.0 / z, 20.0));
        for (mv, n) in &view.ghosts {
            let p =
                crate::ui::to_points(ctx, layout.to_screen(mv.to()) + Vec2::new(0.32, -0.32) * layout.cell);
            painter.circle_filled(p, layout.cell * 0.17 / z, colors.badge);
            painter.text(p, egui::Align2::CENTER_CENTER, n.to_string(), font.clone(), colors.on_badge);
        }
        if online.is_some() {
            ctx.request_repaint_after(std::time::Duration::from_millis(250));
        }
    }
    // An Alquerque chain counts its jumps where each lands, while it is played.
    if let Some(anim) = &view.anim {
        let landings = anim.chain_landings();
        if !landings.is_empty() {
            let painter =
                ctx.layer_painter(egui::LayerId::new(egui::Order::Foreground, egui::Id::new("chain")));
            let z = ctx.zoom_factor();
            let font = egui::FontId::proportional((layout.cell * 0.3 / z).clamp(11.0 / z, 24.0));
            for (at, n) in landings {
                let p = crate::ui::to_points(
                    ctx,
                    layout.local_to_screen(at) + Vec2::new(0.34, -0.34) * layout.cell,
                );
                painter.circle(
                    p,
                    layout.cell * 0.19 / z,
                    colors.jump,
                    egui::Stroke::new(2.0, colors.on_jump),
                );
                painter.text(p, egui::Align2::CENTER_CENTER, n.to_string(), font.clone(), colors.on_jump);
            }
        }
    }
    if online.is_some_and(|o| o.clocks.is_some()) && !session.game.is_over() {
        // The running clock ticks.
        ctx.request_repaint_after(std::time::Duration::from_millis(200));
    }
    Ok(())
}

/// The message id of a quick phrase's words.
pub fn phrase_key(phrase: QuickPhrase) -> Id {
    match phrase {
        QuickPhrase::Hello => id!("chat-hello"),
        QuickPhrase::GoodLuck => id!("chat-good-luck"),
        QuickPhrase::HaveFun => id!("chat-have-fun"),
        QuickPhrase::NiceMove => id!("chat-nice-move"),
        QuickPhrase::Oops => id!("chat-oops"),
        QuickPhrase::Thanks => id!("chat-thanks"),
        QuickPhrase::WellPlayed => id!("chat-well-played"),
        QuickPhrase::GoodGame => id!("chat-good-game"),
        QuickPhrase::Rematch => id!("chat-rematch"),
    }
}

/// A chat line as the screen shows it: who, and what in the person's language (a quick phrase)
/// or as typed; a spectator's line marked as such where players read it (after the game).
pub fn chat_line_text(lang: Lang, line: &ChatLine, viewer_plays: bool) -> String {
    let said = match &line.text {
        ChatText::Phrase(p) => lang.text(phrase_key(*p)).to_string(),
        ChatText::Free(text) => text.clone(),
    };
    if viewer_plays && line.channel == ChatChannel::Spectators {
        lang.fmt(
            "chat-spectator-line",
            [
                ("name", player_name(lang, &line.nickname).into_owned().into()),
                ("message", said.as_str().into()),
            ],
        )
    } else {
        format!("{}: {said}", player_name(lang, &line.nickname))
    }
}

/// The game's chat (online): the lines heard, quick phrases and free text while the game goes
/// on (players talk to each other, spectators among themselves; the players read the
/// spectators' lines once it is over), and muting a speaker. Returns the "Good game" button,
/// when it shows.
fn chat_panel(
    ui: &mut egui::Ui,
    v: &PanelView,
    online: &OnlineGame,
    out: &mut Vec<OnlineIntent>,
) -> Option<egui::Response> {
    let lang = v.lang;
    let mut good_game = None;
    let plays = online.local_side().is_some();
    let open = !v.session.game.is_over();
    let shown: Vec<&ChatLine> = online.chat_shown().collect();
    let title = lang.fmt("chat-title", [("count", shown.len().into())]);
    egui::CollapsingHeader::new(egui::RichText::new(title).strong()).id_salt("chat").default_open(true).show(
        ui,
        |ui| {
            egui::ScrollArea::vertical().id_salt("chat-lines").max_height(120.0).stick_to_bottom(true).show(
                ui,
                |ui| {
                    if shown.is_empty() {
                        ui.label(egui::RichText::new(lang.t("chat-none")).italics());
                    }
                    for line in &shown {
                        ui.add(egui::Label::new(chat_line_text(lang, line, plays)).wrap());
                    }
                },
            );
            if open {
                good_game = chat_input(ui, lang, online, out);
                mute_row(ui, lang, v.link.player, online, out);
            }
        },
    );
    good_game
}

/// The quick phrases and the free-text field. Returns the "Good game" button.
fn chat_input(
    ui: &mut egui::Ui,
    lang: Lang,
    online: &OnlineGame,
    out: &mut Vec<OnlineIntent>,
) -> Option<egui::Response> {
    let mut good_game = None;
    crate::ui::widgets::button_row(ui, |ui| {
        for phrase in QuickPhrase::ALL {
            let button = ui.small_button(lang.text(phrase_key(phrase)));
            if button.clicked() {
                out.push(OnlineIntent::Phrase(phrase));
            }
            if phrase == QuickPhrase::GoodGame {
                good_game = Some(button);
            }
        }
    });
    let id = egui::Id::new(("chat-draft", online.id.0));
    let mut draft = ui.data_mut(|d| d.get_temp::<String>(id)).unwrap_or_default();
    ui.horizontal(|ui| {
        let field = ui.add(
            egui::TextEdit::singleline(&mut draft)
                .char_limit(CHAT_MAX_CHARS)
                .hint_text(lang.t("chat-hint"))
                .desired_width(ui.available_width() - 70.0),
        );
        let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        let send = ui.add_enabled(!draft.trim().is_empty(), egui::Button::new(lang.t("chat-send")));
        if (enter || send.clicked()) && !draft.trim().is_empty() {
            out.push(OnlineIntent::Say(std::mem::take(&mut draft)));
        }
    });
    ui.data_mut(|d| d.insert_temp(id, draft));
    good_game
}

/// Mute or unmute anyone who has spoken (never oneself).
fn mute_row(
    ui: &mut egui::Ui,
    lang: Lang,
    me: Option<PlayerId>,
    online: &OnlineGame,
    out: &mut Vec<OnlineIntent>,
) {
    let mut speakers: Vec<(PlayerId, &str)> = Vec::new();
    for line in &online.chat {
        if Some(line.from) != me && !speakers.iter().any(|(p, _)| *p == line.from) {
            speakers.push((line.from, &line.nickname));
        }
    }
    if speakers.is_empty() {
        return;
    }
    crate::ui::widgets::button_row(ui, |ui| {
        ui.label(lang.t("chat-mute"));
        for (player, nickname) in speakers {
            let muted = online.muted.contains(&player);
            if ui.add(egui::Button::selectable(muted, player_name(lang, nickname).into_owned())).clicked() {
                out.push(OnlineIntent::Mute { player, muted: !muted });
            }
        }
    });
}

/// The online part of the game screen's panel: the players, clocks and connection; for
/// spectators the proposals and the crowd's verdict; at the end the ratings and the crowd's
/// record.
fn online_panel(ui: &mut egui::Ui, v: &PanelView, online: &OnlineGame) {
    let lang = v.lang;
    let kind = if online.rated { lang.t("net-game-rated") } else { lang.t("net-game-casual") };
    let clock = online.clock.map_or_else(|| lang.t("net-no-clock").to_string(), |c| c.label());
    ui.label(egui::RichText::new(format!("{kind} · {clock}")).small());
    for side in [Side::First, Side::Second] {
        player_row(ui, v, online, side);
    }
    ui.label(lang.fmt("net-spectators", [("count", online.spectators.into())]));
    if v.link.phase != LinkState::SignedIn {
        let (tone, text) = link_text(lang, v.link);
        ui.label(egui::RichText::new(text).color(tone.color(&v.colors)));
    }
    if v.session.is_watching() {
        spectator_section(ui, v, online);
    }
    if v.session.game.is_over() {
        end_section(ui, lang, online);
    }
}

/// A player's line: connected or not, name and rating, their clock; and how long their seat is
/// held while they are away.
fn player_row(ui: &mut egui::Ui, v: &PanelView, online: &OnlineGame, side: Side) {
    let (lang, colors) = (v.lang, &v.colors);
    let variant = v.session.game.variant();
    let to_move = (!v.session.game.is_over()).then(|| v.session.game.side_to_move());
    let info = &online.players[side.index()];
    ui.horizontal(|ui| {
        let (rect, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
        let dot = if info.connected { colors.good } else { colors.text_weak };
        ui.painter().circle_filled(rect.center(), 5.0, dot);
        let rated = info.rating.map(|r| format!(" {}", rating_text(&r))).unwrap_or_default();
        let mut name =
            format!("{}{rated} ({})", player_name(lang, &info.nickname), side_name(lang, variant, side));
        if online.local_side() == Some(side) {
            name = lang.fmt("net-you", [("name", name.as_str().into())]);
        }
        let text = egui::RichText::new(name);
        ui.label(if to_move == Some(side) { text.strong() } else { text });
        if let Some(ms) = online.remaining_ms(side, v.now) {
            let t = egui::RichText::new(clock_text(ms)).monospace().size(18.0);
            let t = if ms < 20_000 { t.color(colors.warn) } else { t };
            ui.label(if to_move == Some(side) { t.strong() } else { t });
        }
    });
    if !info.connected
        && let Some(until) = online.hold_until[side.index()]
    {
        let left = ((until - v.now).max(0.0) * 1000.0) as u64;
        let text = lang.fmt(
            "net-opponent-away",
            [
                ("name", player_name(lang, &info.nickname).into_owned().into()),
                ("time", clock_text(left).into()),
            ],
        );
        ui.label(egui::RichText::new(text).color(colors.caution));
    }
}

/// What a spectator sees: the proposals for the next move and how the crowd did.
fn spectator_section(ui: &mut egui::Ui, v: &PanelView, online: &OnlineGame) {
    let lang = v.lang;
    ui.separator();
    ui.label(egui::RichText::new(lang.t("net-watching")).strong());
    if !v.session.game.is_over() {
        ui.label(lang.t("net-propose-hint"));
    }
    if let Some(mine) = &online.your_proposal {
        ui.label(lang.fmt("net-your-proposal", [("move", mine.into())]));
    }
    for p in online.proposals.iter().take(5) {
        ui.label(lang.fmt("net-proposal", [("move", p.mv.as_str().into()), ("count", p.count.into())]));
    }
    if let Some((played, verdict)) = &online.verdict {
        let (played, backers) = (played.as_str(), verdict.backers);
        let text = if verdict.guessed {
            lang.fmt("net-crowd-guessed", [("move", played.into()), ("count", backers.into())])
        } else {
            lang.fmt("net-crowd-missed", [("move", played.into()), ("count", backers.into())])
        };
        ui.label(egui::RichText::new(text).color(v.colors.accent));
    }
}

/// At the end: what the game did to both ratings, and the crowd's proposals ply by ply.
fn end_section(ui: &mut egui::Ui, lang: Lang, online: &OnlineGame) {
    let Some(archive) = &online.archive else { return };
    if let Some(changes) = &archive.ratings {
        for (name, change) in archive.players.iter().zip(changes) {
            let delta = change.after.rating - change.before.rating;
            ui.label(lang.fmt(
                "net-rating-change",
                [
                    ("player", name.into()),
                    ("before", rating_text(&change.before).into()),
                    ("after", rating_text(&change.after).into()),
                    ("change", format!("{delta:+}").into()),
                ],
            ));
        }
    }
    if !archive.proposals.is_empty() {
        ui.separator();
        ui.label(egui::RichText::new(lang.t("net-crowd-record")).strong());
        for ply in archive.proposals.iter().take(40) {
            let best = ply.proposals.first();
            ui.label(
                egui::RichText::new(format!(
                    "{:>3}. {:<10} {}",
                    ply.ply + 1,
                    ply.played,
                    best.map(|b| format!("({} ×{})", b.mv, b.count)).unwrap_or_default()
                ))
                .monospace(),
            );
        }
    }
}
