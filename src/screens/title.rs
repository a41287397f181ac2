//! The title screen: the main menu, the game, the opponent, resuming the unfinished game.

use crate::app::Screen;
use crate::app::navigation::NavIntent;
use crate::board::palette::Colors;
use crate::game::Notices;
use crate::game::intent::{Confirm, Confirming, GameIntent};
use crate::game::lessons::LessonProgress;
use crate::game::save::Resumable;
use crate::game::session::{LEVELS, Level, Seats, Session};
use crate::game::settings::Settings;
use crate::i18n::{Id, Lang, id};
use crate::ui::root_ui;
use crate::ui::theme::egui_color;
use crate::ui::widgets::{level_key, side_name, variant_key};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use ludus_rules::{AnyGame, AnyPosition, Side, Variant};

/// What the title screen shows besides the settings it edits.
pub struct TitleView<'a> {
    /// The language of the texts.
    pub lang: Lang,
    /// The first message waiting to be read, if any.
    pub notice: Option<&'a str>,
    /// The label of the "resume" button, when there is an unfinished game.
    pub resume: Option<String>,
    /// "Play" waits for a second tap (it would end the unfinished game).
    pub confirm_play: bool,
    /// No lesson is done yet: the lessons are offered first.
    pub new_player: bool,
    /// Whether there is a "Quit" button (not in the browser).
    pub can_quit: bool,
    /// The live board behind the menu: a game the computer plays with itself, slowly.
    pub live: Option<&'a AnyPosition>,
    /// Turn-based games online waiting for the player's move.
    pub your_turn: u32,
}

/// Seconds between two moves of the live board behind the menu.
const LIVE_MOVE_S: f64 = 1.6;

/// Plies after which the live board starts a new game.
const LIVE_MAX_PLIES: usize = 120;

/// The game played behind the title screen's menu, in the chosen game: captures first (as a
/// beginner plays), else any move, one every [`LIVE_MOVE_S`] seconds (the title screen draws a
/// frame a second anyway, so it costs no frame of its own). Still when animations are off.
#[derive(Default)]
pub struct LiveBoard {
    game: Option<AnyGame>,
    next_at: f64,
    seed: u64,
}

impl LiveBoard {
    /// The position to show for `variant` at `now` (real seconds), after any move that is due.
    pub fn advance(&mut self, variant: Variant, now: f64, moving: bool) -> AnyPosition {
        // A finished game stays on the board for one move's time, then a new one starts; another
        // game chosen starts at once.
        let mut game = match self.game.take() {
            Some(game) if game.variant() == variant => {
                let finished = game.is_over() || game.ply() >= LIVE_MAX_PLIES;
                if finished && now >= self.next_at {
                    self.next_at = now + LIVE_MOVE_S;
                    AnyGame::new(variant)
                } else {
                    game
                }
            }
            _ => {
                self.next_at = now + LIVE_MOVE_S;
                AnyGame::new(variant)
            }
        };
        if moving && now >= self.next_at && !game.is_over() {
            self.next_at = now + LIVE_MOVE_S;
            let moves = game.legal_moves();
            let captures: Vec<_> = moves.iter().filter(|m| m.is_capture()).collect();
            let pool: Vec<_> = if captures.is_empty() { moves.iter().collect() } else { captures };
            // A small linear congruential generator: the live board needs no better chance.
            self.seed =
                self.seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            if let Some(&&mv) = pool.get((self.seed >> 33) as usize % pool.len().max(1))
                && game.play(&mv).is_err()
            {
                // Not a legal move after all: start again rather than show a wrong board.
                game = AnyGame::new(variant);
            }
        }
        let position = game.position();
        self.game = Some(game);
        position
    }
}

/// What the player chose on the title screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TitleAction {
    CloseNotice,
    Resume,
    Play,
    Lessons,
    Puzzles,
    Rules,
    Settings,
    Online,
    Analyse,
    Quit,
}

/// Whether the title screen's last frame showed everything without scrolling (`None` before
/// it was drawn); the browser's page state reports it.
#[derive(Resource, Default, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TitleFits(pub Option<bool>);

