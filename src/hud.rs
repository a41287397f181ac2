//! The game screen's interface around the board: status, move list, captured pieces, buttons,
//! coordinates, and the game-over card. Also the egui set-up shared by every screen.

use crate::ai::Thinking;
use crate::board::{BoardArea, BoardLayout, BoardView};
use crate::i18n::{Lang, fill};
use crate::screens::{Screen, big_button, level_key, side_name, variant_key};
use crate::selection::Selected;
use crate::session::{GameCommand, Player, Session};
use crate::settings::Settings;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use ludus_rules::{AnyPosition, Outcome, Reason, Side, Variant};

/// A UI covering the whole window, on the background layer, for panels to be shown in.
pub fn root_ui(ctx: &egui::Context) -> egui::Ui {
    egui::Ui::new(
        ctx.clone(),
        "root".into(),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.viewport_rect()),
    )
}

/// Whether the game-over card is hidden to look at the final board.
#[derive(Resource, Default)]
pub struct OverCardHidden(pub bool);

fn setup_egui(mut contexts: EguiContexts, mut done: Local<bool>) -> Result {
    if *done {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut fonts = egui::FontDefinitions::default();
    // DejaVu Sans covers Vietnamese and the chess symbols of the diagrams.
    fonts.font_data.insert(
        "dejavu".to_owned(),
        std::sync::Arc::new(egui::FontData::from_static(include_bytes!("../assets/fonts/DejaVuSans.ttf"))),
    );
    for family in [egui::FontFamily::Proportional, egui::FontFamily::Monospace] {
        fonts.families.entry(family).or_default().insert(0, "dejavu".to_owned());
    }
    ctx.set_fonts(fonts);
    ctx.global_style_mut(|style| {
        style.spacing.interact_size.y = 44.0;
        style.spacing.button_padding = egui::vec2(12.0, 8.0);
        style.spacing.item_spacing = egui::vec2(8.0, 8.0);
        for (text_style, size) in [
            (egui::TextStyle::Body, 17.0),
            (egui::TextStyle::Button, 17.0),
            (egui::TextStyle::Heading, 22.0),
            (egui::TextStyle::Small, 13.0),
            (egui::TextStyle::Monospace, 15.0),
        ] {
            if let Some(f) = style.text_styles.get_mut(&text_style) {
                f.size = size;
            }
        }
    });
    *done = true;
    Ok(())
}

/// The reason an outcome happened, in words.
pub fn reason_text(
    lang: Lang,
    variant: Variant,
    outcome: &Outcome,
    last_mover: Option<Side>,
) -> &'static str {
    let latrunculi = variant.is_latrunculi();
    match outcome.reason {
        Reason::KingImmobilised if last_mover.is_some() && outcome.winner != last_mover => {
            lang.t("reason.KingImmobilised.self")
        }
        Reason::KingImmobilised => lang.t("reason.KingImmobilised"),
        Reason::OnlyKingLeft => lang.t("reason.OnlyKingLeft"),
        Reason::NoPieces => lang.t("reason.NoPieces"),
        Reason::NoLegalMove => lang.t("reason.NoLegalMove"),
        Reason::Repetition if latrunculi => lang.t("reason.Repetition.latrunculi"),
        Reason::Repetition => lang.t("reason.Repetition"),
        Reason::NoCaptureLimit if latrunculi => lang.t("reason.NoCaptureLimit.latrunculi"),
        Reason::NoCaptureLimit => lang.t("reason.NoCaptureLimit"),
        Reason::Resignation => lang.t("reason.Resignation"),
        Reason::Timeout => lang.t("reason.Timeout"),
        Reason::Abandoned => lang.t("reason.Abandoned"),
    }
}

/// The winner line: "Red wins" or "Draw".
pub fn result_text(lang: Lang, variant: Variant, outcome: &Outcome) -> String {
    match outcome.winner {
        Some(side) => fill(lang.t("over.wins"), &[side_name(lang, variant, side)]),
        None => lang.t("over.draw").to_string(),
    }
}

