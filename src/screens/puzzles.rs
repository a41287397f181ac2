//! The puzzle trainer: the page with the rating, the streak, the filters and the recent tries;
//! the panel beside (or under) the board while a puzzle is played; and the system that plays
//! the opponent's replies and takes back wrong moves once the board is still.

use crate::app::Screen;
use crate::board::view::BoardView;
use crate::game::lessons::LessonRun;
use crate::game::puzzles::{self, PuzzleProfile, PuzzleRun, Verdict, theme_key};
use crate::game::selection::{Selected, Selection};
use crate::game::session::{Level, Mode, Seats, Session};
use crate::game::settings::Settings;
use crate::players::analysis::Analysis;
use crate::screens::play::BoardOnScreen;
use crate::ui::root_ui;
use crate::ui::widgets::{big_button, choice, side_name, variant_key};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use ludus_ai::puzzle::from_game::GamePuzzle;
use ludus_ai::puzzle::{Puzzle, Theme};
use ludus_rules::{AnyGame, Variant};

const GOOD: egui::Color32 = egui::Color32::from_rgb(130, 210, 120);
const BAD: egui::Color32 = egui::Color32::from_rgb(235, 130, 110);

/// The session of puzzle `puzzle`: its position, the player's side human, the other side
/// seated as the computer so that the player's moves are taken one at a time (the computer
/// never gets to think: [`drive`] plays the replies first).
pub fn session_for(puzzle: &Puzzle) -> Option<Session> {
    let position = puzzle.position().ok()?;
    let person = position.side_to_move();
    let seats = Seats::versus_computer(person, Level::Easy);
    Some(Session { mode: Mode::Lesson, ..Session::from_game(AnyGame::from_position(position), seats) })
}

/// Starts puzzle `index` of [`puzzles::puzzles`] on the board; false if there is none.
pub fn start(commands: &mut Commands, index: usize) -> bool {
    let Some(puzzle) = puzzles::puzzles().ok().and_then(|all| all.get(index)) else {
        return false;
    };
    begin(commands, PuzzleRun::new(index, puzzle.clone()))
}

/// Starts the first of a finished game's puzzles on the board, the others to follow it; false
/// if there is none.
pub fn start_from_game(commands: &mut Commands, game_puzzles: impl IntoIterator<Item = GamePuzzle>) -> bool {
    PuzzleRun::from_game(game_puzzles).is_some_and(|run| begin(commands, run))
}

/// Puts `run`'s puzzle on the board.
fn begin(commands: &mut Commands, run: PuzzleRun) -> bool {
    let Some(session) = session_for(run.puzzle()) else {
        return false;
    };
    commands.remove_resource::<LessonRun>();
    commands.insert_resource(session);
    commands.insert_resource(run);
    true
}

/// Leaves the analysis for its game's puzzles (the analysis's "Puzzles from this game"), once
/// they are checked; false if there are none (yet).
pub fn open_game_puzzles(
    commands: &mut Commands,
    next: &mut NextState<Screen>,
    analysis: &mut Analysis,
) -> bool {
    let Some(found) = analysis.game_puzzles().filter(|f| !f.is_empty()) else {
        return false;
    };
    if !start_from_game(commands, found.to_vec()) {
        return false;
    }
    analysis.stop();
    commands.remove_resource::<Analysis>();
    next.set(Screen::Playing);
    true
}

/// The next puzzle for `profile` (near its rating, through its filters, never the last one).
fn next_index(profile: &PuzzleProfile, seed: u64) -> Option<usize> {
    let all = puzzles::puzzles().ok()?;
    puzzles::choose(all, profile.rating, profile.game, profile.theme, profile.last_id(), seed)
}

/// A seed for the choice: this run's, moved on by the tries.
fn seed(profile: &PuzzleProfile, counter: &mut u64) -> u64 {
    static RUN: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *counter += 1;
    RUN.get_or_init(crate::platform::entropy::run_seed) ^ (profile.history.len() as u64) ^ (*counter << 32)
}