/// The label of "resume": the word, and under it the unfinished game's name and the number of
/// its move, as the move list numbers it.
pub fn resume_label(lang: Lang, session: &Session) -> String {
    let game = &session.game;
    let offset = usize::from(game.start().side_to_move() == Side::Second);
    let number = (game.ply() + offset).div_ceil(2).max(1);
    let at = lang
        .fmt("menu-resume-at", [("game", short_name(lang, game.variant()).into()), ("move", number.into())]);
    format!("{}\n{at}", lang.t("menu-resume"))
}

/// What the title screen reads besides the settings it edits.
#[derive(bevy::ecs::system::SystemParam)]
pub(super) struct TitleShown<'w> {
    time: Res<'w, Time<Real>>,
    resumable: Res<'w, Resumable>,
    notices: Res<'w, Notices>,
    progress: Res<'w, LessonProgress>,
    confirming: Res<'w, Confirming>,
    turns: Option<Res<'w, crate::net::views::TurnGames>>,
}

pub(super) fn title_screen(
    mut contexts: EguiContexts,
    mut fits: ResMut<TitleFits>,
    shown: TitleShown,
    mut live: Local<LiveBoard>,
    mut settings: ResMut<Settings>,
    mut game: MessageWriter<GameIntent>,
    mut nav: MessageWriter<NavIntent>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let lang = settings.lang;
    let now = shown.time.elapsed_secs_f64();
    let resume = match &*shown.resumable {
        Resumable::Game(saved) => Some(resume_label(lang, saved)),
        Resumable::None => None,
    };
    let moving = settings.anim != crate::game::settings::AnimSpeed::Off;
    let position = live.advance(settings.variant, now, moving);
    let confirm_play = shown.confirming.armed(Confirm::Replace, now);
    if confirm_play {
        ctx.request_repaint_after(std::time::Duration::from_secs_f64(
            crate::game::intent::CONFIRM_WINDOW_S + 0.1,
        ));
    }
    let view = TitleView {
        lang,
        notice: shown.notices.0.first().map(String::as_str),
        resume,
        confirm_play,
        new_player: shown.progress.done.is_empty(),
        can_quit: !cfg!(target_arch = "wasm32"),
        live: Some(&position),
        your_turn: shown.turns.as_ref().map_or(0, |t| t.your_turn()),
    };
    let panel = title_panel(&mut root_ui(ctx), &mut settings, &view);
    fits.set_if_neq(TitleFits(Some(panel.fits())));
    let Some(action) = panel.action else { return Ok(()) };
    let go = |screen| Some(NavIntent::Go(screen));
    let to = match action {
        TitleAction::CloseNotice => {
            game.write(GameIntent::DismissNotice);
            None
        }
        TitleAction::Resume => {
            game.write(GameIntent::Resume);
            None
        }
        TitleAction::Play => {
            let seats = if settings.vs_computer {
                Seats::versus_computer(settings.human_side, settings.level)
            } else {
                Seats::two_players()
            };
            game.write(GameIntent::Start { variant: settings.variant, seats });
            None
        }
        TitleAction::Lessons => go(Screen::Lessons),
        TitleAction::Puzzles => go(Screen::Puzzles),
        TitleAction::Rules => go(Screen::Rules),
        TitleAction::Settings => go(Screen::Settings),
        TitleAction::Online => go(Screen::Online),
        TitleAction::Analyse => go(Screen::Records),
        TitleAction::Quit => Some(NavIntent::Quit),
    };
    if let Some(to) = to {
        nav.write(to);
    }
    Ok(())
}

/// One frame of the title screen in a window's root `ui`.
pub struct TitlePanel {
    /// What the player chose.
    pub action: Option<TitleAction>,
    /// The size of everything on the screen, in points.
    pub content: egui::Vec2,
    /// The size of the window's area for it, in points: the screen scrolls when `content` is
    /// larger (only at the larger text sizes).
    pub viewport: egui::Vec2,
}

