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

/// The card speaks to the person who played: "You win" / "You lose" against the computer, the
/// winner's side named between two players on one device, in both languages.
#[test]
fn the_card_says_you_win_or_you_lose_and_names_the_winner_between_two_players() {
    use ludus::i18n::Lang;
    use ludus::screens::game_over::card_title;
    use ludus_rules::Variant;
    let first_wins = outcome(Some(Side::First));
    let v = Variant::Alquerque;
    assert_eq!(card_title(Lang::En, v, &first_wins, Some(Side::First)), "You win");
    assert_eq!(card_title(Lang::En, v, &first_wins, Some(Side::Second)), "You lose");
    assert_eq!(card_title(Lang::En, v, &first_wins, None), "White wins");
    assert_eq!(card_title(Lang::En, v, &outcome(None), Some(Side::First)), "Draw");
    assert_eq!(card_title(Lang::En, Variant::Latrunculi, &outcome(Some(Side::Second)), None), "Black wins");
    for lang in [Lang::En, Lang::Vi] {
        let win = card_title(lang, v, &first_wins, Some(Side::First));
        let loss = card_title(lang, v, &first_wins, Some(Side::Second));
        let named = card_title(lang, v, &first_wins, None);
        assert!(win != loss && win != named && loss != named, "{lang:?}: {win} / {loss} / {named}");
    }
}