/// Whose turn and why, for the status line.
pub fn status_text(lang: Lang, session: &Session, thinking: bool, selected: &Selected) -> Vec<String> {
    let game = &session.game;
    let variant = game.variant();
    let mut lines = Vec::new();
    if let Some(outcome) = game.outcome() {
        let mover = game.moves().last().map(|_| !game.side_to_move());
        lines.push(result_text(lang, variant, &outcome));
        lines.push(reason_text(lang, variant, &outcome, mover).to_string());
        return lines;
    }
    let side = game.side_to_move();
    let name = side_name(lang, variant, side);
    let pos = game.position();
    let must_capture = matches!(pos, AnyPosition::Alquerque(_))
        && game.legal_moves().first().is_some_and(|m| m.is_capture());
    if thinking {
        lines.push(lang.t("status.thinking").to_string());
    } else if must_capture {
        lines.push(fill(lang.t("status.must_capture"), &[name]));
    } else if session.seats.human_side() == Some(side) {
        lines.push(fill(lang.t("status.your_move"), &[name]));
    } else {
        lines.push(fill(lang.t("status.to_move"), &[name]));
    }
    if selected.0.as_ref().is_some_and(|s| !s.partial.is_empty()) {
        lines.push(lang.t("status.chain").to_string());
    }
    if let AnyPosition::Latrunculi(p) = pos {
        for s in [side, !side] {
            if p.king_liberties(s) == 1 {
                lines.push(fill(lang.t("status.king_danger"), &[side_name(lang, variant, s)]));
            }
        }
    }
    let (limit, clock) = match pos {
        AnyPosition::Latrunculi(_) => (ludus_rules::latrunculi::NO_CAPTURE_LIMIT, pos.clock()),
        AnyPosition::Alquerque(_) => (ludus_rules::alquerque::NO_CAPTURE_LIMIT, pos.clock()),
    };
    if clock * 5 >= limit * 3 {
        lines.push(fill(lang.t("status.clock"), &[&clock.to_string(), &limit.to_string()]));
    }
    if game.repetitions() >= 2 {
        lines.push(lang.t("status.repetition").to_string());
    }
    lines
}

fn side_swatch(ui: &mut egui::Ui, variant: Variant, side: Side) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(18.0, 18.0), egui::Sense::hover());
    let colors = crate::theme::Colors::of(crate::settings::Theme::Wood);
    let [rim, body, _] = colors.piece(!variant.is_latrunculi(), side, false).map(|c| {
        let c = c.to_srgba();
        egui::Color32::from_rgb((c.red * 255.0) as u8, (c.green * 255.0) as u8, (c.blue * 255.0) as u8)
    });
    ui.painter().circle_filled(rect.center(), 9.0, rim);
    ui.painter().circle_filled(rect.center(), 7.5, body);
}