impl TitlePanel {
    /// Whether everything is shown without scrolling.
    pub fn fits(&self) -> bool {
        self.content.x <= self.viewport.x + 0.5 && self.content.y <= self.viewport.y + 0.5
    }
}

/// The title screen in the window's root `ui`: a panel that scrolls when its content does not fit
/// (it fits at 100 % text size down to a phone's 390x844, tests/client/title.rs).
pub fn title_panel(root: &mut egui::Ui, settings: &mut Settings, view: &TitleView) -> TitlePanel {
    egui::CentralPanel::default()
        .show(root, |ui| {
            if let Some(position) = view.live {
                live_board(
                    ui,
                    position,
                    &Colors::of(settings.theme),
                    crate::ui::theme::palette(settings.theme).shadow,
                );
            }
            let out = egui::ScrollArea::both().show(ui, |ui| title_ui(ui, settings, view));
            TitlePanel { action: out.inner, content: out.content_size, viewport: out.inner_rect.size() }
        })
        .inner
}

/// The live board, large and faint behind the menu: a texture for the background, never a
/// rival to the text. In a wide window the menu stands on opaque cards over it; in a narrow one
/// it is washed almost into the panel.
fn live_board(ui: &egui::Ui, position: &AnyPosition, colors: &Colors, shadow: egui::Color32) {
    let window = ui.max_rect();
    let side = window.width().min(window.height()) * 0.92;
    let area = egui::Rect::from_center_size(window.center(), egui::vec2(side, side));
    board_picture(ui.painter(), area, position, colors, shadow);
    let wash = if wide_layout(window.size()) { 0.88 } else { 0.95 };
    ui.painter().rect_filled(window, 0.0, ui.visuals().panel_fill.gamma_multiply(wash));
}

/// Whether the title screen lays its menu out in two columns (on cards) in a window this size.
fn wide_layout(window: egui::Vec2) -> bool {
    window.x >= 760.0 && window.x > window.y
}

/// The inner margin of the title screen's cards.
const CARD_MARGIN: f32 = 14.0;

