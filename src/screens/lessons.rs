//! "Learn to play": the list of each game's lessons (with the ones done ticked), and the panel
//! beside the board while a lesson is played. Taps become [`GameIntent`]s and [`NavIntent`]s.

use crate::app::Screen;
use crate::app::navigation::NavIntent;
use crate::game::intent::GameIntent;
use crate::game::lessons::{self, Lesson, LessonProgress, LessonRun, LessonState};
use crate::game::session::Session;
use crate::game::settings::Settings;
use crate::i18n::Lang;
use crate::screens::play::BoardOnScreen;
use crate::ui::root_ui;
use crate::ui::theme::{Palette, palette};
use crate::ui::widgets::big_button;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// The list of lessons.
pub(super) fn lessons_screen(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    progress: Res<LessonProgress>,
    mut game: MessageWriter<GameIntent>,
    mut nav: MessageWriter<NavIntent>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let lang = settings.lang;
    egui::CentralPanel::default().show(&mut root_ui(ctx), |ui| {
        if crate::ui::widgets::screen_header(ui, lang, crate::i18n::id!("lessons-title")) {
            nav.write(NavIntent::Go(Screen::Title));
        }
        let courses = match lessons::courses() {
            Ok(c) => c,
            Err(e) => {
                ui.label(lang.fmt("lessons-unavailable", [("error", e.into())]));
                return;
            }
        };
        let total: usize = courses.iter().map(|c| c.lessons.len()).sum();
        let done = courses.iter().flat_map(|c| &c.lessons).filter(|l| progress.done.contains(&l.id)).count();
        ui.label(lang.fmt("lessons-progress", [("done", done.into()), ("total", total.into())]));
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.vertical_centered(|ui| {
                let width = ui.available_width().min(560.0);
                for (course, c) in courses.iter().enumerate() {
                    ui.add_space(8.0);
                    ui.heading(egui::RichText::new(c.title.get(lang)).size(24.0));
                    for (index, lesson) in c.lessons.iter().enumerate() {
                        let done = progress.done.contains(&lesson.id);
                        let mark = if done { "✔" } else { "○" };
                        let text = format!("{mark}  {}. {}", index + 1, lesson.title.get(lang));
                        let button = egui::Button::new(egui::RichText::new(text).size(19.0)).selected(done);
                        if ui.add_sized([width, 48.0], button).clicked() {
                            game.write(GameIntent::StartLesson { course, index });
                        }
                    }
                }
            });
        });
    });
    Ok(())
}

/// The panel beside (or under) the board in a lesson: the lesson, the task, how it went, a hint,
/// try again, the next lesson.
pub(super) fn lesson_panel(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    session: Option<Res<Session>>,
    run: Option<Res<LessonRun>>,
    mut board: BoardOnScreen,
    mut game: MessageWriter<GameIntent>,
    mut nav: MessageWriter<NavIntent>,
) -> Result {
    let (Some(session), Some(run)) = (session, run) else {
        return Ok(());
    };
    if !session.is_lesson() {
        return Ok(());
    }
    let Some(lesson) = run.lesson() else {
        return Ok(());
    };
    let count = lessons::courses().map(|c| c[run.course].lessons.len()).unwrap_or(0);
    let ctx = contexts.ctx_mut()?;
    let shown = LessonShown {
        lang: settings.lang,
        colors: palette(settings.theme),
        run: &run,
        lesson,
        count,
        thinking: session.computer_to_move().is_some(),
    };
    let mut asked = Vec::new();
    let mut go = None;
    let panel = |ui: &mut egui::Ui| {
        egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
            lesson_text(ui, &shown);
            ui.add_space(6.0);
            go = lesson_buttons(ui, &shown, &mut asked);
        });
    };
    super::panel_beside_board(
        &mut root_ui(ctx),
        "lesson",
        super::LESSON_PANEL,
        (&mut board.area, &mut board.layout),
        settings.coordinates,
        panel,
    );
    if asked.iter().any(|a| matches!(a, GameIntent::StartLesson { .. })) {
        board.view.refresh();
    }
    game.write_batch(asked);
    if let Some(screen) = go {
        nav.write(NavIntent::Go(screen));
    }
    Ok(())
}

