//! The end of a game's moment: whose mood it is, and how long it lasts at each animation speed
//! ("Off" goes straight to the card).

use ludus::game::settings::AnimSpeed;
use ludus::screens::game_over::{Mood, moment_progress};
use ludus_rules::{Outcome, Reason, Side};

fn outcome(winner: Option<Side>) -> Outcome {
    Outcome { winner, reason: if winner.is_some() { Reason::Resignation } else { Reason::Repetition } }
}

#[test]
fn the_mood_is_the_person_heres() {
    let first_wins = outcome(Some(Side::First));
    assert_eq!(Mood::of(&first_wins, Some(Side::First)), Mood::Win);
    assert_eq!(Mood::of(&first_wins, Some(Side::Second)), Mood::Loss);
    // Two players on one device, or a spectator: the winner is celebrated by name.
    assert_eq!(Mood::of(&first_wins, None), Mood::Winner(Side::First));
    let drawn = outcome(None);
    assert_eq!(Mood::of(&drawn, Some(Side::Second)), Mood::Draw);
    assert_eq!(Mood::of(&drawn, None), Mood::Draw);
}

#[test]
fn the_moment_follows_the_animation_speed() {
    assert_eq!(moment_progress(0.0, AnimSpeed::Off), None, "Off shows the card at once");
    assert_eq!(moment_progress(0.0, AnimSpeed::Normal), Some(0.0));
    let half = moment_progress(0.9, AnimSpeed::Normal).expect("under way");
    assert!((half - 0.5).abs() < 1e-3, "{half}");
    assert_eq!(moment_progress(1.8, AnimSpeed::Normal), None, "over after 1.8 s");
    assert_eq!(moment_progress(0.9, AnimSpeed::Fast), None, "Fast halves it");
    assert!(moment_progress(1.8, AnimSpeed::Slow).is_some(), "Slow lengthens it");
}