/// Lays the title screen out in `ui` (the whole window): the name, the game as pictures, the
/// opponent, "Play" and the menu. Side by side in a wide window, one column in a tall one.
/// Returns what the player chose this frame.
pub fn title_ui(ui: &mut egui::Ui, settings: &mut Settings, view: &TitleView) -> Option<TitleAction> {
    let mut action = None;
    // The window's height, not the scroll area's (which has none).
    let avail = egui::vec2(ui.available_width(), ui.ctx().content_rect().height());
    let wide = wide_layout(avail);
    let gap = 32.0;
    // In a wide window each column is a card: its content is narrower by the card's margins.
    let width =
        if wide { ((avail.x - gap) / 2.0).min(460.0) - 2.0 * CARD_MARGIN - 2.0 } else { avail.x.min(460.0) };
    ui.spacing_mut().item_spacing.y = if avail.x < 500.0 { 5.0 } else { 6.0 };
    ui.vertical_centered(|ui| {
        if avail.x < 500.0 {
            // On a phone, the name and the subtitle share a line.
            let color = ui.visuals().strong_text_color();
            let weak = ui.visuals().text_color();
            let mut job = egui::text::LayoutJob::default();
            let format = |font_id: egui::FontId, color: egui::Color32, italics: bool| egui::TextFormat {
                font_id,
                color,
                italics,
                valign: egui::Align::Center,
                ..Default::default()
            };
            job.append("LUDUS", 0.0, format(crate::ui::display(38.0), color, false));
            job.append(
                view.lang.t("app-subtitle"),
                12.0,
                format(egui::FontId::proportional(15.0), weak, true),
            );
            ui.label(job);
        } else {
            ui.label(egui::RichText::new("LUDUS").font(crate::ui::display(60.0)).strong());
            ui.label(egui::RichText::new(view.lang.t("app-subtitle")).size(17.0).italics());
        }
    });
    ui.add_space(6.0);
    let game_column = |ui: &mut egui::Ui, settings: &mut Settings, action: &mut Option<TitleAction>| {
        ui.set_width(width);
        if !wide {
            first_things(ui, &crate::ui::theme::palette(settings.theme), view, width, true, action);
        }
        game_choice(ui, settings, view.lang, width);
        opponent(ui, settings, view.lang, width);
        ui.add_space(4.0);
        let play = if view.confirm_play {
            egui::RichText::new(view.lang.t("menu-play-confirm")).size(18.0).strong()
        } else {
            egui::RichText::new(view.lang.t("menu-play")).font(crate::ui::display(30.0))
        };
        if sized(ui, egui::Button::new(play).selected(true), width, 56.0).clicked() {
            *action = Some(TitleAction::Play);
        }
    };
    if wide {
        let outer = width + 2.0 * CARD_MARGIN + 2.0;
        let left = ((avail.x - 2.0 * outer - gap) / 2.0).max(0.0);
        let card =
            |ui: &egui::Ui| crate::ui::theme::card(ui).inner_margin(egui::Margin::same(CARD_MARGIN as i8));
        ui.horizontal_top(|ui| {
            ui.add_space(left);
            card(ui).show(ui, |ui| ui.vertical(|ui| game_column(ui, settings, &mut action)));
            ui.add_space(gap);
            card(ui).show(ui, |ui| {
                ui.vertical(|ui| {
                    ui.set_width(width);
                    first_things(
                        ui,
                        &crate::ui::theme::palette(settings.theme),
                        view,
                        width,
                        false,
                        &mut action,
                    );
                    menu(ui, view, width, 1, &mut action);
                })
            });
        });
    } else {
        let left = ((avail.x - width) / 2.0).max(0.0);
        ui.horizontal_top(|ui| {
            ui.add_space(left);
            ui.vertical(|ui| {
                game_column(ui, settings, &mut action);
                ui.add_space(4.0);
                menu(ui, view, width, 2, &mut action);
            });
        });
    }
    ui.add_space(6.0);
    ui.vertical_centered(|ui| {
        ui.label(egui::RichText::new(crate::app::version::version_line()).small().weak())
    });
    action
}

/// The notice, "resume" and, for a new player, the lessons (side by side in one `column`, one
/// above the other beside the game's column).
fn first_things(
    ui: &mut egui::Ui,
    colors: &crate::ui::theme::Palette,
    view: &TitleView,
    width: f32,
    column: bool,
    action: &mut Option<TitleAction>,
) {
    let lang = view.lang;
    if let Some(text) = view.notice {
        egui::Frame::group(ui.style()).fill(colors.notice).show(ui, |ui| {
            ui.set_max_width(width - 16.0);
            ui.label(egui::RichText::new(text).color(colors.on_notice));
            if ui.button(lang.t("ui-ok")).clicked() {
                *action = Some(TitleAction::CloseNotice);
            }
        });
    }
    if view.new_player {
        ui.label(egui::RichText::new(lang.t("menu-new-player")).size(15.0));
    }
    // On a phone, "resume" and the lessons share a row.
    let both = view.resume.is_some() && view.new_player && column;
    let w = if both { (width - ui.spacing().item_spacing.x) / 2.0 } else { width };
    // Turn-based games online that wait for this player: the way to them first.
    if view.your_turn > 0 {
        let text = lang.fmt("title-your-turn", [("count", view.your_turn.into())]);
        if menu_button(ui, &text, width, true).clicked() {
            *action = Some(TitleAction::Online);
        }
    }
    let mut buttons = |ui: &mut egui::Ui| {
        if let Some(label) = &view.resume
            && menu_button(ui, label, w, true).clicked()
        {
            *action = Some(TitleAction::Resume);
        }
        if view.new_player && menu_button(ui, lang.t("menu-lessons"), w, true).clicked() {
            *action = Some(TitleAction::Lessons);
        }
    };
    if both {
        ui.horizontal_top(buttons);
    } else {
        buttons(ui);
    }
}

