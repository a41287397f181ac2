//! The puzzle trainer's views: the page with the rating, the streak, the filters and the recent
//! tries; the panel beside (or under) the board while a puzzle is played (the hint with its
//! cost, the solution's moves as they are played); and the system that plays the opponent's
//! replies and takes back wrong moves once the board is still. What the player asks becomes a
//! [`PuzzleIntent`], carried out by `game::puzzles`.

use crate::board::view::{BoardArea, BoardLayout, BoardView};
use crate::game::puzzles::{self, PuzzleIntent, PuzzleProfile, PuzzleRun, Verdict, freeze, theme_key};
use crate::game::session::Session;
use crate::game::settings::Settings;
use crate::i18n::Lang;
use crate::ui::root_ui;
use crate::ui::theme::MARKS;
use crate::ui::widgets::{big_button, choice, side_name, variant_key};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use ludus_ai::puzzle::Theme;
use ludus_rules::Variant;

pub use crate::game::puzzles::{session_for, start, start_from_game};
pub use crate::players::analysis::open_game_puzzles;

/// Whether the session on the board is the run's puzzle.
fn ours(session: &Session, run: &PuzzleRun) -> bool {
    session.is_lesson() && run.puzzle().position().is_ok_and(|p| p == session.game.start())
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

/// One recent try as the player reads it: the game, the puzzle's difficulty and the rating
/// after it (no internal ids).
fn history_line(lang: Lang, t: &puzzles::Try) -> String {
    let rating = t.rating.round() as i64;
    let puzzle = puzzles::puzzles().ok().and_then(|all| all.iter().find(|p| p.id == t.id));
    match puzzle {
        Some(p) => lang.fmt(
            "puzzles-history-line",
            [
                ("game", lang.text(variant_key(p.game)).into()),
                ("difficulty", p.rating.into()),
                ("rating", rating.into()),
            ],
        ),
        None => lang.fmt("puzzles-rating", [("rating", rating.into())]),
    }
}

/// The page's filters: a game and a theme.
fn filters(ui: &mut egui::Ui, lang: Lang, profile: &PuzzleProfile, intents: &mut Vec<PuzzleIntent>) {
    ui.label(egui::RichText::new(lang.t("puzzles-filter-game")).strong());
    let (mut game, mut theme) = (profile.game, profile.theme);
    crate::ui::widgets::button_row(ui, |ui| {
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
    crate::ui::widgets::button_row(ui, |ui| {
        if ui.add(choice(theme.is_none(), lang.t("puzzles-any-theme"))).clicked() {
            theme = None;
        }
        for t in Theme::ALL {
            if ui.add(choice(theme == Some(t), lang.text(theme_key(t)))).clicked() {
                theme = Some(t);
            }
        }
    });
    if (game, theme) != (profile.game, profile.theme) {
        intents.push(PuzzleIntent::Filter(game, theme));
    }
}

/// The puzzles' page: the rating and streak, the filters, a button to start, the recent tries.
/// `seed` picks the puzzle "Solve a puzzle" starts.
pub fn puzzles_page(ui: &mut egui::Ui, lang: Lang, profile: &PuzzleProfile, seed: u64) -> Vec<PuzzleIntent> {
    let mut intents = Vec::new();
    if crate::ui::widgets::screen_header(ui, lang, crate::i18n::id!("puzzles-title")) {
        intents.push(PuzzleIntent::Leave);
    }
    let all = match puzzles::puzzles() {
        Ok(all) => all,
        Err(e) => {
            ui.label(lang.fmt("puzzles-unavailable", [("error", e.into())]));
            return intents;
        }
    };
    egui::ScrollArea::vertical().show(ui, |ui| {
        ui.vertical_centered(|ui| {
            let width = ui.available_width().min(560.0);
            let rating = lang.fmt("puzzles-rating", [("rating", profile.shown_rating().into())]);
            ui.label(egui::RichText::new(rating).size(24.0).strong());
            let (streak, best) = (profile.streak, profile.best_streak);
            ui.label(lang.fmt("puzzles-streak", [("streak", streak.into()), ("best", best.into())]));
            ui.add_space(8.0);
            filters(ui, lang, profile, &mut intents);
            let count = all.iter().filter(|p| puzzles::matches(p, profile.game, profile.theme)).count();
            ui.label(lang.fmt("puzzles-count", [("count", count.into())]));
            ui.add_space(8.0);
            match puzzles::next_index(profile, seed) {
                Some(index) => {
                    if big_button(ui, lang.t("puzzles-start"), width).clicked() {
                        intents.push(PuzzleIntent::Start(index));
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
                    let (mark, color) = if t.solved { ("✔", MARKS.right) } else { ("✘", MARKS.wrong) };
                    ui.horizontal_wrapped(|ui| {
                        ui.label(egui::RichText::new(mark).color(color));
                        ui.label(history_line(lang, t));
                    });
                }
            }
        });
    });
    intents
}

/// The puzzles' page as a screen.
pub(super) fn puzzles_screen(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    profile: Res<PuzzleProfile>,
    mut intents: MessageWriter<PuzzleIntent>,
    mut counter: Local<u64>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let seed = puzzles::choice_seed(&profile, *counter);
    let mut asked = Vec::new();
    egui::CentralPanel::default().show(&mut root_ui(ctx), |ui| {
        asked = puzzles_page(ui, settings.lang, &profile, seed);
    });
    if asked.iter().any(|i| matches!(i, PuzzleIntent::Start(_))) {
        *counter += 1;
    }
    intents.write_batch(asked);
    Ok(())
}

/// What the panel by the board shows: the language, the puzzle's run, the position on the
/// board and the player's profile.
pub struct PuzzleView<'a> {
    /// The interface's language.
    pub lang: Lang,
    /// The puzzle being played.
    pub run: &'a PuzzleRun,
    /// The session on the board.
    pub session: &'a Session,
    /// The player's rating.
    pub profile: &'a PuzzleProfile,
}

/// Where the player stands: shown the solution, solved, wrong, going on, or to move.
fn progress(ui: &mut egui::Ui, view: &PuzzleView) {
    let (lang, run) = (view.lang, view.run);
    if run.showing {
        ui.label(egui::RichText::new(lang.t("puzzles-showing")).size(19.0));
    } else if run.trainer.solved {
        ui.label(egui::RichText::new(lang.t("puzzles-correct")).size(24.0).strong().color(MARKS.right));
    } else if run.wrong {
        ui.label(egui::RichText::new(lang.t("puzzles-wrong")).size(19.0).color(MARKS.wrong));
    } else if run.trainer.step > 0 {
        ui.label(egui::RichText::new(lang.t("puzzles-keep-going")).size(19.0).color(MARKS.right));
    } else {
        ui.label(lang.t("puzzles-your-move"));
    }
    if let (true, Some(before)) = (run.counted, run.before) {
        let (b, a) = (before.round() as i64, view.profile.shown_rating());
        let change = if a >= b { format!("+{}", a - b) } else { format!("{}", a - b) };
        ui.label(lang.fmt(
            "puzzles-rating-change",
            [("before", b.into()), ("after", a.into()), ("change", change.into())],
        ));
    }
    if run.hint && !run.trainer.solved && !run.showing && !run.wrong {
        let position = view.session.game.position();
        if let Some(mv) = run.trainer.expected().and_then(|text| position.parse_move(text).ok()) {
            let square = mv.from().name(position.width());
            ui.label(egui::RichText::new(lang.fmt("puzzles-hint", [("square", square.into())])).italics());
        }
    }
}

/// The solution's moves, numbered, those already on the board strong.
fn solution_moves(ui: &mut egui::Ui, lang: Lang, run: &PuzzleRun, on_board: usize) {
    ui.label(egui::RichText::new(lang.t("puzzles-solution-moves")).strong());
    ui.horizontal_wrapped(|ui| {
        for (i, mv) in run.puzzle().line.iter().enumerate() {
            let text = egui::RichText::new(format!("{}. {mv}", i + 1)).monospace();
            ui.label(if i < on_board { text.strong().color(MARKS.right) } else { text.weak() });
        }
    });
}

/// The hint button's words: what it costs the rating now.
pub fn hint_label(lang: Lang, run: &PuzzleRun, profile: &PuzzleProfile) -> String {
    if run.from_game.is_some() {
        lang.t("puzzles-hint-unrated").to_string()
    } else if run.counted {
        lang.t("puzzles-hint-free").to_string()
    } else {
        lang.fmt("puzzles-hint-cost", [("change", profile.miss_cost(run.puzzle()).into())])
    }
}

/// The panel's contents while a puzzle is played; returns the player's intents.
pub fn puzzle_panel_contents(ui: &mut egui::Ui, view: &PuzzleView) -> Vec<PuzzleIntent> {
    let (lang, run) = (view.lang, view.run);
    let puzzle = run.puzzle();
    let mut intents = Vec::new();
    egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
        match run.from_game.as_ref() {
            Some(g) => ui.label(lang.fmt("puzzles-from-game", [("move", g.move_number.into())])),
            None => {
                let game = lang.text(variant_key(puzzle.game));
                ui.label(lang.fmt("puzzles-info", [("game", game.into()), ("rating", puzzle.rating.into())]))
            }
        };
        if let Ok(side) = puzzle.position().map(|p| p.side_to_move()) {
            let side = side_name(lang, puzzle.game, side);
            let find = lang.fmt("puzzles-find", [("side", side.into())]);
            ui.add(egui::Label::new(egui::RichText::new(find).size(22.0).strong()).wrap());
        }
        ui.add_space(6.0);
        progress(ui, view);
        let done = run.trainer.solved || run.showing;
        if done {
            let names: Vec<&str> = puzzle.themes.iter().map(|&t| lang.text(theme_key(t))).collect();
            let themes = if names.is_empty() { "-".to_string() } else { names.join(", ") };
            ui.label(lang.fmt("puzzles-themes", [("themes", themes.into())]));
        }
        if run.showing {
            solution_moves(ui, lang, run, view.session.game.ply());
        }
        ui.add_space(6.0);
        let width = ui.available_width();
        let button = |ui: &mut egui::Ui, text: &str, intent, intents: &mut Vec<PuzzleIntent>| {
            if big_button(ui, text, width).clicked() {
                intents.push(intent);
            }
        };
        if !done && !run.hint && view.session.human_to_move() {
            button(ui, &hint_label(lang, run, view.profile), PuzzleIntent::Hint, &mut intents);
        }
        if !done {
            button(ui, lang.t("puzzles-solution"), PuzzleIntent::ShowSolution, &mut intents);
        }
        if done {
            button(ui, lang.t("puzzles-next"), PuzzleIntent::Next, &mut intents);
        }
        // The lesson that teaches what the puzzle practised.
        if done
            && let Some((course, index)) = puzzles::lesson_for(puzzle)
            && let Some(lesson) =
                crate::game::lessons::courses().ok().and_then(|c| c[course].lessons.get(index))
            && ui.button(lang.fmt("puzzles-lesson", [("lesson", lesson.title.get(lang).into())])).clicked()
        {
            intents.push(PuzzleIntent::Lesson);
        }
        button(ui, lang.t("puzzles-list"), PuzzleIntent::List, &mut intents);
    });
    intents
}

/// The panel beside (or under) the board while a puzzle is played.
#[allow(clippy::too_many_arguments)]
pub(super) fn puzzle_panel(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    session: Option<Res<Session>>,
    run: Option<Res<PuzzleRun>>,
    profile: Res<PuzzleProfile>,
    mut area: ResMut<BoardArea>,
    mut layout: ResMut<BoardLayout>,
    mut intents: MessageWriter<PuzzleIntent>,
) -> Result {
    let (Some(session), Some(run)) = (session, run) else {
        return Ok(());
    };
    if !ours(&session, &run) {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let view = PuzzleView { lang: settings.lang, run: &run, session: &session, profile: &profile };
    let mut asked = Vec::new();
    let panel = |ui: &mut egui::Ui| asked = puzzle_panel_contents(ui, &view);
    super::panel_beside_board(
        &mut root_ui(ctx),
        "puzzle",
        super::LESSON_PANEL,
        (&mut area, &mut layout),
        settings.coordinates,
        panel,
    );
    intents.write_batch(asked);
    Ok(())
}
