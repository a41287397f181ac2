//! The first frames of the board: the browser compiles shaders and the game's code as they are
//! first used, so a page's first frames are slow (150 to 460 ms each in headless Chromium with
//! software WebGL). They are drawn behind the page's loading cover, and
//! the computer starts thinking only once frames come steadily: the person sees the board
//! settle, then the computer's move, never a stutter while it thinks. On the desktop this takes
//! a few frames.
//!
//! In the browser the search's code gets the same treatment: the engine compiles a function to
//! fast code only once it has run a while, on the processor the page draws with. So a short
//! search of each game ([`WARM_NODES`] nodes) runs under the cover, and the cover waits for it.

use crate::app::Screen;
use crate::platform::background::Background;
use bevy::prelude::*;
use bevy::window::RequestRedraw;

/// Frames a screen draws before it can count as warm.
const MIN_FRAMES: u32 = 3;
/// A frame at least this long (seconds) still counts as warming up.
const STEADY_SECS: f32 = 0.1;
/// Warm after this long whatever the frames (seconds): a slow device stays slow.
const MAX_WAIT_SECS: f32 = 2.0;
/// The nodes of the search that runs under the page's cover, per game.
pub const WARM_NODES: u64 = 40_000;

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

    /// Counts a frame that took `secs` since the previous one, `others_ready` telling whether
    /// the rest of the warming up (the search's) is over: frames count from then on. Returns
    /// whether more frames are needed to finish warming up.
    pub fn frame(&mut self, secs: f32, others_ready: bool) -> bool {
        if self.done {
            return false;
        }
        self.waited += secs;
        if others_ready {
            self.frames += 1;
        }
        if (self.frames > MIN_FRAMES && secs < STEADY_SECS) || self.waited >= MAX_WAIT_SECS {
            self.done = true;
        }
        // No frames asked for while the rest warms up: drawn frames would slow it down.
        others_ready && !self.done
    }
}

/// The search's first run, under the page's cover (in the browser).
#[derive(Resource)]
struct WarmSearch {
    work: Background<()>,
    finished: bool,
}

#[cfg(target_arch = "wasm32")]
fn warm_search(mut commands: Commands, proxy: Option<Res<bevy::winit::EventLoopProxyWrapper>>) {
    use ludus_rules::{AnyGame, Variant};
    // The game sleeps meanwhile: the search wakes it when it is over.
    let wake = crate::platform::background::Wake::new(proxy.as_deref());
    let limits = ludus_ai::Limits::nodes(WARM_NODES);
    let mut searches: Vec<ludus_ai::AnySearch> = [Variant::Latrunculi, Variant::Alquerque]
        .iter()
        .map(|&v| ludus_ai::AnySearch::new(&AnyGame::new(v), ludus_ai::Level::Hard, limits, 1))
        .collect();
    let work = Background::spawn("warm-up", move |out| {
        match searches.last_mut() {
            Some(s) if !s.is_done() => {
                s.step(2_000);
            }
            Some(_) => drop(searches.pop()),
            None => {
                out.push(());
                wake.wake();
                return true;
            }
        }
        false
    });
    commands.insert_resource(WarmSearch { work, finished: false });
}

fn count(
    time: Res<Time<Real>>,
    mut warmup: ResMut<Warmup>,
    search: Option<ResMut<WarmSearch>>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let search_ready = search.is_none_or(|mut s| {
        if !s.finished && !s.work.take().is_empty() {
            s.finished = true;
        }
        s.finished
    });
    if !warmup.done && warmup.frame(time.delta_secs(), search_ready) {
        // Frames keep coming until then (the game otherwise draws only when something changes).
        redraw.write(RequestRedraw);
    }
}

fn restart(mut warmup: ResMut<Warmup>) {
    *warmup = Warmup::default();
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Warmup>().add_systems(First, count).add_systems(OnEnter(Screen::Playing), restart);
    #[cfg(target_arch = "wasm32")]
    app.add_systems(Startup, warm_search);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds quick frames (the search warm or not) until the warming up is over; returns how
    /// many it took.
    fn quick_frames_until_warm(w: &mut Warmup, search_ready: bool) -> u32 {
        let mut n = 0;
        while !w.done() {
            let more = w.frame(0.016, search_ready);
            assert_eq!(more, search_ready && !w.done(), "frames are asked for only once the search is warm");
            n += 1;
            assert!(n < 1_000);
        }
        n
    }

    #[test]
    fn warm_after_steady_frames_or_a_while() {
        let mut w = Warmup::default();
        // Slow first frames keep it warming up, however many.
        for _ in 0..5 {
            assert!(w.frame(0.3, true));
        }
        assert!(!w.done());
        // One quick frame after the minimum: warm.
        assert!(!w.frame(0.016, true));
        assert!(w.done());
        // Quick frames from the start still need the minimum count.
        let mut w = Warmup::default();
        assert_eq!(quick_frames_until_warm(&mut w, true), MIN_FRAMES + 1);
        // A device that never gets quicker is warm after the longest wait.
        let mut w = Warmup::default();
        let mut n = 0;
        while w.frame(0.25, true) {
            n += 1;
            assert!(n < 100);
        }
        assert!(w.done() && w.waited >= MAX_WAIT_SECS);
        // Frames count once the search has warmed up (none are asked for before), but the
        // longest wait holds.
        let mut w = Warmup::default();
        for _ in 0..10 {
            assert!(!w.frame(0.016, false));
        }
        assert!(!w.done());
        assert_eq!(quick_frames_until_warm(&mut w, true), MIN_FRAMES + 1);
        let mut w = Warmup::default();
        quick_frames_until_warm(&mut w, false);
        assert!(w.waited >= MAX_WAIT_SECS);
    }
}
