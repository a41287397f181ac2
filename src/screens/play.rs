//! The game screen around the board: the panel (status, players and clocks online, captured
//! pieces, buttons, the moves), the spectators' counts on the ghost moves, and the coordinates.

use crate::app::Screen;
use crate::board::view::{BoardArea, BoardLayout, BoardView};
use crate::game::selection::Selected;
use crate::game::session::{GameCommand, HintRequest, Player, Session};
use crate::game::settings::Settings;
use crate::i18n::{Id, Lang, id};
use crate::net::connection::{LinkState, Net};
use crate::net::sync::{OnlineGame, leave_game};
use crate::players::computer::Thinking;
use crate::ui::widgets::{
    clock_text, draw_coordinates, level_key, link_text, rating_text, side_name, side_swatch, status_text,
    variant_key,
};
use crate::ui::{TapTargets, root_ui};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use ludus_protocol::{
    CHAT_MAX_CHARS, ChatChannel, ChatError, ChatLine, ChatText, ClientMessage, ErrorCode, PlayerId,
    QuickPhrase, validate_chat,
};
use ludus_rules::{AnyPosition, Side};

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
/// part.
#[derive(SystemParam)]
pub(super) struct GameShown<'w> {
    pub settings: Res<'w, Settings>,
    pub session: Option<Res<'w, Session>>,
    pub online: Option<Res<'w, OnlineGame>>,
    pub thinking: Res<'w, Thinking>,
    pub selected: Res<'w, Selected>,
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

/// What the game screen's buttons do: the game's commands, a hint, another screen, the server.
#[derive(SystemParam)]
pub(super) struct GameActions<'w, 's> {
    pub game: MessageWriter<'w, GameCommand>,
    pub hint: MessageWriter<'w, HintRequest>,
    pub next: ResMut<'w, NextState<Screen>>,
    pub net: ResMut<'w, Net>,
    pub commands: Commands<'w, 's>,
    pub taps: ResMut<'w, TapTargets>,
    pub typed: ResMut<'w, TypedMove>,
}