fn game_screen(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    session: Option<Res<Session>>,
    thinking: Res<Thinking>,
    selected: Res<Selected>,
    layout: Res<BoardLayout>,
    mut view: ResMut<BoardView>,
    mut area: ResMut<BoardArea>,
    mut hidden: ResMut<OverCardHidden>,
    mut commands: MessageWriter<GameCommand>,
    mut hint: MessageWriter<crate::ai::HintRequest>,
    mut next: ResMut<NextState<Screen>>,
    online: Option<Res<crate::online::OnlineGame>>,
    mut net: ResMut<crate::online::Net>,
    time: Res<Time<Real>>,
    mut cmds: Commands,
) -> Result {
    let Some(session) = session else {
        return Ok(());
    };
    let online = online.filter(|_| session.seats.is_online());
    let now = time.elapsed_secs_f64();
    let ctx = contexts.ctx_mut()?;
    let lang = settings.lang;
    let game = &session.game;
    let variant = game.variant();
    let viewport = ctx.viewport_rect();
    let portrait = viewport.width() < viewport.height() * 0.95;
    let mut root = root_ui(ctx);
    let thinking_now = thinking.active;
    let panel = |ui: &mut egui::Ui| {
        // Status.
        ui.horizontal(|ui| {
            side_swatch(ui, variant, game.side_to_move());
            ui.heading(lang.t(variant_key(variant)));
        });
        for (i, line) in status_text(lang, &session, thinking_now, &selected).iter().enumerate() {
            let text = egui::RichText::new(line);
            ui.label(if i == 0 { text.size(20.0).strong() } else { text });
        }
        if let Some(online) = &online {
            crate::online::game_panel(ui, lang, &net, online, &session, now);
        }
        if let Some(level) = session.seats.players.iter().find_map(|p| match p {
            Player::Computer(l) => Some(*l),
            Player::Human | Player::Remote => None,
        }) {
            ui.label(fill(lang.t("hud.level"), &[lang.t(level_key(level))]));
        }
        // Captured pieces.
        let start = game.start();
        let now = game.position();
        let count =
            |pos: &AnyPosition, side: Side| pos.pieces().iter().filter(|(_, p)| p.side == side).count();
        ui.horizontal(|ui| {
            ui.label(lang.t("hud.captured"));
            for side in [Side::First, Side::Second] {
                side_swatch(ui, variant, side);
                ui.label(format!("×{}", count(&start, side).saturating_sub(count(&now, side))));
            }
        });
        // Buttons.
        let human_turn_or_over = session.human_to_move() || game.is_over() || session.seats.is_two_players();
        if let Some(online) = &online {
            ui.horizontal_wrapped(|ui| {
                let playing = online.local_side().is_some() && !game.is_over();
                // Resigning online cannot be taken back: a second tap within 4 s confirms.
                let id = egui::Id::new("online-resign-confirm");
                let t = ui.ctx().input(|i| i.time);
                let armed = ui.ctx().data(|d| d.get_temp::<f64>(id)).is_some_and(|until| t < until);
                let label = if armed { lang.t("net.resign_confirm") } else { lang.t("hud.resign") };
                if playing && ui.button(label).clicked() {
                    if armed {
                        ui.ctx().data_mut(|d| d.remove::<f64>(id));
                        commands.write(GameCommand::Resign);
                    } else {
                        ui.ctx().data_mut(|d| d.insert_temp(id, t + 4.0));
                        ui.ctx().request_repaint_after(std::time::Duration::from_secs_f64(4.1));
                    }
                }
                if session.spectating && ui.button(lang.t("hud.flip")).clicked() {
                    view.turned = !view.turned;
                }
                if ui.button(lang.t("net.lobby")).clicked() {
                    if playing {
                        // The seat stays: the lobby offers the way back to the game.
                        next.set(Screen::Online);
                    } else {
                        crate::online::leave_game(&mut cmds, &mut net, &mut next);
                    }
                }
            });
        } else {
            ui.horizontal_wrapped(|ui| {
                if ui.add_enabled(game.ply() > 0, egui::Button::new(lang.t("hud.undo"))).clicked() {
                    commands.write(GameCommand::Undo);
                }
                if ui.add_enabled(!session.redo.is_empty(), egui::Button::new(lang.t("hud.redo"))).clicked() {
                    commands.write(GameCommand::Redo);
                }
                if ui
                    .add_enabled(
                        session.human_to_move() && !thinking_now,
                        egui::Button::new(lang.t("hud.hint")),
                    )
                    .clicked()
                {
                    hint.write(crate::ai::HintRequest);
                }
                if ui
                    .add_enabled(
                        !game.is_over() && human_turn_or_over,
                        egui::Button::new(lang.t("hud.resign")),
                    )
                    .clicked()
                {
                    commands.write(GameCommand::Resign);
                }
                if ui.button(lang.t("hud.new_game")).clicked() {
                    commands.write(GameCommand::NewGame);
                }
                if session.seats.is_two_players() && ui.button(lang.t("hud.flip")).clicked() {
                    view.turned = !view.turned;
                }
                if ui.button(lang.t("hud.menu")).clicked() {
                    next.set(Screen::Title);
                }
            });
        }
        if game.is_over() && hidden.0 && ui.button(lang.t("over.title")).clicked() {
            hidden.0 = false;
        }
        // Move list.
        ui.separator();
        ui.label(egui::RichText::new(lang.t("hud.moves")).strong());
        let moves = game.move_strings();
        let first_is_second = game.start().side_to_move() == Side::Second;
        egui::ScrollArea::vertical().stick_to_bottom(true).auto_shrink([false, false]).show(ui, |ui| {
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
        });
    };
    if portrait {
        let height = (viewport.height() * 0.36).clamp(220.0, 420.0);
        egui::Panel::bottom("hud").exact_size(height).show(&mut root, panel);
    } else {
        let width = (viewport.width() * 0.28).clamp(260.0, 380.0);
        egui::Panel::right("hud").exact_size(width).show(&mut root, panel);
    }
    let rest = root.available_rect_before_wrap();
    let new_area = Rect::new(rest.min.x, rest.min.y, rest.max.x, rest.max.y);
    if area.0 != new_area {
        area.0 = new_area;
    }
    // Coordinates around the board.
    if settings.coordinates {
        draw_coordinates(ctx, &layout);
    }
    // How many spectators proposed each ghost move.
    if !view.ghosts.is_empty() {
        let painter = ctx.layer_painter(egui::LayerId::new(egui::Order::Foreground, egui::Id::new("ghosts")));
        let font = egui::FontId::proportional((layout.cell * 0.3).clamp(11.0, 20.0));
        for (mv, n) in &view.ghosts {
            let p = layout.to_screen(mv.to()) + Vec2::new(0.32, -0.32) * layout.cell;
            painter.circle_filled(
                egui::pos2(p.x, p.y),
                layout.cell * 0.17,
                egui::Color32::from_rgb(40, 70, 120),
            );
            painter.text(
                egui::pos2(p.x, p.y),
                egui::Align2::CENTER_CENTER,
                n.to_string(),
                font.clone(),
                egui::Color32::WHITE,
            );
        }
        if online.is_some() {
            ctx.request_repaint_after(std::time::Duration::from_millis(250));
        }
    }
    if online.as_ref().is_some_and(|o| o.clocks.is_some()) && !game.is_over() {
        // The running clock ticks.
        ctx.request_repaint_after(std::time::Duration::from_millis(200));
    }
    // The game-over card.
    if let Some(outcome) = game.outcome()
        && !hidden.0
        && view.settled(&session)
    {
        let mover = game.moves().last().map(|_| !game.side_to_move());
        egui::Window::new(lang.t("over.title"))
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
            .show(ctx, |ui| {
                ui.vertical_centered(|ui| {
                    ui.label(egui::RichText::new(result_text(lang, variant, &outcome)).size(30.0).strong());
                    ui.label(egui::RichText::new(reason_text(lang, variant, &outcome, mover)).size(18.0));
                    ui.add_space(10.0);
                    if let Some(online) = &online {
                        if online.rematch_offered && !online.rematch_sent {
                            ui.label(lang.t("net.rematch_offered"));
                        }
                        if online.rematch_sent {
                            ui.label(lang.t("net.rematch_sent"));
                        }
                        let can = online.local_side().is_some() && !online.rematch_sent;
                        if can && big_button(ui, lang.t("over.rematch"), 260.0).clicked() {
                            commands.write(GameCommand::NewGame);
                        }
                    } else if big_button(ui, lang.t("over.rematch"), 260.0).clicked() {
                        commands.write(GameCommand::NewGame);
                    }
                    if big_button(ui, lang.t("over.analyse"), 260.0).clicked() {
                        crate::analysis::open(
                            &mut cmds,
                            &mut next,
                            game.clone(),
                            session.seats,
                            Screen::Playing,
                            Some((*session).clone()),
                        );
                    }
                    if big_button(ui, lang.t("over.view"), 260.0).clicked() {
                        hidden.0 = true;
                    }
                    if online.is_some() {
                        if big_button(ui, lang.t("over.back_lobby"), 260.0).clicked() {
                            crate::online::leave_game(&mut cmds, &mut net, &mut next);
                        }
                    } else if big_button(ui, lang.t("over.back"), 260.0).clicked() {
                        next.set(Screen::Title);
                    }
                });
            });
    }
    if !game.is_over() && hidden.0 {
        hidden.0 = false;
    }
    Ok(())
}

