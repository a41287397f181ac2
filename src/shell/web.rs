//! The browser page's view of the game (wasm only): after every frame that changed something,
//! the game's state as JSON in a hidden `<pre id="ludus-state">`, for tests and tools. It holds
//! the screen, the game, whose turn it is, the board's place on the page (CSS pixels from the
//! canvas's top left) and, when a person is to move, every legal move with the points to tap.

use crate::app::Screen;
use crate::board::view::{BoardLayout, BoardView};
use crate::game::selection::Selected;
use crate::game::session::Session;
use crate::net::connection::{Link, LinkState};
use crate::net::sync::OnlineGame;
use crate::net::views::{Lobby, NetNotice, Waiting};
use crate::players::computer::Thinking;
use bevy::prelude::*;
use ludus_rules::{Side, Square};
use serde::Serialize;

/// The id of the element that holds the state.
pub const STATE_ELEMENT: &str = "ludus-state";

#[derive(Serialize, PartialEq)]
struct PageState {
    /// `title`, `rules`, `settings`, `playing`, `online`, `analysis` or `records`.
    screen: &'static str,
    /// Milliseconds from the page's start to the first frame ready for the person: the first,
    /// slow frames over (see `warmup`), the board (if any) drawn and still. The cover goes then.
    ready_ms: Option<f64>,
    /// The steps of the start, for the browser test's breakdown.
    start: StartSteps,
    /// On the title screen: whether it shows everything without scrolling.
    title_fits: Option<bool>,
    game: Option<GameState>,
    /// The connection to a server, when there is one.
    online: Option<OnlineState>,
    /// Where some of the panel's buttons are (see [`crate::ui::TapTargets`]).
    taps: std::collections::BTreeMap<&'static str, [f32; 2]>,
    /// What the page's document for screen readers shows (`web/index.html` keeps it in step).
    access: AccessState,
    /// The turn-based games waiting for the player's move, and the notice that says so in the
    /// player's language: the page sets the installed app's badge and shows a system notice
    /// when the count goes up.
    turns: Option<TurnsState>,
}

#[derive(Serialize, PartialEq)]
struct TurnsState {
    count: u32,
    text: String,
    /// The page's title with the count (the window's title on the desktop).
    title: String,
    /// The codes of the player's own pending challenges (for the browser test).
    mine: Vec<String>,
}

/// The page's document for screen readers: the player's language, the newest announcement, and
/// on the game screen the board (each square's words and the point to tap, the top rank first)
/// and the keys of the game screen with their names.
#[derive(Serialize, PartialEq, Clone)]
struct AccessState {
    lang: &'static str,
    said: String,
    serial: u64,
    board: Option<AccessBoard>,
    /// `[key code, name]` of the game screen's reading and action keys.
    keys: Vec<(&'static str, String)>,
    /// The page's links that start a game, with their names: `[query, name]`.
    starts: Vec<(String, String)>,
    /// The names the document's parts and its move field go by.
    words: AccessWords,
}

#[derive(Serialize, PartialEq, Clone)]
struct AccessBoard {
    label: String,
    rows: Vec<Vec<(String, [f32; 2])>>,
}

#[derive(Serialize, PartialEq, Clone)]
struct AccessWords {
    heading: String,
    moves: String,
    start: String,
    title: String,
    not_legal: String,
}

/// A screen's name in the page's state.
fn screen_name(screen: Screen) -> &'static str {
    match screen {
        Screen::Title => "title",
        Screen::Rules => "rules",
        Screen::Settings => "settings",
        Screen::Playing => "playing",
        Screen::Online => "online",
        Screen::Analysis => "analysis",
        Screen::Records => "records",
        Screen::Language => "language",
        Screen::Lessons => "lessons",
        Screen::Profile => "profile",
        Screen::Puzzles => "puzzles",
    }
}

/// What the page's document for screen readers depends on.
#[derive(PartialEq)]
struct AccessKey {
    lang: &'static str,
    screen: &'static str,
    game: Option<(u64, usize)>,
    layout: [f32; 3],
    serial: u64,
}