/// Whether the session on the board is the run's puzzle.
fn ours(session: &Session, run: &PuzzleRun) -> bool {
    session.is_lesson() && run.puzzle().position().is_ok_and(|p| p == session.game.start())
}

/// Nobody moves any more (the puzzle solved, or its solution shown).
fn freeze(session: &mut Session) {
    session.seats = Seats::two_players();
}

/// Judges the player's new move, and once the board is still takes back a wrong move or plays
/// the next queued move (the opponent's reply, or the solution shown). Runs after the session's
/// commands and before the computer player, which therefore never finds its turn.
pub fn drive(
    session: Option<ResMut<Session>>,
    run: Option<ResMut<PuzzleRun>>,
    view: Res<BoardView>,
    mut profile: ResMut<PuzzleProfile>,
) {
    let (Some(mut session), Some(mut run)) = (session, run) else { return };
    if !ours(&session, &run) {
        return;
    }
    let ply = session.game.ply();
    run.known = run.known.min(ply);
    if ply > run.known && !run.showing && !run.trainer.solved && !run.take_back {
        let at = run.known;
        let text =
            session.game.moves().get(at).and_then(|mv| session.game.position_at(at).move_to_string(mv));
        run.known = ply;
        run.wrong = false;
        run.hint = false;
        match run.trainer.play(text.as_deref().unwrap_or_default()) {
            Verdict::Continue(reply) => run.queue.push_back(reply),
            Verdict::Solved => {
                freeze(&mut session);
                let clean = !run.trainer.missed;
                run.count(&mut profile, clean);
            }
            Verdict::Wrong => {
                run.wrong = true;
                run.take_back = true;
                run.count(&mut profile, false);
            }
        }
    }
    if !view.settled(&session) {
        return;
    }
    if run.take_back {
        run.take_back = false;
        session.game.withdraw_ending();
        session.game.undo();
        session.revision += 1;
        run.known = session.game.ply();
        return;
    }
    if let Some(text) = run.queue.pop_front() {
        let played = session.game.position().parse_move(&text).is_ok_and(|mv| session.play(&mv).is_ok());
        if played {
            run.known = session.game.ply();
        } else {
            warn!("puzzle {}: the move {text} does not play", run.puzzle().id);
            run.queue.clear();
        }
        if run.queue.is_empty() && run.showing {
            freeze(&mut session);
        }
    }
}

/// Forgets the puzzle when the board is left.
pub(super) fn leave(mut commands: Commands) {
    commands.remove_resource::<PuzzleRun>();
}