/// The panel beside (or under) the board, which leaves the board the rest of the window.
pub(super) fn panel(
    mut contexts: EguiContexts,
    shown: GameShown,
    mut board: BoardOnScreen,
    mut hidden: ResMut<OverCardHidden>,
    mut actions: GameActions,
) -> Result {
    let Some(session) = shown.session.as_deref().filter(|s| !s.is_lesson()) else {
        return Ok(()); // a lesson has its own panel
    };
    let online = shown.online();
    let now = shown.time.elapsed_secs_f64();
    let ctx = contexts.ctx_mut()?;
    let lang = shown.settings.lang;
    let selected = &*shown.selected;
    let game = &session.game;
    let variant = game.variant();
    let viewport = ctx.viewport_rect();
    let portrait = super::portrait(viewport);
    let portrait_height = (viewport.height() * 0.36).clamp(220.0, 420.0);
    let low = if portrait { portrait_height } else { viewport.height() } < 560.0;
    let mut root = root_ui(ctx);
    let thinking_now = shown.thinking.active;
    let mut panel = |ui: &mut egui::Ui| {
        // Status.
        ui.horizontal(|ui| {
            side_swatch(ui, variant, game.side_to_move());
            // Wraps: a long name ("Latrunculi (cờ La Mã), bàn nhanh 8x8") must not widen the panel.
            ui.add(egui::Label::new(egui::RichText::new(lang.text(variant_key(variant))).heading()).wrap());
        });
        for (i, line) in status_text(lang, session, thinking_now, selected).iter().enumerate() {
            let text = egui::RichText::new(line);
            ui.label(if i == 0 { text.size(20.0).strong() } else { text });
        }
        if let Some(online) = online {
            online_panel(ui, lang, &actions.net, online, session, now);
        }
        draw_offer(ui, lang, session, online, &mut actions.game);
        if let Some(level) = session.seats.players.iter().find_map(|p| match p {
            Player::Computer(l) => Some(*l),
            Player::Human | Player::Remote => None,
        }) {
            ui.label(lang.fmt("hud-level", [("level", lang.text(level_key(level)).into())]));
        }
        // Captured pieces.
        let start = game.start();
        let now = game.position();
        let count =
            |pos: &AnyPosition, side: Side| pos.pieces().iter().filter(|(_, p)| p.side == side).count();
        ui.horizontal(|ui| {
            ui.label(lang.t("hud-captured"));
            for side in [Side::First, Side::Second] {
                side_swatch(ui, variant, side);
                ui.label(format!("×{}", count(&start, side).saturating_sub(count(&now, side))));
            }
        });
        // Buttons.
        let human_turn_or_over = session.human_to_move() || game.is_over() || session.seats.is_two_players();
        if let Some(online) = online {
            ui.horizontal_wrapped(|ui| {
                let playing = online.local_side().is_some() && !game.is_over();
                // Resigning online cannot be taken back: a second tap within 4 s confirms.
                let id = egui::Id::new("online-resign-confirm");
                let t = ui.ctx().input(|i| i.time);
                let armed = ui.ctx().data(|d| d.get_temp::<f64>(id)).is_some_and(|until| t < until);
                let label = if armed { lang.t("net-resign-confirm") } else { lang.t("hud-resign") };
                if playing && ui.button(label).clicked() {
                    if armed {
                        ui.ctx().data_mut(|d| d.remove::<f64>(id));
                        actions.game.write(GameCommand::Resign);
                    } else {
                        ui.ctx().data_mut(|d| d.insert_temp(id, t + 4.0));
                        ui.ctx().request_repaint_after(std::time::Duration::from_secs_f64(4.1));
                    }
                }
                if let Some(side) = online.local_side()
                    && playing
                {
                    let offer = ui.add_enabled(
                        session.may_offer_draw(side),
                        egui::Button::new(lang.t("hud-offer-draw")),
                    );
                    if offer.clicked() {
                        actions.game.write(GameCommand::OfferDraw);
                    }
                    if offer.enabled() {
                        actions.taps.note(ui, "offer_draw", &offer);
                    }
                }
                if session.is_watching() && ui.button(lang.t("hud-flip")).clicked() {
                    board.view.turned = !board.view.turned;
                }
                let lobby = ui.button(lang.t("net-lobby"));
                actions.taps.note(ui, "lobby", &lobby);
                if lobby.clicked() {
                    if playing {
                        // The seat stays: the lobby offers the way back to the game.
                        actions.next.set(Screen::Online);
                    } else {
                        leave_game(&mut actions.commands, &mut actions.net, &mut actions.next);
                    }
                }
            });
        } else {
            ui.horizontal_wrapped(|ui| {
                if ui.add_enabled(game.ply() > 0, egui::Button::new(lang.t("hud-undo"))).clicked() {
                    actions.game.write(GameCommand::Undo);
                }
                if ui.add_enabled(!session.redo.is_empty(), egui::Button::new(lang.t("hud-redo"))).clicked() {
                    actions.game.write(GameCommand::Redo);
                }
                if ui
                    .add_enabled(
                        session.human_to_move() && !thinking_now,
                        egui::Button::new(lang.t("hud-hint")),
                    )
                    .clicked()
                {
                    actions.hint.write(HintRequest);
                }
                if ui
                    .add_enabled(
                        !game.is_over() && human_turn_or_over,
                        egui::Button::new(lang.t("hud-resign")),
                    )
                    .clicked()
                {
                    actions.game.write(GameCommand::Resign);
                }
                let may_offer = session.offering_side().is_some_and(|side| session.may_offer_draw(side));
                if ui
                    .add_enabled(may_offer && human_turn_or_over, egui::Button::new(lang.t("hud-offer-draw")))
                    .clicked()
                {
                    actions.game.write(GameCommand::OfferDraw);
                }
                if ui.button(lang.t("hud-new-game")).clicked() {
                    actions.game.write(GameCommand::NewGame);
                }
                if session.seats.is_two_players() && ui.button(lang.t("hud-flip")).clicked() {
                    board.view.turned = !board.view.turned;
                }
                if ui.button(lang.t("hud-menu")).clicked() {
                    actions.next.set(Screen::Title);
                }
            });
        }
        if game.is_over() && hidden.0 && ui.button(lang.t("over-title")).clicked() {
            hidden.0 = false;
        }
        // The chat below the buttons, so that the buttons stay in sight.
        if let Some(online) = online
            && let Some(phrase) = chat_panel(ui, lang, &mut actions.net, online, session)
        {
            actions.taps.note(ui, "phrase_good_game", &phrase);
        }
        // A move typed in notation, for whoever plays without a mouse.
        if session.can_touch() && board.view.settled(session) {
            typed_move(ui, lang, session, &mut actions.typed, &mut actions.game);
        }
        // Move list.
        ui.separator();
        ui.label(egui::RichText::new(lang.t("hud-moves")).strong());
        let moves = game.move_strings();
        let first_is_second = game.start().side_to_move() == Side::Second;
        let list = |ui: &mut egui::Ui| {
            let mut lines: Vec<String> = Vec::new();
            let mut iter = moves.iter().peekable();
            let mut n = 1;
            if first_is_second && let Some(m) = iter.next() {
                lines.push(format!("{n:>3}. …      {m}"));
                n += 1;
            }
            while let Some(a) = iter.next() {
                let b = iter.next().map(String::as_str).unwrap_or("");
                lines.push(format!("{n:>3}. {a:<10} {b}"));
                n += 1;
            }
            for l in lines {
                ui.label(egui::RichText::new(l).monospace());
            }
        };
        if low {
            list(ui);
        } else {
            egui::ScrollArea::vertical().stick_to_bottom(true).auto_shrink([false, false]).show(ui, list);
        }
    };
    // A low panel (a phone held sideways, the strip under the board in portrait) scrolls as a
    // whole, the chat and the move list in it; a tall one keeps the move list scrolling alone.
    let whole = move |ui: &mut egui::Ui| {
        if low {
            egui::ScrollArea::vertical().id_salt("hud-scroll").auto_shrink([false, false]).show(ui, panel);
        } else {
            panel(ui);
        }
    };
    if portrait {
        egui::Panel::bottom("hud").exact_size(portrait_height).show(&mut root, whole);
    } else {
        let width = (viewport.width() * 0.28).clamp(260.0, 380.0);
        egui::Panel::right("hud").exact_size(width).show(&mut root, whole);
    }
    let rest = root.available_rect_before_wrap();
    super::give_board(&mut board.area, &mut board.layout, crate::ui::logical_rect(ctx, rest));
    if shown.settings.coordinates {
        draw_coordinates(ctx, &board.layout);
    }
    if !game.is_over() && hidden.0 {
        hidden.0 = false;
    }
    Ok(())
}