/// What the lesson panel shows.
struct LessonShown<'a> {
    lang: Lang,
    colors: Palette,
    run: &'a LessonRun,
    lesson: &'a Lesson,
    /// How many lessons the course has.
    count: usize,
    /// The computer is to move.
    thinking: bool,
}

/// The lesson's number, title, text and task, how the try went, and the hint once asked for.
fn lesson_text(ui: &mut egui::Ui, s: &LessonShown) {
    let (lang, lesson, run) = (s.lang, s.lesson, s.run);
    ui.label(lang.fmt("lessons-count", [("number", (run.index + 1).into()), ("total", s.count.into())]));
    ui.heading(egui::RichText::new(lesson.title.get(lang)).size(22.0).strong());
    ui.label(lesson.text.get(lang));
    ui.add_space(6.0);
    ui.label(egui::RichText::new(lang.t("lessons-task")).strong());
    ui.label(egui::RichText::new(lesson.task.get(lang)).size(19.0).color(s.colors.accent));
    ui.add_space(6.0);
    match run.state {
        LessonState::Trying if s.thinking => {
            ui.label(lang.t("status-thinking"));
        }
        LessonState::Trying => {
            ui.label(lang.t("lessons-your-move"));
        }
        LessonState::Solved => {
            let text = egui::RichText::new(lang.t("lessons-well-done")).size(24.0).strong();
            ui.label(text.color(s.colors.good));
        }
        LessonState::Wrong => {
            let text =
                if lesson.against_computer() { lang.t("lessons-lost") } else { lang.t("lessons-wrong") };
            ui.label(egui::RichText::new(text).size(19.0).color(s.colors.warn));
        }
    }
    if run.hint && run.state != LessonState::Solved {
        ui.label(egui::RichText::new(format!("{}: {}", lang.t("hud-hint"), lesson.hint.get(lang))).italics());
    }
}

/// The lesson's buttons: next, try again, hint, practise in puzzles, the list. The intents asked
/// go to `asked`; a screen to show is returned.
fn lesson_buttons(ui: &mut egui::Ui, s: &LessonShown, asked: &mut Vec<GameIntent>) -> Option<Screen> {
    let (lang, run) = (s.lang, s.run);
    let width = ui.available_width();
    match run.state {
        LessonState::Solved if run.index + 1 < s.count => {
            if big_button(ui, lang.t("lessons-next"), width).clicked() {
                asked.push(GameIntent::StartLesson { course: run.course, index: run.index + 1 });
            }
        }
        LessonState::Solved => {
            ui.label(lang.t("lessons-all-done"));
        }
        LessonState::Wrong => {
            if big_button(ui, lang.t("lessons-retry"), width).clicked() {
                asked.push(GameIntent::NewGame);
            }
        }
        LessonState::Trying => {
            if !run.hint && big_button(ui, lang.t("hud-hint"), width).clicked() {
                asked.push(GameIntent::LessonHint);
            }
        }
    }
    if run.state == LessonState::Solved && ui.button(lang.t("lessons-retry")).clicked() {
        asked.push(GameIntent::NewGame);
    }
    // What the lesson taught, practised in puzzles: the puzzle screen with its filters.
    if run.state == LessonState::Solved
        && let Some((variant, theme)) = crate::game::puzzles::practice(&s.lesson.id)
    {
        let text = match theme {
            Some(t) => lang.fmt(
                "lessons-practise-theme",
                [("theme", lang.text(crate::game::puzzles::theme_key(t)).into())],
            ),
            None => lang.t("lessons-practise").to_string(),
        };
        if big_button(ui, &text, width).clicked() {
            asked.push(GameIntent::Practise(variant, theme));
        }
    }
    big_button(ui, lang.t("lessons-list"), width).clicked().then_some(Screen::Lessons)
}

/// The list of lessons (a lesson's panel is one of the game screen's, see the screens' plugin).
pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        lessons_screen.run_if(in_state(Screen::Lessons)).in_set(crate::ui::UiSet::Screens),
    );
}