fn access_state(
    lang: crate::i18n::Lang,
    screen: Screen,
    session: Option<&Session>,
    layout: &BoardLayout,
    said: &crate::ui::announce::Announcement,
) -> AccessState {
    use crate::game::describe;
    let board = match (screen, session) {
        (Screen::Playing, Some(session)) if layout.width == session.game.position().width() => {
            let pos = session.game.position();
            let (w, h) = (pos.width(), pos.height());
            let variant = session.game.variant();
            Some(AccessBoard {
                label: lang.fmt(
                    "a11y-board",
                    [("game", lang.text(crate::ui::widgets::variant_key(variant)).into())],
                ),
                rows: (0..h)
                    .rev()
                    .map(|rank| {
                        (0..w)
                            .map(|file| {
                                let sq = Square::new(file, rank, w);
                                (describe::square_text(lang, &pos, sq), point(layout, sq))
                            })
                            .collect()
                    })
                    .collect(),
            })
        }
        _ => None,
    };
    let keys = if board.is_some() {
        vec![
            ("KeyP", lang.t("a11y-key-position").to_string()),
            ("KeyL", lang.t("a11y-key-last").to_string()),
            ("KeyM", lang.t("a11y-key-mine").to_string()),
            ("KeyO", lang.t("a11y-key-theirs").to_string()),
            ("KeyC", lang.t("a11y-key-captures").to_string()),
            ("KeyT", lang.t("a11y-key-status").to_string()),
            ("KeyU", lang.t("hud-undo").to_string()),
            ("KeyH", lang.t("hud-hint").to_string()),
            ("KeyN", lang.t("hud-new-game").to_string()),
        ]
    } else {
        Vec::new()
    };
    let mut starts = Vec::new();
    for variant in [ludus_rules::Variant::Alquerque, ludus_rules::Variant::Latrunculi] {
        let game = lang.text(crate::ui::widgets::variant_key(variant));
        for (level, name) in [
            ("easy", lang.t("level-easy")),
            ("medium", lang.t("level-medium")),
            ("hard", lang.t("level-hard")),
        ] {
            starts.push((
                format!("?game={}&level={level}", variant.name()),
                lang.fmt("a11y-start", [("game", game.into()), ("level", name.into())]),
            ));
        }
    }
    AccessState {
        lang: lang.code(),
        said: said.text.clone(),
        serial: said.serial,
        board,
        keys,
        starts,
        words: AccessWords {
            heading: lang.t("a11y-page").to_string(),
            moves: lang.t("a11y-move-field").to_string(),
            start: lang.t("a11y-starts").to_string(),
            title: lang.t("a11y-to-title").to_string(),
            not_legal: lang.t("a11y-not-legal").to_string(),
        },
    }
}