/// A field for a move in the game's notation: Enter (or the button) plays it when it is legal
/// here, and says why not otherwise; the hint shows a legal move as the example.
fn typed_move(
    ui: &mut egui::Ui,
    lang: Lang,
    session: &Session,
    typed: &mut TypedMove,
    out: &mut MessageWriter<GameCommand>,
) {
    let game = &session.game;
    let example =
        game.legal_moves().first().and_then(|m| game.position().move_to_string(m)).unwrap_or_default();
    ui.label(lang.t("hud-type-move"));
    ui.horizontal(|ui| {
        let field = ui.add(
            egui::TextEdit::singleline(&mut typed.text)
                .id_salt("typed-move")
                .hint_text(example)
                .char_limit(40)
                .desired_width(120.0),
        );
        let entered = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        let filled = !typed.text.trim().is_empty();
        let pressed = ui.add_enabled(filled, egui::Button::new(lang.t("hud-type-move-play"))).clicked();
        if (entered || pressed) && filled {
            match game.position().parse_move(typed.text.trim()) {
                Ok(mv) => {
                    typed.text.clear();
                    typed.error = None;
                    out.write(GameCommand::Play(mv));
                }
                Err(e) => typed.error = Some(crate::i18n::problems::parse_error(lang, &e)),
            }
            field.request_focus();
        }
        if field.changed() && typed.error.is_some() {
            typed.error = None;
        }
    });
    if let Some(error) = &typed.error {
        ui.add(egui::Label::new(egui::RichText::new(error).color(ui.visuals().warn_fg_color)).wrap());
    }
}