/// The files' letters and the ranks' numbers around the board.
pub fn draw_coordinates(ctx: &egui::Context, layout: &BoardLayout) {
    let painter = ctx.layer_painter(egui::LayerId::new(egui::Order::Background, egui::Id::new("coords")));
    let color = egui::Color32::from_gray(200);
    let font = egui::FontId::proportional((layout.cell * 0.28).clamp(10.0, 18.0));
    let offset = if layout.points { 0.72 } else { 0.62 };
    for f in 0..layout.width {
        let sq =
            ludus_rules::Square::new(f, if layout.flipped { layout.height - 1 } else { 0 }, layout.width);
        let p = layout.to_screen(sq) + Vec2::new(0.0, offset * layout.cell);
        painter.text(
            egui::pos2(p.x, p.y),
            egui::Align2::CENTER_CENTER,
            ((b'a' + f) as char).to_string(),
            font.clone(),
            color,
        );
    }
    for r in 0..layout.height {
        let sq = ludus_rules::Square::new(if layout.flipped { layout.width - 1 } else { 0 }, r, layout.width);
        let p = layout.to_screen(sq) - Vec2::new(offset * layout.cell, 0.0);
        painter.text(
            egui::pos2(p.x, p.y),
            egui::Align2::CENTER_CENTER,
            (r + 1).to_string(),
            font.clone(),
            color,
        );
    }
}

/// bevy_egui 0.42 writes a `ModifiersChanged` event every frame, even when nothing changed;
/// egui then asks for another frame at once, and the game never rests (one core busy on an
/// idle title screen). Keep the event only when the modifiers really change.
fn drop_unchanged_modifiers(
    mut inputs: Query<&mut bevy_egui::EguiInput>,
    mut last: Local<Option<egui::Modifiers>>,
) {
    for mut input in &mut inputs {
        input.0.events.retain(|e| match e {
            egui::Event::ModifiersChanged(m) => {
                let changed = *last != Some(*m);
                *last = Some(*m);
                changed
            }
            _ => true,
        });
    }
}

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        PreUpdate,
        drop_unchanged_modifiers
            .after(bevy_egui::EguiInputSet::WriteEguiEvents)
            .before(bevy_egui::EguiPreUpdateSet::BeginPass),
    );
    app.init_resource::<OverCardHidden>().add_systems(
        EguiPrimaryContextPass,
        (setup_egui, game_screen.run_if(in_state(Screen::Playing))).chain(),
    );
}
