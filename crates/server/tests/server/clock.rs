//! The server's own clock, with the wall clock injected: stepped back after start, it refuses
//! no one (tokens expired on arrival for everyone until a restart); far ahead at start, it
//! deletes no unclaimed player (it deleted them all).

use crate::common::*;
use crate::persistence::rejoin;
use ludus_protocol::client::Transport;
use ludus_server::ServerConfig;
use ludus_server::clock::WallClock;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

const HOUR_MS: i64 = 3_600_000;
const YEAR_MS: i64 = 365 * 24 * HOUR_MS;

/// The system's clock moved by the offset in `offset` (milliseconds, negative: behind).
fn shifted(offset: Arc<AtomicI64>) -> WallClock {
    WallClock::from_fn(move || {
        let now = unix_now();
        let off = offset.load(Ordering::Relaxed);
        if off >= 0 {
            now + Duration::from_millis(off as u64)
        } else {
            now.saturating_sub(Duration::from_millis(off.unsigned_abs()))
        }
    })
}

fn config_with(dir: &std::path::Path, offset: Arc<AtomicI64>) -> ServerConfig {
    let mut config = ServerConfig::local(dir);
    config.new_players_per_minute = 0;
    config.wall_clock = shifted(offset);
    config
}

#[test]
fn a_wall_clock_stepped_back_after_start_refuses_no_one() {
    let offset = Arc::new(AtomicI64::new(0));
    let server = spawn(config_with(&data_dir("clock-stepped-back"), offset.clone()));
    let (udp, ws) = (server.udp_addr().unwrap(), server.ws_addr().unwrap());
    let ann = TestClient::signed_in(udp, Transport::Udp, "Ann");
    // An hour back, then a day back: new players and returning ones still sign in.
    for back in [HOUR_MS, 24 * HOUR_MS] {
        offset.store(-back, Ordering::Relaxed);
        TestClient::signed_in(udp, Transport::Udp, "Ben");
        TestClient::signed_in(ws, Transport::WebSocket, "Cy");
    }
    rejoin(udp, Transport::Udp, ann.token(), "Ann");
}

#[test]
fn a_clock_far_ahead_at_start_deletes_no_unclaimed_player() {
    let dir = data_dir("clock-far-ahead");
    let offset = Arc::new(AtomicI64::new(0));
    let token = {
        let server = spawn(config_with(&dir, offset.clone()));
        let ann = TestClient::signed_in(server.udp_addr().unwrap(), Transport::Udp, "Ann");
        ann.token()
    };
    // Ten years ahead at start: Ann's credential looks long expired by that clock.
    offset.store(10 * YEAR_MS, Ordering::Relaxed);
    drop(spawn(config_with(&dir, offset.clone())));
    // The clock put right: Ann is still there.
    offset.store(0, Ordering::Relaxed);
    let server = spawn(config_with(&dir, offset));
    rejoin(server.udp_addr().unwrap(), Transport::Udp, token, "Ann");
}