/// The puzzles' page: the rating and streak, the filters, a button to start, the recent tries.
pub(super) fn puzzles_screen(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    mut profile: ResMut<PuzzleProfile>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
    mut counter: Local<u64>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let lang = settings.lang;
    egui::CentralPanel::default().show(&mut root_ui(ctx), |ui| {
        if crate::ui::widgets::screen_header(ui, lang, crate::i18n::id!("puzzles-title")) {
            next.set(Screen::Title);
        }
        let all = match puzzles::puzzles() {
            Ok(all) => all,
            Err(e) => {
                ui.label(lang.fmt("puzzles-unavailable", [("error", e.into())]));
                return;
            }
        };
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.vertical_centered(|ui| {
                let width = ui.available_width().min(560.0);
                ui.label(
                    egui::RichText::new(
                        lang.fmt("puzzles-rating", [("rating", profile.shown_rating().into())]),
                    )
                    .size(24.0)
                    .strong(),
                );
                ui.label(lang.fmt(
                    "puzzles-streak",
                    [("streak", profile.streak.into()), ("best", profile.best_streak.into())],
                ));
                ui.add_space(8.0);
                ui.label(egui::RichText::new(lang.t("puzzles-filter-game")).strong());
                let mut game = profile.game;
                ui.horizontal_wrapped(|ui| {
                    if ui.add(choice(game.is_none(), lang.t("puzzles-all-games"))).clicked() {
                        game = None;
                    }
                    for v in Variant::ALL {
                        if ui.add(choice(game == Some(v), lang.text(variant_key(v)))).clicked() {
                            game = Some(v);
                        }
                    }
                });
                ui.label(egui::RichText::new(lang.t("puzzles-filter-theme")).strong());
                let mut theme = profile.theme;
                ui.horizontal_wrapped(|ui| {
                    if ui.add(choice(theme.is_none(), lang.t("puzzles-any-theme"))).clicked() {
                        theme = None;
                    }
                    for t in Theme::ALL {
                        if ui.add(choice(theme == Some(t), lang.text(theme_key(t)))).clicked() {
                            theme = Some(t);
                        }
                    }
                });
                if game != profile.game || theme != profile.theme {
                    profile.game = game;
                    profile.theme = theme;
                    profile.save();
                }
                let count = all.iter().filter(|p| puzzles::matches(p, game, theme)).count();
                ui.label(lang.fmt("puzzles-count", [("count", count.into())]));
                ui.add_space(8.0);
                let seed = seed(&profile, &mut counter);
                match next_index(&profile, seed) {
                    Some(index) => {
                        if big_button(ui, lang.t("puzzles-start"), width).clicked()
                            && start(&mut commands, index)
                        {
                            next.set(Screen::Playing);
                        }
                    }
                    None => {
                        ui.label(lang.t("puzzles-none"));
                    }
                }
                if !profile.history.is_empty() {
                    ui.add_space(10.0);
                    ui.label(egui::RichText::new(lang.t("puzzles-history")).strong());
                    for t in profile.history.iter().rev() {
                        let (mark, color) = if t.solved { ("✔", GOOD) } else { ("✘", BAD) };
                        ui.horizontal(|ui| {
                            ui.label(egui::RichText::new(mark).color(color));
                            ui.label(format!("{}  ·  {}", t.id, t.rating.round() as i64));
                        });
                    }
                }
            });
        });
    });
    Ok(())
}

