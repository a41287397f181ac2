//! What the board tells over its pieces, drawn by the board's own systems in a headless app
//! (meshes and materials as assets, no window): the last move's origin and destination, the
//! fading traces of captured pieces, the computer thinking; and the colours they are drawn in.

use crate::{data_dir_lock, fresh_data_dir, headless};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy::window::RequestRedraw;
use ludus::app::Screen;
use ludus::board::overlay::{Mark, TRACE_SECONDS, trace_opacity};
use ludus::board::palette::Colors;
use ludus::board::view::BoardView;
use ludus::game::session::{GameCommand, HintRequest, Level, Seats, Session};
use ludus::game::settings::{AnimSpeed, Settings, Theme};
use ludus_rules::{AnyGame, AnyMove, AnyPosition, Side, Square, Variant};
use std::time::Duration;

/// The game's core and the board drawn (without its input), on the game screen with `session`.
fn board_app(session: Session, anim: AnimSpeed) -> App {
    let mut app = headless();
    app.add_plugins((AssetPlugin::default(), bevy::state::app::StatesPlugin));
    app.init_asset::<Mesh>().init_asset::<ColorMaterial>().init_asset::<Image>();
    app.insert_resource(ClearColor::default()).add_message::<RequestRedraw>();
    app.add_plugins(ludus::board::view_plugin);
    app.world_mut().resource_mut::<Settings>().anim = anim;
    app.insert_resource(session);
    app.insert_state(Screen::Playing);
    frame(&mut app, 0);
    frame(&mut app, 16);
    app
}

/// One frame that lasts `ms` milliseconds on the clock.
fn frame(app: &mut App, ms: u64) {
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(ms)));
    app.update();
}

/// Frames of 50 ms until the board shows the game, still (at most ten seconds of them).
fn settle(app: &mut App) {
    for _ in 0..200 {
        frame(app, 50);
        let settled = {
            let world = app.world();
            world.resource::<BoardView>().settled(world.resource::<Session>())
        };
        if settled {
            frame(app, 50);
            return;
        }
    }
    panic!("the board never settled");
}

fn marks(app: &mut App) -> Vec<Mark> {
    let mut query = app.world_mut().query::<&Mark>();
    query.iter(app.world()).copied().collect()
}

fn play(app: &mut App, notation: &str) -> AnyMove {
    let game = &app.world().resource::<Session>().game;
    let parsed = game.position().parse_move(notation).expect("a move");
    // The legal move itself, which knows what it captures.
    let mv = game.legal_moves().into_iter().find(|m| m.from() == parsed.from() && m.path() == parsed.path());
    let mv = mv.expect("a legal move");
    app.world_mut().write_message(GameCommand::Play(mv));
    mv
}

#[test]
fn the_last_move_is_marked_where_it_started_and_ended_in_both_games() {
    let _guard = data_dir_lock();
    let _dir = fresh_data_dir("marks-last-move");
    for (variant, notation) in [(Variant::Latrunculi, "g2-g5"), (Variant::Alquerque, "c2-c3")] {
        for anim in [AnimSpeed::Normal, AnimSpeed::Off] {
            let mut app = board_app(Session::new(variant, Seats::two_players()), anim);
            assert!(
                !marks(&mut app).iter().any(|m| matches!(m, Mark::LastFrom(_) | Mark::LastTo(_))),
                "{variant:?}: no last move before the first"
            );
            let mv = play(&mut app, notation);
            settle(&mut app);
            let shown = marks(&mut app);
            let count = |m: Mark| shown.iter().filter(|s| **s == m).count();
            assert_eq!(count(Mark::LastFrom(mv.from())), 1, "{variant:?} {anim:?}: {shown:?}");
            assert_eq!(count(Mark::LastTo(mv.to())), 1, "{variant:?} {anim:?}: {shown:?}");
            // The reply moves the marks.
            let reply = app.world().resource::<Session>().game.legal_moves()[0];
            app.world_mut().write_message(GameCommand::Play(reply));
            settle(&mut app);
            let shown = marks(&mut app);
            assert!(
                shown.contains(&Mark::LastFrom(reply.from())) && shown.contains(&Mark::LastTo(reply.to()))
            );
            assert!(!shown.contains(&Mark::LastFrom(mv.from())), "{variant:?}: the old move's marks go");
        }
    }
}

/// Red (Latrunculi on 8x8) takes the black man on d4 by closing it between c4 and e4.
fn capture_position() -> Session {
    let pos = AnyPosition::parse(Variant::LatrunculiQuick, "B6b/8/8/8/2rb4/8/8/4r2R r").expect("a position");
    Session::from_game(AnyGame::from_position(pos), Seats::two_players())
}

fn traces(app: &mut App) -> Vec<Square> {
    marks(app).into_iter().filter_map(|m| if let Mark::Trace(sq) = m { Some(sq) } else { None }).collect()
}

