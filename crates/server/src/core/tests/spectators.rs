//! The spectator count: sent at once after a quiet interval, held back within it, and the
//! latest always sent once it has passed.

use super::Harness;
use crate::core::{ConnId, Limits, SPECTATOR_COUNT_INTERVAL};
use ludus_protocol::{ClientMessage, GameId, ServerMessage};
use ludus_rules::Variant;
use std::collections::HashMap;
use std::time::Duration;

/// The spectator counts among `all`: (connection, game, count), in order.
fn counts(all: &[(ConnId, ServerMessage)]) -> Vec<(ConnId, GameId, u32)> {
    all.iter()
        .filter_map(|(c, m)| match m {
            ServerMessage::Spectators { game, count } => Some((*c, *game, *count)),
            _ => None,
        })
        .collect()
}

fn counts_to(all: &[(ConnId, ServerMessage)], conn: ConnId) -> Vec<u32> {
    counts(all).into_iter().filter(|(c, _, _)| *c == conn).map(|(_, _, n)| n).collect()
}

#[test]
fn a_join_after_a_quiet_interval_is_counted_at_once_and_one_within_it_when_it_ends() {
    let mut h = Harness::new(Limits::default());
    let (first, second, view) = h.quick_game(None);
    let game = view.game;
    h.sign_in(10, "Sam");
    h.sign_in(11, "Sue");
    h.advance(SPECTATOR_COUNT_INTERVAL);
    h.all();

    h.send(10, &ClientMessage::Watch { game });
    let all = h.all();
    for conn in [first, second, 10] {
        assert_eq!(counts_to(&all, conn), vec![1], "connection {conn} is told at once");
    }

    // A second join within the interval: held back until the interval has passed, then sent.
    h.advance(Duration::from_millis(100));
    h.send(11, &ClientMessage::Watch { game });
    assert!(counts(&h.all()).is_empty(), "held back");
    h.advance(SPECTATOR_COUNT_INTERVAL - Duration::from_millis(200));
    assert!(counts(&h.all()).is_empty(), "still held back");
    h.advance(Duration::from_millis(100));
    let all = h.all();
    for conn in [first, second, 10, 11] {
        assert_eq!(counts_to(&all, conn), vec![2], "connection {conn} is told when the interval ends");
    }

    // Nothing changes: nothing more is sent.
    h.advance(SPECTATOR_COUNT_INTERVAL * 3);
    assert!(counts(&h.all()).is_empty(), "no change, no count");
}

/// Players of game A (connections 1 and 2) and B (3 and 4).
const PLAYERS: [ConnId; 4] = [1, 2, 3, 4];
/// Spectators (from connection 10 on), all watching A at first.
const WATCHERS: u64 = 30;
const SWITCHES: u64 = 200;

/// What a burst of watch switches sent.
struct Burst {
    /// Spectator counts sent in all, the burst and the update after it.
    sent: usize,
    /// Most counts sent to one connection within the burst's second.
    most_to_one: usize,
    /// Whether each connection's last count is the right one for its game after the burst.
    right_at_the_end: bool,
}

/// Two games, [`WATCHERS`] spectators switching between them [`SWITCHES`] times within one
/// second, with the spectator count sent at most every `interval` per game.
fn burst(interval: Duration) -> Burst {
    let limits = Limits { spectator_count_interval: interval, ..Limits::default() };
    let mut h = Harness::new(limits);
    let (_, _, view) = h.quick_game(None);
    let a = view.game;
    h.sign_in(3, "Cat");
    h.sign_in(4, "Dan");
    for conn in [3, 4] {
        h.send(conn, &ClientMessage::FindMatch { variant: Variant::Latrunculi, clock: None, rated: false });
    }
    let b = h
        .all()
        .into_iter()
        .find_map(|(_, m)| match m {
            ServerMessage::Game(v) => Some(v.game),
            _ => None,
        })
        .expect("the second game starts");
    assert_ne!(a, b);
    let watchers: Vec<ConnId> = (10..10 + WATCHERS).collect();
    let mut at: HashMap<ConnId, GameId> = HashMap::new();
    for &conn in &watchers {
        h.sign_in(conn, &format!("Fan{conn}"));
        h.send(conn, &ClientMessage::Watch { game: a });
        at.insert(conn, a);
    }
    h.advance(SPECTATOR_COUNT_INTERVAL * 2);
    h.all();
    // A quiet interval: the burst's first changes are sent at once.
    h.advance(SPECTATOR_COUNT_INTERVAL);
    assert!(counts(&h.all()).is_empty());

    // The burst: a switch every 4 ms (200 in 0.8 s), the timers running between them; the
    // counts sent until just before one second has passed since the first switch.
    let mut sent = 0;
    let mut to_each: HashMap<ConnId, usize> = HashMap::new();
    let mut last: HashMap<(ConnId, GameId), u32> = HashMap::new();
    let mut keep = |all: Vec<(ConnId, ServerMessage)>, in_second: bool| {
        for (conn, game, count) in counts(&all) {
            sent += 1;
            if in_second {
                *to_each.entry(conn).or_default() += 1;
            }
            last.insert((conn, game), count);
        }
    };
    for i in 0..SWITCHES {
        let conn = watchers[(i % WATCHERS) as usize];
        let to = if at[&conn] == a { b } else { a };
        h.send(conn, &ClientMessage::Watch { game: to });
        at.insert(conn, to);
        h.advance(Duration::from_millis(4));
        keep(h.all(), true);
    }
    h.advance(Duration::from_millis(199));
    keep(h.all(), true);
    assert!(h.all().iter().all(|(_, m)| !matches!(m, ServerMessage::Error { .. })), "no switch was refused");
    // After the interval: the latest counts.
    h.advance(interval.max(Duration::from_millis(1)));
    keep(h.all(), false);

    let on = |g: GameId| at.values().filter(|&&x| x == g).count() as u32;
    let (on_a, on_b) = (on(a), on(b));
    assert_eq!(on_a + on_b, WATCHERS as u32);
    assert_ne!(on_a, WATCHERS as u32, "the burst moved some spectators for good");
    let right =
        |conn: ConnId, game: GameId| last.get(&(conn, game)) == Some(&if game == a { on_a } else { on_b });
    let right_at_the_end = [1, 2].iter().all(|&c| right(c, a))
        && [3, 4].iter().all(|&c| right(c, b))
        && watchers.iter().all(|&c| right(c, at[&c]));
    let most_to_one = PLAYERS.iter().chain(&watchers).map(|c| to_each.get(c).copied().unwrap_or(0)).max();
    Burst { sent, most_to_one: most_to_one.unwrap_or(0), right_at_the_end }
}

#[test]
fn a_burst_of_watch_switches_sends_each_connection_two_counts_a_second_and_the_last_after() {
    let throttled = burst(SPECTATOR_COUNT_INTERVAL);
    let at_once = burst(Duration::ZERO);
    println!(
        "spectator counts sent for {SWITCHES} watch switches within one second (2 games, 4 players, \
         {WATCHERS} spectators): {} when every change is sent at once (most to one connection in \
         the second: {}), {} at most every {:?} per game (most to one connection: {})",
        at_once.sent, at_once.most_to_one, throttled.sent, SPECTATOR_COUNT_INTERVAL, throttled.most_to_one
    );
    assert!(throttled.most_to_one <= 2, "at most 2 counts to a connection in the second");
    assert!(throttled.right_at_the_end, "the latest counts arrive once the interval has passed");
    assert!(at_once.right_at_the_end);
    assert!(throttled.sent * 10 < at_once.sent, "{} against {}", throttled.sent, at_once.sent);
}
