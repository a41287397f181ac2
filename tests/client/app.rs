//! The game's core plugins in a headless App.

use crate::{data_dir_lock, fresh_data_dir, headless};
use bevy::prelude::*;
use ludus::game::session::{GameCommand, Seats, Session};
use ludus_rules::Variant;

#[test]
fn commands_change_the_session_in_order_and_the_game_is_saved() {
    let _guard = data_dir_lock();
    let dir = fresh_data_dir("app");
    let mut app = headless();
    app.insert_resource(Session::new(Variant::Latrunculi, Seats::two_players()));
    app.update();
    let first = app.world().resource::<Session>().game.position().parse_move("g2-g5").unwrap();
    app.world_mut().write_message(GameCommand::Play(first));
    app.update();
    let second = app.world().resource::<Session>().game.position().parse_move("f7-f4").unwrap();
    app.world_mut().write_message(GameCommand::Play(second));
    // An illegal move (the same move again) is ignored.
    app.world_mut().write_message(GameCommand::Play(second));
    app.update();
    let session = app.world().resource::<Session>();
    assert_eq!(session.game.move_strings(), vec!["g2-g5", "f7-f4"]);
    assert!(dir.join("unfinished-game.json").exists(), "saved after a move");
    app.world_mut().write_message(GameCommand::Undo);
    app.update();
    assert_eq!(app.world().resource::<Session>().game.ply(), 1);
    app.world_mut().write_message(GameCommand::Redo);
    app.update();
    assert_eq!(app.world().resource::<Session>().game.ply(), 2);
    app.world_mut().write_message(GameCommand::NewGame);
    app.update();
    assert_eq!(app.world().resource::<Session>().game.ply(), 0);
}