/// The panel beside (or under) the board while a puzzle is played.
pub(super) fn puzzle_panel(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    session: Option<ResMut<Session>>,
    run: Option<ResMut<PuzzleRun>>,
    mut board: BoardOnScreen,
    mut profile: ResMut<PuzzleProfile>,
    mut selected: ResMut<Selected>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
    mut counter: Local<u64>,
) -> Result {
    let (Some(mut session), Some(mut run)) = (session, run) else {
        return Ok(());
    };
    if !ours(&session, &run) {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let lang = settings.lang;
    let mut root = root_ui(ctx);
    let puzzle = run.puzzle().clone();
    let person = puzzle.position().map(|p| p.side_to_move()).ok();
    let from_game = run.from_game.as_ref().map(|g| g.move_number);
    let panel = |ui: &mut egui::Ui| {
        egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
            match from_game {
                Some(number) => ui.label(lang.fmt("puzzles-from-game", [("move", number.into())])),
                None => ui.label(lang.fmt(
                    "puzzles-info",
                    [("game", lang.text(variant_key(puzzle.game)).into()), ("rating", puzzle.rating.into())],
                )),
            };
            if let Some(side) = person {
                let side = side_name(lang, puzzle.game, side);
                ui.heading(
                    egui::RichText::new(lang.fmt("puzzles-find", [("side", side.into())]))
                        .size(22.0)
                        .strong(),
                );
            }
            ui.add_space(6.0);
            let solved = run.trainer.solved;
            if run.showing {
                ui.label(egui::RichText::new(lang.t("puzzles-showing")).size(19.0));
            } else if solved {
                ui.label(egui::RichText::new(lang.t("puzzles-correct")).size(24.0).strong().color(GOOD));
            } else if run.wrong {
                ui.label(egui::RichText::new(lang.t("puzzles-wrong")).size(19.0).color(BAD));
            } else if run.trainer.step > 0 {
                ui.label(egui::RichText::new(lang.t("puzzles-keep-going")).size(19.0).color(GOOD));
            } else {
                ui.label(lang.t("puzzles-your-move"));
            }
            if let (true, Some(before)) = (run.counted, run.before) {
                let (b, a) = (before.round() as i64, profile.shown_rating());
                let change = if a >= b { format!("+{}", a - b) } else { format!("{}", a - b) };
                ui.label(lang.fmt(
                    "puzzles-rating-change",
                    [("before", b.into()), ("after", a.into()), ("change", change.into())],
                ));
            }
            if run.hint && !solved && !run.showing && !run.wrong {
                let from =
                    run.trainer.expected().and_then(|text| session.game.position().parse_move(text).ok());
                if let Some(mv) = from {
                    let square = mv.from().name(session.game.position().width());
                    ui.label(
                        egui::RichText::new(lang.fmt("puzzles-hint", [("square", square.into())])).italics(),
                    );
                }
            }
            if solved || run.showing {
                let names: Vec<&str> = puzzle.themes.iter().map(|&t| lang.text(theme_key(t))).collect();
                let themes = if names.is_empty() { "-".to_string() } else { names.join(", ") };
                ui.label(lang.fmt("puzzles-themes", [("themes", themes.into())]));
            }
            ui.add_space(6.0);
            let width = ui.available_width();
            let done = solved || run.showing;
            if !done
                && !run.hint
                && session.human_to_move()
                && big_button(ui, lang.t("hud-hint"), width).clicked()
            {
                let hint =
                    run.trainer.expected().and_then(|text| session.game.position().parse_move(text).ok());
                // The piece to move, selected on the board (its moves show; which one is left to find).
                if let Some(mv) = hint {
                    run.hint = true;
                    run.trainer.missed = true;
                    run.count(&mut profile, false);
                    selected.0 = Some(Selection { from: mv.from(), partial: Vec::new() });
                }
            }
            if !done && big_button(ui, lang.t("puzzles-solution"), width).clicked() {
                run.trainer.missed = true;
                run.count(&mut profile, false);
                if let Some(mut shown) = session_for(&puzzle) {
                    freeze(&mut shown);
                    shown.revision = session.revision + 1;
                    *session = shown;
                    board.view.refresh();
                    run.queue = puzzle.line.iter().cloned().collect();
                    run.known = 0;
                    run.take_back = false;
                    run.wrong = false;
                    run.showing = true;
                }
            }
            if done && big_button(ui, lang.t("puzzles-next"), width).clicked() {
                // The game's next puzzle, then the usual ones.
                let rest = run.from_game.as_ref().map(|g| g.rest.clone()).unwrap_or_default();
                let started = if rest.is_empty() {
                    let seed = seed(&profile, &mut counter);
                    next_index(&profile, seed).is_some_and(|index| start(&mut commands, index))
                } else {
                    start_from_game(&mut commands, rest)
                };
                if started {
                    board.view.refresh();
                    selected.0 = None;
                }
            }
            // The lesson that teaches what the puzzle practised.
            if done
                && let Some((course, index)) = puzzles::lesson_for(&puzzle)
                && let Some(lesson) =
                    crate::game::lessons::courses().ok().and_then(|c| c[course].lessons.get(index))
            {
                let text = lang.fmt("puzzles-lesson", [("lesson", lesson.title.get(lang).into())]);
                if ui.button(text).clicked() && crate::game::lessons::start(&mut commands, course, index) {
                    commands.remove_resource::<PuzzleRun>();
                    board.view.refresh();
                    selected.0 = None;
                }
            }
            if big_button(ui, lang.t("puzzles-list"), width).clicked() {
                next.set(Screen::Puzzles);
            }
        });
    };
    super::panel_beside_board(
        &mut root,
        "puzzle",
        super::LESSON_PANEL,
        (&mut board.area, &mut board.layout),
        settings.coordinates,
        panel,
    );
    Ok(())
}