/// The draw offer on the table: who offers it, with "accept" and "decline" for the person who
/// answers it here (the opponent online; the other player with two players on one device; the
/// computer answers its own), and the answer to the last one until the next move.
fn draw_offer(
    ui: &mut egui::Ui,
    lang: Lang,
    session: &Session,
    online: Option<&OnlineGame>,
    game: &mut MessageWriter<GameCommand>,
) {
    if session.game.is_over() {
        return;
    }
    let variant = session.game.variant();
    let gold = egui::Color32::from_rgb(240, 200, 110);
    if let Some(by) = session.draw.open {
        let answers_here = match online {
            Some(online) => online.local_side() == Some(!by),
            None => session.seats.player(!by) == Player::Human,
        };
        let mine = online.is_some_and(|o| o.local_side() == Some(by))
            || (online.is_none() && session.seats.human_side() == Some(by));
        if answers_here {
            ui.label(
                egui::RichText::new(
                    lang.fmt("draw-offered", [("side", side_name(lang, variant, by).into())]),
                )
                .color(gold),
            );
            ui.horizontal_wrapped(|ui| {
                if ui.button(lang.t("draw-accept")).clicked() {
                    game.write(GameCommand::AnswerDraw(true));
                }
                if ui.button(lang.t("draw-decline")).clicked() {
                    game.write(GameCommand::AnswerDraw(false));
                }
            });
        } else if mine {
            ui.label(egui::RichText::new(lang.t("draw-waiting")).color(gold));
        }
    } else if let Some(side) = session.draw.declined_by {
        ui.label(
            egui::RichText::new(lang.fmt("draw-declined", [("side", side_name(lang, variant, side).into())]))
                .color(gold),
        );
    }
}

/// How many spectators proposed each ghost move, and the frames a running clock needs.
pub(super) fn ghost_counts(mut contexts: EguiContexts, shown: GameShown, board: BoardOnScreen) -> Result {
    let Some(session) = shown.session.as_deref() else {
        return Ok(());
    };
    let online = shown.online();
    let ctx = contexts.ctx_mut()?;
    let (layout, view) = (&*board.layout, &*board.view);
    if !view.ghosts.is_empty() {
        let painter = ctx.layer_painter(egui::LayerId::new(egui::Order::Foreground, egui::Id::new("ghosts")));
        // The board is laid out in logical pixels, egui in points (they differ by the zoom).
        let z = ctx.zoom_factor();
        let font = egui::FontId::proportional((layout.cell * 0.3 / z).clamp(11.0 / z, 20.0));
        for (mv, n) in &view.ghosts {
            let p =
                crate::ui::to_points(ctx, layout.to_screen(mv.to()) + Vec2::new(0.32, -0.32) * layout.cell);
            painter.circle_filled(p, layout.cell * 0.17 / z, egui::Color32::from_rgb(40, 70, 120));
            painter.text(p, egui::Align2::CENTER_CENTER, n.to_string(), font.clone(), egui::Color32::WHITE);
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
                    egui::Color32::from_rgb(250, 200, 64),
                    egui::Stroke::new(2.0, egui::Color32::from_rgb(60, 35, 10)),
                );
                painter.text(
                    p,
                    egui::Align2::CENTER_CENTER,
                    n.to_string(),
                    font.clone(),
                    egui::Color32::from_rgb(40, 20, 5),
                );
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
            [("name", line.nickname.as_str().into()), ("message", said.as_str().into())],
        )
    } else {
        format!("{}: {said}", line.nickname)
    }
}

/// The game's chat (online): the lines heard, quick phrases and free text while the game goes
/// on (players talk to each other, spectators among themselves; the players read the
/// spectators' lines once it is over), and muting a speaker. Returns the "Good game" button,
/// when it shows.
fn chat_panel(
    ui: &mut egui::Ui,
    lang: Lang,
    net: &mut Net,
    online: &OnlineGame,
    session: &Session,
) -> Option<egui::Response> {
    let mut good_game = None;
    let game = online.id;
    let plays = online.local_side().is_some();
    let open = !session.game.is_over();
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
                ui.horizontal_wrapped(|ui| {
                    for phrase in QuickPhrase::ALL {
                        let button = ui.small_button(lang.text(phrase_key(phrase)));
                        if button.clicked() {
                            net.send(ClientMessage::Chat { game, text: ChatText::Phrase(phrase) });
                        }
                        if phrase == QuickPhrase::GoodGame {
                            good_game = Some(button);
                        }
                    }
                });
                let id = egui::Id::new(("chat-draft", game.0));
                let mut draft = ui.data_mut(|d| d.get_temp::<String>(id)).unwrap_or_default();
                ui.horizontal(|ui| {
                    let field = ui.add(
                        egui::TextEdit::singleline(&mut draft)
                            .char_limit(CHAT_MAX_CHARS)
                            .hint_text(lang.t("chat-hint"))
                            .desired_width(ui.available_width() - 70.0),
                    );
                    let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                    let send =
                        ui.add_enabled(!draft.trim().is_empty(), egui::Button::new(lang.t("chat-send")));
                    if (enter || send.clicked()) && !draft.trim().is_empty() {
                        match validate_chat(&draft) {
                            Ok(clean) => {
                                net.send(ClientMessage::Chat { game, text: ChatText::Free(clean) });
                                draft.clear();
                            }
                            Err(e) => {
                                let code = match e {
                                    ChatError::TooLong(_) => ErrorCode::ChatTooLong,
                                    _ => ErrorCode::ChatBadText,
                                };
                                net.notice = Some((code, e.to_string()));
                            }
                        }
                    }
                });
                ui.data_mut(|d| d.insert_temp(id, draft));
            }
            // Mute or unmute anyone who has spoken (never oneself).
            let mut speakers: Vec<(PlayerId, &str)> = Vec::new();
            for line in &online.chat {
                if Some(line.from) != net.player && !speakers.iter().any(|(p, _)| *p == line.from) {
                    speakers.push((line.from, &line.nickname));
                }
            }
            if open && !speakers.is_empty() {
                ui.horizontal_wrapped(|ui| {
                    ui.label(lang.t("chat-mute"));
                    for (player, nickname) in speakers {
                        let muted = online.muted.contains(&player);
                        if ui.add(egui::Button::selectable(muted, nickname)).clicked() {
                            net.send(ClientMessage::Mute { game, player, muted: !muted });
                        }
                    }
                });
            }
        },
    );
    good_game
}

