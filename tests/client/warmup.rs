//! The first frames' count: the cover goes with the first quick frame after the slow ones.

use crate::{data_dir_lock, fresh_data_dir, headless};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy::window::RequestRedraw;
use ludus::players::warmup::Warmup;
use std::time::Duration;

/// One frame that lasts `ms` milliseconds on the clock.
fn frame(app: &mut App, ms: u64) -> bool {
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(ms)));
    app.update();
    app.world().resource::<Warmup>().drawn()
}

#[test]
fn the_warm_up_judges_the_frame_that_has_just_ended() {
    let _guard = data_dir_lock();
    let _dir = fresh_data_dir("warmup");
    let mut app = headless();
    app.add_message::<RequestRedraw>().add_plugins(ludus::players::warmup::plugin);
    // The clock's first update starts it (no time passes); then slow frames, as a browser's
    // first ones, which compile shaders.
    assert!(!frame(&mut app, 0), "the clock's first update ends nothing");
    for _ in 0..4 {
        assert!(!frame(&mut app, 300), "a slow frame keeps the cover");
    }
    // The first quick frame is the steady one, not the frame after it (which it would be if the
    // count read the clock before its update, a frame late).
    assert!(frame(&mut app, 10), "the first quick frame after the slow ones ends the warm-up");
}