/// A menu button `width` wide and at least 48 high, its text wrapped when long.
fn menu_button(ui: &mut egui::Ui, text: &str, width: f32, selected: bool) -> egui::Response {
    let button = egui::Button::new(egui::RichText::new(text).size(18.0)).selected(selected);
    sized(ui, button, width, 48.0)
}

/// `button` exactly `width` wide and at least `height` high, its text wrapped to that width.
fn sized(ui: &mut egui::Ui, button: egui::Button, width: f32, height: f32) -> egui::Response {
    ui.allocate_ui_with_layout(
        egui::vec2(width, height),
        egui::Layout::top_down_justified(egui::Align::Center),
        |ui| {
            ui.set_width(width);
            ui.add(button.wrap().min_size(egui::vec2(width, height)))
        },
    )
    .inner
    .on_hover_cursor(egui::CursorIcon::PointingHand)
}

/// The other screens: one column, or a grid of `columns`.
fn menu(ui: &mut egui::Ui, view: &TitleView, width: f32, columns: usize, action: &mut Option<TitleAction>) {
    let lang = view.lang;
    let mut items = Vec::new();
    if !view.new_player {
        items.push((lang.t("menu-lessons"), TitleAction::Lessons));
    }
    items.push((lang.t("menu-puzzles"), TitleAction::Puzzles));
    items.push((lang.t("menu-rules"), TitleAction::Rules));
    items.push((lang.t("menu-settings"), TitleAction::Settings));
    items.push((lang.t("title-online"), TitleAction::Online));
    items.push((lang.t("menu-analyse"), TitleAction::Analyse));
    if view.can_quit {
        items.push((lang.t("menu-quit"), TitleAction::Quit));
    }
    let spacing = ui.spacing().item_spacing.x;
    let w = (width - spacing * (columns as f32 - 1.0)) / columns as f32;
    for row in items.chunks(columns) {
        ui.horizontal_top(|ui| {
            for (text, a) in row {
                if menu_button(ui, text, w, false).clicked() {
                    *action = Some(*a);
                }
            }
        });
    }
}

/// The three games as pictures of their boards, and what the chosen one is.
fn game_choice(ui: &mut egui::Ui, settings: &mut Settings, lang: Lang, width: f32) {
    let colors = Colors::of(settings.theme);
    let shadow = crate::ui::theme::palette(settings.theme).shadow;
    let spacing = ui.spacing().item_spacing.x;
    let card_w = (width - 2.0 * spacing) / 3.0;
    let narrow = width < 420.0;
    let picture_h = (card_w * 0.62).min(110.0);
    let font = egui::FontId::proportional(if narrow { 14.0 } else { 15.0 });
    let names: Vec<_> = Variant::ALL
        .iter()
        .map(|&v| {
            ui.painter().layout(
                short_name(lang, v).to_owned(),
                font.clone(),
                // Painted in the card's state's colour below.
                egui::Color32::PLACEHOLDER,
                card_w - 8.0,
            )
        })
        .collect();
    let text_h = names.iter().map(|g| g.size().y).fold(0.0, f32::max);
    let card_h = picture_h + text_h + 14.0;
    ui.horizontal_top(|ui| {
        for (v, name) in Variant::ALL.into_iter().zip(names) {
            let (rect, response) = ui.allocate_exact_size(egui::vec2(card_w, card_h), egui::Sense::click());
            let response = response.on_hover_cursor(egui::CursorIcon::PointingHand);
            if response.clicked() {
                settings.variant = v;
            }
            let selected = settings.variant == v;
            let visuals = ui.style().interact_selectable(&response, selected);
            let p = ui.painter();
            p.rect(rect, 8.0, visuals.weak_bg_fill, visuals.bg_stroke, egui::StrokeKind::Inside);
            if selected {
                p.rect_stroke(
                    rect,
                    8.0,
                    egui::Stroke::new(3.0, ui.visuals().selection.stroke.color),
                    egui::StrokeKind::Inside,
                );
            }
            let picture = egui::Rect::from_min_size(
                rect.min + egui::vec2(6.0, 6.0),
                egui::vec2(card_w - 12.0, picture_h),
            );
            board_picture(p, picture, &v.start(), &colors, shadow);
            let text_pos = egui::pos2(rect.center().x - name.size().x / 2.0, picture.max.y + 4.0);
            p.galley(text_pos, name, visuals.text_color());
        }
    });
    let blurb = match settings.variant {
        Variant::Latrunculi => lang.t("game-latrunculi-blurb"),
        Variant::LatrunculiQuick => lang.t("game-latrunculi-quick-blurb"),
        Variant::Alquerque => lang.t("game-alquerque-blurb"),
    };
    ui.scope(|ui| {
        ui.set_max_width(width);
        // On a phone the card names the game already.
        let text = if narrow {
            blurb.to_string()
        } else {
            format!("{}: {blurb}", lang.text(variant_key(settings.variant)))
        };
        ui.label(egui::RichText::new(text).size(if narrow { 14.0 } else { 15.0 }));
    });
}

