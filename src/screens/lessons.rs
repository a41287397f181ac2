//! "Learn to play": the list of each game's lessons (with the ones done ticked), and the panel
//! beside the board while a lesson is played.

use crate::app::Screen;
use crate::game::lessons::{self, LessonProgress, LessonRun, LessonState};
use crate::game::puzzles::PuzzleProfile;
use crate::game::session::{GameCommand, Session};
use crate::game::settings::Settings;
use crate::screens::play::BoardOnScreen;
use crate::ui::root_ui;
use crate::ui::widgets::big_button;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

/// The list of lessons.
pub(super) fn lessons_screen(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    progress: Res<LessonProgress>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let lang = settings.lang;
    egui::CentralPanel::default().show(&mut root_ui(ctx), |ui| {
        if crate::ui::widgets::screen_header(ui, lang, crate::i18n::id!("lessons-title")) {
            next.set(Screen::Title);
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
                for (c, course) in courses.iter().enumerate() {
                    ui.add_space(8.0);
                    ui.heading(egui::RichText::new(course.title.get(lang)).size(24.0));
                    for (i, lesson) in course.lessons.iter().enumerate() {
                        let mark = if progress.done.contains(&lesson.id) { "✔" } else { "○" };
                        let text = format!("{mark}  {}. {}", i + 1, lesson.title.get(lang));
                        let button = egui::Button::new(egui::RichText::new(text).size(19.0))
                            .selected(progress.done.contains(&lesson.id));
                        if ui.add_sized([width, 48.0], button).clicked()
                            && lessons::start(&mut commands, c, i)
                        {
                            next.set(Screen::Playing);
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
    run: Option<ResMut<LessonRun>>,
    mut board: BoardOnScreen,
    mut game: MessageWriter<GameCommand>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
    mut puzzles: ResMut<PuzzleProfile>,
) -> Result {
    let (Some(session), Some(mut run)) = (session, run) else {
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
    let lang = settings.lang;
    let mut root = root_ui(ctx);
    let panel = |ui: &mut egui::Ui| {
        egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
            ui.label(
                lang.fmt("lessons-count", [("number", (run.index + 1).into()), ("total", count.into())]),
            );
            ui.heading(egui::RichText::new(lesson.title.get(lang)).size(22.0).strong());
            ui.label(lesson.text.get(lang));
            ui.add_space(6.0);
            ui.label(egui::RichText::new(lang.t("lessons-task")).strong());
            ui.label(
                egui::RichText::new(lesson.task.get(lang))
                    .size(19.0)
                    .color(egui::Color32::from_rgb(240, 210, 140)),
            );
            ui.add_space(6.0);
            match run.state {
                LessonState::Trying if session.computer_to_move().is_some() => {
                    ui.label(lang.t("status-thinking"));
                }
                LessonState::Trying => {
                    ui.label(lang.t("lessons-your-move"));
                }
                LessonState::Solved => {
                    ui.label(
                        egui::RichText::new(lang.t("lessons-well-done"))
                            .size(24.0)
                            .strong()
                            .color(egui::Color32::from_rgb(130, 210, 120)),
                    );
                }
                LessonState::Wrong => {
                    ui.label(
                        egui::RichText::new(if lesson.against_computer() {
                            lang.t("lessons-lost")
                        } else {
                            lang.t("lessons-wrong")
                        })
                        .size(19.0)
                        .color(egui::Color32::from_rgb(235, 130, 110)),
                    );
                }
            }
            if run.hint && run.state != LessonState::Solved {
                ui.label(
                    egui::RichText::new(format!("{}: {}", lang.t("hud-hint"), lesson.hint.get(lang)))
                        .italics(),
                );
            }
            ui.add_space(6.0);
            let width = ui.available_width();
            match run.state {
                LessonState::Solved if run.index + 1 < count => {
                    if big_button(ui, lang.t("lessons-next"), width).clicked() {
                        let (course, index) = (run.course, run.index + 1);
                        lessons::start(&mut commands, course, index);
                        board.view.refresh();
                    }
                }
                LessonState::Solved => {
                    ui.label(lang.t("lessons-all-done"));
                }
                LessonState::Wrong => {
                    if big_button(ui, lang.t("lessons-retry"), width).clicked() {
                        game.write(GameCommand::NewGame);
                    }
                }
                LessonState::Trying => {
                    if !run.hint && big_button(ui, lang.t("hud-hint"), width).clicked() {
                        run.hint = true;
                    }
                }
            }
            if run.state == LessonState::Solved && ui.button(lang.t("lessons-retry")).clicked() {
                game.write(GameCommand::NewGame);
            }
            // What the lesson taught, practised in puzzles: the puzzle screen with its filters.
            if run.state == LessonState::Solved
                && let Some((variant, theme)) = crate::game::puzzles::practice(&lesson.id)
            {
                let text = match theme {
                    Some(t) => lang.fmt(
                        "lessons-practise-theme",
                        [("theme", lang.text(crate::game::puzzles::theme_key(t)).into())],
                    ),
                    None => lang.t("lessons-practise").to_string(),
                };
                if big_button(ui, &text, width).clicked() {
                    puzzles.game = variant;
                    puzzles.theme = theme;
                    puzzles.save();
                    next.set(Screen::Puzzles);
                }
            }
            if big_button(ui, lang.t("lessons-list"), width).clicked() {
                next.set(Screen::Lessons);
            }
        });
    };
    super::panel_beside_board(
        &mut root,
        "lesson",
        super::LESSON_PANEL,
        (&mut board.area, &mut board.layout),
        settings.coordinates,
        panel,
    );
    Ok(())
}