#[derive(Serialize, PartialEq)]
struct OnlineState {
    /// `connecting`, `signed-in`, `reconnecting`, `failed` or `offline`.
    phase: &'static str,
    /// The device says it has no network (the online screen then says so).
    no_network: bool,
    server: String,
    nickname: Option<String>,
    /// A room code or `queue` while waiting for an opponent.
    waiting: Option<String>,
    /// The online game on the board: its id and `first`, `second` or `spectator`.
    game: Option<(u64, &'static str)>,
    /// The last refusal from the server.
    notice: Option<String>,
    /// The chat lines heard in the online game (`Nickname: Phrase(GoodGame)`).
    chat: Vec<String>,
}

fn online_state(net: &Link, views: (&Lobby, &NetNotice), game: Option<&OnlineGame>) -> Option<OnlineState> {
    let (lobby, notice) = views;
    if net.phase == LinkState::Offline {
        return None;
    }
    Some(OnlineState {
        phase: match net.phase {
            LinkState::Offline => "offline",
            LinkState::Connecting => "connecting",
            LinkState::SignedIn => "signed-in",
            LinkState::Reconnecting(_) => "reconnecting",
            LinkState::Failed(_) => "failed",
        },
        server: net.server.clone(),
        nickname: net.nickname.clone(),
        waiting: lobby.waiting.as_ref().map(|w| match w {
            Waiting::Room { code, .. } => code.clone(),
            Waiting::Queue { .. } => "queue".to_string(),
        }),
        game: game.map(|g| (g.id.0, g.local_side().map_or("spectator", side_name))),
        notice: notice.0.as_ref().map(|(code, text)| format!("{code:?}: {text}")),
        no_network: !crate::platform::network_available(),
        chat: game
            .map(|g| g.chat.iter().map(|l| format!("{}: {:?}", l.nickname, l.text)).collect())
            .unwrap_or_default(),
    })
}

#[derive(Serialize, PartialEq)]
struct GameState {
    variant: &'static str,
    moves: Vec<String>,
    /// `first` or `second`; `null` once the game is over.
    to_move: Option<&'static str>,
    /// `first`, `second` or `draw`, and why.
    outcome: Option<(&'static str, String)>,
    /// Who plays each side: `human`, `easy`, `medium` or `hard`.
    players: [&'static str; 2],
    /// The computer is searching for its move.
    thinking: bool,
    /// The board shows the game's position and nothing moves.
    settled: bool,
    /// A person can play now.
    interactive: bool,
    board: BoardState,
    /// The selected piece and the landing points tapped so far.
    selected: Vec<[f32; 2]>,
    /// The legal moves while a person is to move: notation, start and landing points.
    legal: Vec<LegalMove>,
    /// What became of the presses on the board (a test that taps reads why a tap did nothing).
    presses: Presses,
}

#[derive(Serialize, PartialEq)]
struct Presses {
    /// Presses the board has seen.
    seen: u32,
    /// Of those, the ones the interface took (egui held the pointer or had it over a panel).
    on_interface: u32,
    /// Where the last one was.
    last: Option<[f32; 2]>,
    /// Egui holds or hovers the pointer now.
    interface_now: bool,
    /// Touches held down now.
    touches_down: usize,
}

#[derive(Serialize, PartialEq)]
struct BoardState {
    center: [f32; 2],
    cell: f32,
    width: u8,
    height: u8,
    flipped: bool,
}

#[derive(Serialize, PartialEq)]
struct LegalMove {
    notation: String,
    /// Where to tap: the piece, then every landing point.
    taps: Vec<[f32; 2]>,
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "first",
        Side::Second => "second",
    }
}

fn point(layout: &BoardLayout, sq: Square) -> [f32; 2] {
    let p = layout.to_screen(sq);
    [(p.x * 10.0).round() / 10.0, (p.y * 10.0).round() / 10.0]
}

fn game_state(
    session: &Session,
    layout: &BoardLayout,
    view: &BoardView,
    selected: &Selected,
    thinking: bool,
    presses: Presses,
) -> GameState {
    use crate::game::session::{Level, Player};
    let game = &session.game;
    let settled = view.settled(session);
    let interactive = settled && session.can_touch();
    let pos = game.position();
    let legal = if interactive {
        game.legal_moves()
            .iter()
            .map(|mv| LegalMove {
                notation: pos.move_to_string(mv).unwrap_or_default(),
                taps: std::iter::once(mv.from()).chain(mv.path()).map(|sq| point(layout, sq)).collect(),
            })
            .collect()
    } else {
        Vec::new()
    };
    let player = |side: Side| match session.seats.player(side) {
        Player::Human => "human",
        Player::Remote => "remote",
        Player::Computer(Level::Easy) => "easy",
        Player::Computer(Level::Medium) => "medium",
        Player::Computer(Level::Hard) => "hard",
        Player::Computer(Level::Random) => "random",
    };
    GameState {
        variant: game.variant().name(),
        moves: game.move_strings(),
        to_move: (!game.is_over()).then(|| side_name(game.side_to_move())),
        outcome: game.outcome().map(|o| (o.winner.map_or("draw", side_name), format!("{:?}", o.reason))),
        players: [player(Side::First), player(Side::Second)],
        thinking,
        settled,
        interactive,
        board: BoardState {
            center: [layout.center.x, layout.center.y],
            cell: layout.cell,
            width: layout.width,
            height: layout.height,
            flipped: layout.flipped,
        },
        selected: selected
            .0
            .iter()
            .flat_map(|s| std::iter::once(s.from).chain(s.partial.iter().copied()))
            .map(|sq| point(layout, sq))
            .collect(),
        legal,
        presses,
    }
}

/// The steps of the page's start, in milliseconds from the page's start (`performance.now()`):
/// the end of the first frame, of each frame after it until the page is ready, and the ready
/// frame. The game and the empty baseline page (`src/bin/web-baseline.rs`) record them alike.
#[derive(Resource, Serialize, Default, Clone, PartialEq, Debug)]
pub struct StartSteps {
    pub first_frame_ms: Option<f64>,
    pub frames_ms: Vec<f64>,
    pub ready_ms: Option<f64>,
}

impl StartSteps {
    /// Notes the end of one frame (called in `Last`), and whether the page is ready with it.
    /// Changes nothing once ready.
    pub fn frame(&mut self, ready: bool) {
        if self.ready_ms.is_some() {
            return;
        }
        let Some(now) = now_ms() else { return };
        self.first_frame_ms.get_or_insert(now);
        self.frames_ms.push((now * 10.0).round() / 10.0);
        if ready {
            self.ready_ms = Some(now);
        }
    }
}

/// Writes `state` as JSON into the page's state element.
pub fn write_state<T: Serialize>(state: &T) {
    match (serde_json::to_string(state), element()) {
        (Ok(json), Some(e)) => e.set_text_content(Some(&json)),
        (Err(e), _) => warn!("the page state could not be encoded: {e}"),
        (_, None) => {}
    }
}

fn element() -> Option<web_sys::Element> {
    let document = web_sys::window()?.document()?;
    if let Some(e) = document.get_element_by_id(STATE_ELEMENT) {
        return Some(e);
    }
    let e = document.create_element("pre").ok()?;
    e.set_id(STATE_ELEMENT);
    e.set_attribute("hidden", "").ok()?;
    document.body()?.append_child(&e).ok()?;
    Some(e)
}

fn now_ms() -> Option<f64> {
    Some(web_sys::window()?.performance()?.now())
}

fn publish(
    screen: Res<State<Screen>>,
    session: Option<Res<Session>>,
    layout: Res<BoardLayout>,
    view: Res<BoardView>,
    selected: Res<Selected>,
    thinking: Res<Thinking>,
    net: Res<Link>,
    views: (Res<Lobby>, Res<NetNotice>),
    online: Option<Res<OnlineGame>>,
    (warmup, title_fits): (Res<crate::players::warmup::Warmup>, Res<crate::screens::title::TitleFits>),
    (settings, said, turns): (
        Res<crate::game::settings::Settings>,
        Res<crate::ui::announce::Announcement>,
        Option<Res<crate::net::views::TurnGames>>,
    ),
    taps: Res<crate::ui::TapTargets>,
    press_log: Res<crate::board::input::PressLog>,
    (egui, touches): (Option<Res<bevy_egui::input::EguiWantsInput>>, Res<Touches>),
    mut steps: ResMut<StartSteps>,
    (mut last, mut access): (Local<Option<PageState>>, Local<Option<(AccessKey, AccessState)>>),
) {
    let screen = *screen.get();
    let game = match (&session, screen) {
        (Some(session), Screen::Playing) => {
            let presses = Presses {
                seen: press_log.presses,
                on_interface: press_log.over_ui,
                last: press_log.last.map(|p| [(p.x * 10.0).round() / 10.0, (p.y * 10.0).round() / 10.0]),
                interface_now: egui
                    .as_ref()
                    .is_some_and(|e| e.wants_pointer_input() || e.is_pointer_over_area()),
                touches_down: touches.iter().count(),
            };
            Some(game_state(session, &layout, &view, &selected, thinking.active, presses))
        }
        _ => None,
    };
    // Ready once the first, slow frames are over (the page's cover hides them) and the board,
    // if any, is drawn and still. The search may still be warming up (the computer waits).
    let ready = warmup.drawn()
        && match (screen, &game) {
            (Screen::Playing, Some(g)) => g.settled,
            (Screen::Playing, None) => false,
            _ => true,
        };
    if steps.ready_ms.is_none() {
        steps.frame(ready);
    }
    let state = PageState {
        screen: screen_name(screen),
        ready_ms: steps.ready_ms,
        start: steps.clone(),
        title_fits: if screen == Screen::Title { title_fits.0 } else { None },
        game,
        online: online_state(&net, (&views.0, &views.1), online.as_deref()),
        taps: taps.0.clone(),
        turns: turns.and_then(|t| {
            let view = t.0.as_ref()?;
            let count = t.your_turn();
            Some(TurnsState {
                count,
                text: settings.lang.fmt("title-your-turn", [("count", count.into())]),
                title: crate::shell::title_text(settings.lang, count),
                mine: view.outgoing.iter().map(|c| c.code.clone()).collect(),
            })
        }),
        access: {
            // Made again only when what it shows changed: not in every frame of an animation.
            let key = AccessKey {
                lang: settings.lang.code(),
                screen: screen_name(screen),
                game: session.as_deref().map(|s| (s.game.position().hash(), s.game.ply())),
                layout: [layout.center.x, layout.center.y, layout.cell],
                serial: said.serial,
            };
            match access.as_ref().filter(|(k, _)| *k == key) {
                Some((_, made)) => made.clone(),
                None => {
                    let made = access_state(settings.lang, screen, session.as_deref(), &layout, &said);
                    *access = Some((key, made.clone()));
                    made
                }
            }
        },
    };
    if last.as_ref() == Some(&state) {
        return;
    }
    write_state(&state);
    *last = Some(state);
}

pub fn plugin(app: &mut App) {
    app.init_resource::<StartSteps>().add_systems(Last, publish);
}