/// A game's name on its card.
fn short_name(lang: Lang, variant: Variant) -> &'static str {
    match variant {
        Variant::Latrunculi => lang.t("title-card-latrunculi"),
        Variant::LatrunculiQuick => lang.t("title-card-latrunculi-quick"),
        Variant::Alquerque => lang.t("title-card-alquerque"),
    }
}

/// A small drawing of `variant`'s board at the start, in the theme's colours, inside `area`.
pub fn board_picture(
    p: &egui::Painter,
    area: egui::Rect,
    position: &AnyPosition,
    colors: &Colors,
    shadow: egui::Color32,
) {
    let start = position;
    let (cols, rows) = (f32::from(start.width()), f32::from(start.height()));
    let alquerque = matches!(position, AnyPosition::Alquerque(_));
    // The frame (a quarter of a cell on each side) stays inside `area` too.
    let cell = (area.width() / (cols + 0.5)).min(area.height() / (rows + 0.5));
    let board = egui::Rect::from_center_size(area.center(), egui::vec2(cell * cols, cell * rows));
    p.rect_filled(board.expand(cell * 0.25), 3.0, egui_color(colors.frame));
    let at = |f: f32, r: f32| board.min + egui::vec2((f + 0.5) * cell, (rows - r - 0.5) * cell);
    if alquerque {
        p.rect_filled(board, 2.0, egui_color(colors.light_square));
        let s = egui::Stroke::new((cell * 0.08).max(1.0), egui_color(colors.line));
        for i in 0..5 {
            let i = i as f32;
            p.line_segment([at(i, 0.0), at(i, 4.0)], s);
            p.line_segment([at(0.0, i), at(4.0, i)], s);
        }
        for (a, b) in [
            ((0.0, 0.0), (4.0, 4.0)),
            ((0.0, 4.0), (4.0, 0.0)),
            ((0.0, 2.0), (2.0, 4.0)),
            ((2.0, 4.0), (4.0, 2.0)),
            ((4.0, 2.0), (2.0, 0.0)),
            ((2.0, 0.0), (0.0, 2.0)),
        ] {
            p.line_segment([at(a.0, a.1), at(b.0, b.1)], s);
        }
    } else {
        for f in 0..start.width() {
            for r in 0..start.height() {
                let color = if (f + r) % 2 == 0 { colors.dark_square } else { colors.light_square };
                let min = board.min + egui::vec2(f32::from(f) * cell, (rows - f32::from(r) - 1.0) * cell);
                p.rect_filled(
                    egui::Rect::from_min_size(min, egui::Vec2::splat(cell)),
                    0.0,
                    egui_color(color),
                );
            }
        }
    }
    let radius = cell * if alquerque { 0.34 } else { 0.40 };
    for (sq, piece) in start.pieces() {
        let (f, r) = (f32::from(sq.0 % start.width()), f32::from(sq.0 / start.width()));
        let [rim, body, _] = colors.piece(alquerque, piece.side, piece.king);
        let c = at(f, r);
        p.circle_filled(c + egui::vec2(0.0, radius * 0.15), radius, shadow);
        p.circle_filled(c, radius, egui_color(rim));
        p.circle_filled(c, radius * 0.8, egui_color(body));
    }
}

