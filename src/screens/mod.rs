//! The screens, one file each: the first start's language choice, title, settings, rules, lessons (with their diagrams), puzzles, the game (play and
//! the game-over card), online (the lobby and players' profiles), the analysis and "Analyse a game" (records).

pub mod analysis;
pub mod diagrams;
pub mod game_over;
pub mod language;
pub mod lessons;
pub mod lobby;
pub mod play;
pub mod profile;
pub mod puzzles;
pub mod records;
pub mod rules;
pub mod settings;
pub mod title;

use crate::app::{AppSet, Screen};
use crate::ui::UiSet;
use bevy::prelude::*;
use bevy_egui::EguiPrimaryContextPass;

/// Every screen.
pub fn plugin(app: &mut App) {
    app.init_state::<Screen>()
        .init_resource::<play::OverCardHidden>()
        .init_resource::<play::TypedMove>()
        .init_resource::<game_over::EndMoment>()
        .init_resource::<title::TitleFits>()
        .init_resource::<lobby::LobbyForm>()
        .add_systems(
            EguiPrimaryContextPass,
            (
                title::title_screen.run_if(in_state(Screen::Title)),
                settings::settings_screen.run_if(in_state(Screen::Settings)),
                rules::rules_screen.run_if(in_state(Screen::Rules)),
                (
                    play::panel,
                    lessons::lesson_panel,
                    puzzles::puzzle_panel,
                    play::ghost_counts,
                    game_over::end_moment,
                    game_over::game_over_card,
                )
                    .chain()
                    .run_if(in_state(Screen::Playing)),
                lobby::online_screen.run_if(in_state(Screen::Online)),
                analysis::analysis_screen.run_if(in_state(Screen::Analysis)),
                records::records_screen.run_if(in_state(Screen::Records)),
                profile::profile_screen.run_if(in_state(Screen::Profile)),
                language::language_screen.run_if(in_state(Screen::Language)),
                lessons::lessons_screen.run_if(in_state(Screen::Lessons)),
                puzzles::puzzles_screen.run_if(in_state(Screen::Puzzles)),
            )
                .in_set(UiSet::Screens),
        )
        .add_systems(
            Update,
            (analysis::keys.in_set(AppSet::Input), analysis::show_selected.in_set(AppSet::Apply))
                .run_if(in_state(Screen::Analysis)),
        )
        .add_systems(
            Update,
            puzzles::drive.after(AppSet::Apply).before(AppSet::Think).run_if(in_state(Screen::Playing)),
        )
        .add_systems(OnExit(Screen::Playing), puzzles::leave)
        .add_systems(OnEnter(Screen::Records), records::open_picker)
        .add_systems(OnExit(Screen::Records), records::close_picker);
}