#[test]
fn a_captured_piece_leaves_a_trace_that_fades_and_goes() {
    let _guard = data_dir_lock();
    let _dir = fresh_data_dir("marks-traces");
    let d4 = Square::parse("d4", 8, 8).expect("d4");
    for anim in [AnimSpeed::Normal, AnimSpeed::Off] {
        let mut app = board_app(capture_position(), anim);
        assert!(traces(&mut app).is_empty());
        let mv = play(&mut app, "e1-e4");
        assert_eq!(mv.captured(), vec![d4], "the move captures d4");
        frame(&mut app, 16);
        frame(&mut app, 16);
        assert!(traces(&mut app).contains(&d4), "{anim:?}: a trace where the piece stood");
        settle(&mut app);
        assert!(traces(&mut app).contains(&d4), "{anim:?}: still there once the board is still");
        // The clock runs on: the trace goes after its time.
        for _ in 0..((TRACE_SECONDS * 10.0) as usize + 2) {
            frame(&mut app, 100);
        }
        assert!(traces(&mut app).is_empty(), "{anim:?}: gone after {TRACE_SECONDS} s");
    }
    // The next move takes it away at once.
    let mut app = board_app(capture_position(), AnimSpeed::Off);
    play(&mut app, "e1-e4");
    frame(&mut app, 16);
    frame(&mut app, 16);
    assert!(traces(&mut app).contains(&d4));
    let legal = app.world().resource::<Session>().game.legal_moves();
    let reply = *legal.iter().find(|m| !m.is_capture()).expect("a quiet reply");
    app.world_mut().write_message(GameCommand::Play(reply));
    frame(&mut app, 16);
    frame(&mut app, 16);
    assert!(!reply.is_capture() && traces(&mut app).is_empty(), "the next move clears the trace");
}

#[test]
fn a_trace_is_full_then_fades_out() {
    assert_eq!(trace_opacity(0.0), 1.0);
    assert_eq!(trace_opacity(TRACE_SECONDS / 2.0), 1.0);
    let late = trace_opacity(TRACE_SECONDS * 0.75);
    assert!(late > 0.0 && late < 1.0, "{late}");
    assert_eq!(trace_opacity(TRACE_SECONDS), 0.0);
}

#[test]
fn the_board_says_when_the_computer_or_the_hint_is_thinking() {
    let _guard = data_dir_lock();
    let _dir = fresh_data_dir("marks-thinking");
    let thinking = |app: &mut App| marks(app).contains(&Mark::Thinking);
    // The computer plays Red and is to move (no computer player runs here: it stays to move).
    let mut app = board_app(
        Session::new(Variant::Latrunculi, Seats::versus_computer(Side::Second, Level::Easy)),
        AnimSpeed::Off,
    );
    settle(&mut app);
    assert!(thinking(&mut app), "the computer is to move");
    // The person's turn: nothing is thinking, until the hint is asked for.
    let mut app = board_app(
        Session::new(Variant::Latrunculi, Seats::versus_computer(Side::First, Level::Easy)),
        AnimSpeed::Off,
    );
    settle(&mut app);
    assert!(!thinking(&mut app), "the person's turn");
    app.world_mut().write_message(HintRequest);
    frame(&mut app, 16);
    frame(&mut app, 16);
    assert!(thinking(&mut app), "the hint is searched");
    let hint = app.world().resource::<Session>().game.legal_moves()[0];
    app.world_mut().resource_mut::<BoardView>().hint = Some(hint);
    frame(&mut app, 16);
    frame(&mut app, 16);
    assert!(!thinking(&mut app), "the hint is shown");
}

/// The relative luminance of an sRGB colour (WCAG).
fn luminance(c: Srgba) -> f32 {
    let lin = |v: f32| if v <= 0.04045 { v / 12.92 } else { ((v + 0.055) / 1.055).powf(2.4) };
    0.2126 * lin(c.red) + 0.7152 * lin(c.green) + 0.0722 * lin(c.blue)
}

fn contrast(a: Srgba, b: Srgba) -> f32 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// `over` (translucent) laid on `under`.
fn blend(over: Color, under: Color) -> Srgba {
    let (o, u) = (over.to_srgba(), under.to_srgba());
    Srgba::rgb(
        o.red * o.alpha + u.red * (1.0 - o.alpha),
        o.green * o.alpha + u.green * (1.0 - o.alpha),
        o.blue * o.alpha + u.blue * (1.0 - o.alpha),
    )
}

#[test]
fn the_last_move_and_the_thinking_dots_have_their_own_colours_in_every_theme() {
    for theme in Theme::ALL {
        let c = Colors::of(theme);
        let (last, selected) = (c.last_move.to_srgba(), c.selected.to_srgba());
        let hue_gap = {
            let (a, b) = (Hsla::from(last).hue, Hsla::from(selected).hue);
            let d = (a - b).abs();
            d.min(360.0 - d)
        };
        assert!(hue_gap > 45.0, "{theme:?}: the last move {last:?} looks like the selection {selected:?}");
        // The marked squares stand out from the squares they are on: by their tint, and in the
        // high contrast theme by their lightness too (3:1, WCAG's measure for what is not text).
        for square in [c.light_square, c.dark_square] {
            let (marked, plain) = (blend(c.last_move, square), square.to_srgba());
            let tint =
                Vec3::new(marked.red - plain.red, marked.green - plain.green, marked.blue - plain.blue);
            assert!(tint.length() > 0.2, "{theme:?}: a marked square's tint {tint}");
            if theme == Theme::Contrast {
                let ratio = contrast(marked, plain);
                assert!(ratio >= 3.0, "{theme:?}: a marked square's contrast {ratio:.2}");
            }
        }
        // The thinking dots are read against the window's background.
        let ratio = contrast(c.thinking.to_srgba(), c.background.to_srgba());
        let needed = if theme == Theme::Contrast { 15.0 } else { 7.0 };
        assert!(ratio >= needed, "{theme:?}: the thinking dots' contrast {ratio:.2}");
    }
}
