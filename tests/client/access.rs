//! The game for a player who does not see it: the desktop's AccessKit tree holds the board as a
//! grid of named cells that follows the game, and a live region reads the announcements; the
//! announcements say each move (a chain's every landing and every piece taken) and the status.

use bevy::math::{Rect, Vec2};
use bevy_egui::egui;
use bevy_egui::egui::accesskit::{Live, Node, Role};
use ludus::board::layout::BoardLayout;
use ludus::i18n::Lang;
use ludus::screens::access::{AccessView, access_nodes};
use ludus_rules::{AnyGame, AnyPosition, Variant};

/// The AccessKit nodes of one frame showing `pos` (or no board) and `announcement`.
fn tree(lang: Lang, pos: Option<&AnyPosition>, announcement: &str) -> Vec<Node> {
    let ctx = egui::Context::default();
    ctx.enable_accesskit();
    let layouts = pos.map(|p| {
        let points = matches!(p, AnyPosition::Alquerque(_));
        BoardLayout::fit(
            Rect::from_corners(Vec2::ZERO, Vec2::new(900.0, 700.0)),
            p.width(),
            p.height(),
            points,
            false,
        )
    });
    let board = pos.zip(layouts.as_ref());
    let input = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 800.0))),
        ..Default::default()
    };
    let mut out =
        ctx.run_ui(input, |ui| access_nodes(ui.ctx(), &AccessView { lang, board, announcement, serial: 1 }));
    out.textures_delta.clear();
    let update = out.platform_output.accesskit_update.expect("AccessKit is on");
    update.nodes.into_iter().map(|(_, node)| node).collect()
}

