//! Puzzles from a finished game, headless: a game where the person misses a win is finished and
//! analysed; the check of its puzzles runs in the background after the analysis; "Puzzles from
//! this game" puts the missed position on the board, the winning move there is "Correct", and
//! the try leaves the puzzle rating alone.

use crate::puzzles::{play, with_driver};
use crate::{data_dir_lock, fresh_data_dir, headless};
use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use ludus::app::Screen;
use ludus::game::puzzles::{PuzzleProfile, PuzzleRun};
use ludus::game::session::{GameCommand, Level, Seats, Session};
use ludus::players::analysis::Analysis;
use ludus_rules::{AnyGame, AnyPosition, Side, Variant};
use std::time::{Duration, Instant};

/// Black (the person) takes Red's last soldier with f2-f6 and wins.
const MISSED_WIN: &str = "b7/8/6rb/7b/1b5b/B2b4/3R1b2/b7 b";

#[test]
fn a_missed_win_becomes_a_puzzle_solved_on_the_board() {
    let _guard = data_dir_lock();
    fresh_data_dir("game-puzzles");
    let mut app = headless();
    with_driver(&mut app, Screen::Analysis);
    let start = AnyPosition::parse(Variant::LatrunculiQuick, MISSED_WIN).unwrap();
    // Both sides' moves are given here (the computer does not get to think); the analysis is
    // told that the person played Black against the computer.
    let seats = Seats::versus_computer(Side::Second, Level::Hard);
    app.insert_resource(Session::from_game(AnyGame::from_position(start), Seats::two_players()));
    app.update();
    // The person plays a king's move instead of the win, Red's soldier steps away, and the
    // person, to move, resigns.
    for text in ["a3-a2", "g6-g7"] {
        let mv = app.world().resource::<Session>().game.position().parse_move(text).unwrap();
        app.world_mut().write_message(GameCommand::Play(mv));
        app.update();
    }
    app.world_mut().write_message(GameCommand::Resign);
    app.update();
    let game = app.world().resource::<Session>().game.clone();
    assert!(game.is_over() && game.ply() == 2, "{:?}", game.move_strings());

    // The analysis, then the check of the game's puzzles, in the background.
    app.world_mut().insert_resource(Session::review(ludus_ai::review::prefix(&game, 0), seats));
    app.world_mut().insert_resource(Analysis::new(game, seats));
    let started = Instant::now();
    while app.world().resource::<Analysis>().game_puzzles().is_none() {
        assert!(started.elapsed() < Duration::from_secs(600), "the analysis and the check take too long");
        app.update();
        std::thread::sleep(Duration::from_millis(5));
    }
    let found = app.world().resource::<Analysis>().game_puzzles().unwrap().to_vec();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!((found[0].ply, found[0].move_number()), (0, 1));
    assert_eq!(found[0].puzzle.line, ["f2-f6"]);

    // "Puzzles from this game".
    let opened = app
        .world_mut()
        .run_system_once(
            |mut commands: Commands, mut next: ResMut<NextState<Screen>>, mut a: ResMut<Analysis>| {
                ludus::screens::puzzles::open_game_puzzles(&mut commands, &mut next, &mut a)
            },
        )
        .unwrap();
    assert!(opened);
    app.update();
    app.update();
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Playing);
    assert!(app.world().get_resource::<Analysis>().is_none(), "the analysis is left");
    let run = app.world().resource::<PuzzleRun>();
    assert_eq!(run.from_game.as_ref().map(|g| (g.move_number, g.rest.len())), Some((1, 0)));
    assert!(app.world().resource::<Session>().human_to_move());

    // The winning move: "Correct"; the rating is not touched.
    play(&mut app, "f2-f6");
    let run = app.world().resource::<PuzzleRun>();
    assert!(run.trainer.solved && !run.trainer.missed, "the puzzle is solved");
    let profile = app.world().resource::<PuzzleProfile>();
    assert!(profile.history.is_empty());
    assert_eq!(profile.rating, PuzzleProfile::default().rating);
}
