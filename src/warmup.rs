//! The first frames of the board: the browser compiles shaders and the game's code as they are
//! first used, so a page's first frames are slow (150 to 460 ms each in headless Chromium with
//! software WebGL, against 17 ms once warm). They are drawn behind the page's loading cover, and
//! the computer starts thinking only once frames come steadily: the person sees the board
//! settle, then the computer's move, never a stutter while it thinks. On the desktop this takes
//! a few frames.

use crate::screens::Screen;
use bevy::prelude::*;
use bevy::window::RequestRedraw;

/// Frames a screen draws before it can count as warm.
const MIN_FRAMES: u32 = 3;
/// A frame at least this long (seconds) still counts as warming up.
const STEADY_SECS: f32 = 0.1;
/// Warm after this long whatever the frames (seconds): a slow device stays slow.
const MAX_WAIT_SECS: f32 = 2.0;

/// Whether the frames come steadily since the game started or the board was last opened.
#[derive(Resource, Default, Debug)]
pub struct Warmup {
    frames: u32,
    waited: f32,
    done: bool,
}

impl Warmup {
    /// Whether the first, slow frames are over.
    pub fn done(&self) -> bool {
        self.done
    }

    /// Counts a frame that took `secs` since the previous one; returns whether more frames are
    /// needed to finish warming up.
    pub fn frame(&mut self, secs: f32) -> bool {
        if self.done {
            return false;
        }
        self.frames += 1;
        self.waited += secs;
        if (self.frames > MIN_FRAMES && secs < STEADY_SECS) || self.waited >= MAX_WAIT_SECS {
            self.done = true;
        }
        !self.done
    }
}

fn count(time: Res<Time<Real>>, mut warmup: ResMut<Warmup>, mut redraw: MessageWriter<RequestRedraw>) {
    if !warmup.done && warmup.frame(time.delta_secs()) {
        // Frames keep coming until then (the game otherwise draws only when something changes).
        redraw.write(RequestRedraw);
    }
}

fn restart(mut warmup: ResMut<Warmup>) {
    *warmup = Warmup::default();
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Warmup>()
        .add_systems(First, count)
        .add_systems(OnEnter(Screen::Playing), restart);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warm_after_steady_frames_or_a_while() {
        let mut w = Warmup::default();
        // Slow first frames keep it warming up, however many.
        for _ in 0..5 {
            assert!(w.frame(0.3));
        }
        assert!(!w.done());
        // One quick frame after the minimum: warm.
        assert!(!w.frame(0.016));
        assert!(w.done());
        // Quick frames from the start still need the minimum count.
        let mut w = Warmup::default();
        for _ in 0..MIN_FRAMES {
            assert!(w.frame(0.016));
        }
        assert!(!w.frame(0.016));
        assert!(w.done());
        // A device that never gets quicker is warm after the longest wait.
        let mut w = Warmup::default();
        let mut n = 0;
        while w.frame(0.25) {
            n += 1;
            assert!(n < 100);
        }
        assert!(w.done() && w.waited >= MAX_WAIT_SECS);
    }
}