fn cells(nodes: &[Node]) -> Vec<String> {
    nodes
        .iter()
        .filter(|n| n.role() == Role::GridCell)
        .map(|n| n.label().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn the_board_is_a_grid_of_named_cells_that_changes_after_a_move() {
    for (variant, count) in
        [(Variant::Latrunculi, 96), (Variant::LatrunculiQuick, 64), (Variant::Alquerque, 25)]
    {
        let mut game = AnyGame::new(variant);
        let nodes = tree(Lang::En, Some(&game.position()), "");
        let grid = nodes.iter().find(|n| n.role() == Role::Grid).expect("a grid");
        assert_eq!(grid.row_count().zip(grid.column_count()).map(|(r, c)| r * c), Some(count));
        let before = cells(&nodes);
        assert_eq!(before.len(), count, "{variant:?}");
        let names: std::collections::BTreeSet<&str> =
            before.iter().map(|c| c.split(',').next().unwrap_or_default()).collect();
        assert_eq!(names.len(), count, "{variant:?}: every square named once");
        // Every cell lies where the board is drawn: inside the grid's bounds.
        let whole = grid.bounds().expect("the grid's place");
        for cell in nodes.iter().filter(|n| n.role() == Role::GridCell) {
            let b = cell.bounds().expect("a cell's place");
            assert!(
                b.x0 >= whole.x0 - 0.5
                    && b.x1 <= whole.x1 + 0.5
                    && b.y0 >= whole.y0 - 0.5
                    && b.y1 <= whole.y1 + 0.5
            );
        }
        let mv = game.legal_moves()[0];
        let (from, to) = (mv.from().name(game.position().width()), mv.to().name(game.position().width()));
        game.play(&mv).expect("a legal move");
        let after = cells(&tree(Lang::En, Some(&game.position()), ""));
        let changed: Vec<&String> = after.iter().filter(|c| !before.contains(c)).collect();
        assert!(changed.iter().any(|c| c.starts_with(&format!("{from}, empty"))), "{changed:?}");
        assert!(changed.iter().any(|c| c.starts_with(&format!("{to}, "))), "{changed:?}");
    }
    let vi = cells(&tree(Lang::Vi, Some(&Variant::Latrunculi.start()), ""));
    assert!(vi.contains(&"g2, vua đỏ".to_string()), "{vi:?}");
}

#[test]
fn the_live_region_reads_the_newest_announcement_on_every_screen() {
    for board in [None, Some(Variant::Alquerque.start())] {
        let nodes = tree(Lang::Vi, board.as_ref(), "Trắng đi quân từ b2 đến c3.");
        let live = nodes.iter().find(|n| n.live() == Some(Live::Polite)).expect("a live region");
        assert_eq!(live.label(), Some("Trắng đi quân từ b2 đến c3."));
        assert_eq!(nodes.iter().any(|n| n.role() == Role::Grid), board.is_some());
    }
}

#[test]
fn a_move_is_told_with_its_captures_then_the_status() {
    use ludus::ui::announce::{play_news, sentences};
    let start = AnyPosition::parse(Variant::Alquerque, "BBBBB/1B1B1/BBB1W/WWWWW/WWWWW w").unwrap();
    let mut game = AnyGame::from_position(start);
    game.play_str("c2xc4xa4").unwrap();
    let news = play_news(Lang::En, &game, Some(0), &["Black to move: a capture is compulsory".to_string()]);
    assert_eq!(
        news,
        "White moves the piece from c2, jumping to c4, then a4, capturing the black piece on c3 and the \
         black piece on b4. Black to move: a capture is compulsory."
    );
    game.play_str("b5-b4").ok();
    game.undo();
    game.undo();
    let news = play_news(Lang::Vi, &game, Some(2), &["Lượt của Trắng".to_string()]);
    assert_eq!(news, "Đã lùi 2 nước. Lượt của Trắng.");
    let news =
        play_news(Lang::En, &game, Some(1), &["Your move (White)".to_string(), "Mind the king".to_string()]);
    assert_eq!(news, "Move taken back. Your move (White). Mind the king.");
    // Status lines become sentences, each with its stop.
    assert_eq!(sentences(&["A".to_string(), "B!".to_string(), " ".to_string()]), "A. B!");
}

/// Online with a time control, T reads both clocks as they stand now (the running one counted
/// down since the server said it).
#[test]
fn the_clocks_of_an_online_game_are_read() {
    use ludus::game::session::{Seats, Session};
    use ludus::net::sync::OnlineGame;
    use ludus::ui::announce::clocks_text;
    use ludus_protocol::{ClockView, GameId, GameView, PlayerId, PlayerInfo, Role};
    use ludus_rules::Side;
    let player = |n: u64, name: &str| PlayerInfo {
        id: PlayerId(n),
        nickname: name.to_string(),
        connected: true,
        rating: None,
    };
    let mut view = GameView {
        game: GameId(3),
        room: "ABCDEF".into(),
        variant: Variant::Alquerque,
        start: Variant::Alquerque.start().to_string(),
        moves: Vec::new(),
        players: [player(1, "Ann"), player(2, "Bea")],
        role: Role::Player(Side::First),
        clock: None,
        clocks: Some(ClockView { remaining_ms: [272_000, 190_000], running: Some(Side::First) }),
        outcome: None,
        spectators: 0,
        public: false,
        proposals: Vec::new(),
        your_proposal: None,
        rated: false,
    };
    let session = Session::new(Variant::Alquerque, Seats::online(Some(Side::First)));
    let online = OnlineGame::from_view(&view, 10.0);
    assert_eq!(
        clocks_text(Lang::En, &session, &online, 12.0).as_deref(),
        Some("Clocks: White 4:30, Black 3:10.")
    );
    assert_eq!(
        clocks_text(Lang::Vi, &session, &online, 12.0).as_deref(),
        Some("Đồng hồ: Trắng 4:30, Đen 3:10.")
    );
    view.clocks = None;
    assert_eq!(clocks_text(Lang::En, &session, &OnlineGame::from_view(&view, 10.0), 12.0), None, "untimed");
}

/// A draw offered, then declined, is announced with the side that did it; nothing is said again
/// while nothing changes.
#[test]
fn draw_offers_are_announced() {
    use bevy::prelude::*;
    use ludus::app::Screen;
    use ludus::game::session::{Seats, Session};
    use ludus::ui::announce::Announcement;
    use ludus_rules::Side;
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, bevy::state::app::StatesPlugin))
        .init_state::<Screen>()
        .insert_resource(ludus::game::settings::Settings::default())
        .init_resource::<ButtonInput<KeyCode>>()
        .add_plugins(ludus::ui::announce::plugin);
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Playing);
    app.insert_resource(Session::new(Variant::Alquerque, Seats::two_players()));
    app.update();
    app.update();
    let said = |app: &App| app.world().resource::<Announcement>().text.clone();
    let serial = |app: &App| app.world().resource::<Announcement>().serial;
    app.world_mut().resource_mut::<Session>().draw.open = Some(Side::First);
    app.update();
    assert_eq!(said(&app), "White offers a draw.");
    let after_offer = serial(&app);
    app.update();
    assert_eq!(serial(&app), after_offer, "said once");
    {
        let mut session = app.world_mut().resource_mut::<Session>();
        session.draw.open = None;
        session.draw.declined_by = Some(Side::Second);
    }
    app.update();
    assert_eq!(said(&app), "Black declined the draw.");
}