/// The online part of the game screen's panel: players, clocks, connection, and for spectators
/// the proposals and the crowd's verdict.
fn online_panel(ui: &mut egui::Ui, lang: Lang, net: &Net, online: &OnlineGame, session: &Session, now: f64) {
    let variant = session.game.variant();
    let to_move = (!session.game.is_over()).then(|| session.game.side_to_move());
    let kind = if online.rated { lang.t("net-game-rated") } else { lang.t("net-game-casual") };
    let clock = online.clock.map_or_else(|| lang.t("net-no-clock").to_string(), |c| c.label());
    ui.label(egui::RichText::new(format!("{kind} · {clock}")).small());
    for side in [Side::First, Side::Second] {
        let info = &online.players[side.index()];
        ui.horizontal(|ui| {
            let (rect, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
            let dot =
                if info.connected { egui::Color32::from_rgb(110, 200, 110) } else { egui::Color32::GRAY };
            ui.painter().circle_filled(rect.center(), 5.0, dot);
            let rated = info.rating.map(|r| format!(" {}", rating_text(&r))).unwrap_or_default();
            let mut name = format!("{}{rated} ({})", info.nickname, side_name(lang, variant, side));
            if online.local_side() == Some(side) {
                name = lang.fmt("net-you", [("name", name.as_str().into())]);
            }
            let text = egui::RichText::new(name);
            ui.label(if to_move == Some(side) { text.strong() } else { text });
            if let Some(ms) = online.remaining_ms(side, now) {
                let t = egui::RichText::new(clock_text(ms)).monospace().size(18.0);
                let t = if ms < 20_000 { t.color(egui::Color32::from_rgb(230, 110, 100)) } else { t };
                ui.label(if to_move == Some(side) { t.strong() } else { t });
            }
        });
        if !info.connected
            && let Some(until) = online.hold_until[side.index()]
        {
            let left = ((until - now).max(0.0) * 1000.0) as u64;
            ui.label(
                egui::RichText::new(lang.fmt(
                    "net-opponent-away",
                    [("name", info.nickname.as_str().into()), ("time", clock_text(left).into())],
                ))
                .color(egui::Color32::from_rgb(230, 190, 90)),
            );
        }
    }
    ui.label(lang.fmt("net-spectators", [("count", online.spectators.into())]));
    if net.phase != LinkState::SignedIn {
        let (color, text) = link_text(lang, net);
        ui.label(egui::RichText::new(text).color(color));
    }
    if session.is_watching() {
        ui.separator();
        ui.label(egui::RichText::new(lang.t("net-watching")).strong());
        if !session.game.is_over() {
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
            ui.label(egui::RichText::new(text).color(egui::Color32::from_rgb(230, 200, 120)));
        }
    }
    if session.game.is_over()
        && let Some(archive) = &online.archive
        && let Some(changes) = &archive.ratings
    {
        // What the game did to both ratings.
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
    if session.game.is_over()
        && let Some(archive) = &online.archive
        && !archive.proposals.is_empty()
    {
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