/// "Against the computer" or "Two players", and the computer's side and level.
fn opponent(ui: &mut egui::Ui, settings: &mut Settings, lang: Lang, width: f32) {
    let spacing = ui.spacing().item_spacing.x;
    let half = (width - spacing) / 2.0;
    ui.horizontal_top(|ui| {
        if choice(ui, lang.t("menu-vs-computer"), half, settings.vs_computer).clicked() {
            settings.vs_computer = true;
        }
        if choice(ui, lang.t("menu-two-players"), half, !settings.vs_computer).clicked() {
            settings.vs_computer = false;
        }
    });
    if !settings.vs_computer {
        return;
    }
    // As wide as the longer label, so that neither breaks inside a word ("Cầm quân").
    let measure = |text: &str| {
        ui.painter()
            .layout_no_wrap(text.to_string(), egui::FontId::proportional(15.0), egui::Color32::PLACEHOLDER)
            .size()
            .x
    };
    let longest = measure(lang.t("menu-play-as")).max(measure(lang.t("menu-level")));
    let label_w = (longest + 6.0).clamp((width * 0.2).min(92.0), width * 0.3);
    let row = |ui: &mut egui::Ui, label: &str, f: &mut dyn FnMut(&mut egui::Ui)| {
        ui.horizontal(|ui| {
            ui.add_sized([label_w, 44.0], egui::Label::new(egui::RichText::new(label).size(15.0)).wrap());
            f(ui);
        });
    };
    let rest = width - label_w - spacing;
    row(ui, lang.t("menu-play-as"), &mut |ui| {
        for side in [Side::First, Side::Second] {
            let name = side_name(lang, settings.variant, side);
            if choice(ui, name, (rest - spacing) / 2.0, settings.human_side == side).clicked() {
                settings.human_side = side;
            }
        }
    });
    row(ui, lang.t("menu-level"), &mut |ui| {
        for level in LEVELS {
            if choice(ui, lang.text(level_key(level)), (rest - 2.0 * spacing) / 3.0, settings.level == level)
                .clicked()
            {
                settings.level = level;
            }
        }
    });
    ui.scope(|ui| {
        ui.set_max_width(width);
        let size = if width < 420.0 { 13.0 } else { 14.0 };
        ui.label(
            egui::RichText::new(lang.text(level_about_key(settings.variant, settings.level))).size(size),
        );
    });
}

/// A selectable button `width` wide and 44 high, its text wrapped when long (a narrow padding:
/// "Trung bình" keeps one line in a third of the column).
fn choice(ui: &mut egui::Ui, text: &str, width: f32, selected: bool) -> egui::Response {
    ui.scope(|ui| {
        ui.spacing_mut().button_padding.x = 6.0;
        sized(ui, egui::Button::new(egui::RichText::new(text).size(16.0)).selected(selected), width, 44.0)
    })
    .inner
}

/// The message id of what a level does in `variant` (the two games' computers differ).
fn level_about_key(variant: Variant, level: Level) -> Id {
    match (variant.is_latrunculi(), level) {
        (true, Level::Easy | Level::Random) => id!("level-easy-about-latrunculi"),
        (true, Level::Medium) => id!("level-medium-about-latrunculi"),
        (true, Level::Hard) => id!("level-hard-about-latrunculi"),
        (false, Level::Easy | Level::Random) => id!("level-easy-about-alquerque"),
        (false, Level::Medium) => id!("level-medium-about-alquerque"),
        (false, Level::Hard) => id!("level-hard-about-alquerque"),
    }
}

/// The title screen.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TitleFits>().add_systems(
        EguiPrimaryContextPass,
        title_screen.run_if(in_state(Screen::Title)).in_set(crate::ui::UiSet::Screens),
    );
}
