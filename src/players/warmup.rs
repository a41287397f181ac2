//! The first frames of the board: the browser compiles shaders and the game's code as they are
//! first used, so a page's first frames are slow (150 to 460 ms each in headless Chromium with
//! software WebGL). They are drawn behind the page's loading cover, which goes once frames come
//! steadily ([`Warmup::drawn`]). On the desktop this takes a few frames.
//!
//! In the browser the search's code gets the same treatment: the engine compiles a function to
//! fast code only once it has run a while, on the processor the page draws with. So a short
//! search of each game ([`WARM_NODES`] nodes) runs between the page's frames once the first
//! frames are drawn (before, it would only slow them and keep the cover up), and the computer
//! starts thinking only once it is over ([`Warmup::done`]): the person sees the board settle,
//! then the computer's move, never a stutter while it thinks. The cover does not wait for that
//! search: the person looks at the board, or plays the first move, meanwhile.

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

/// Whether the frames come steadily since the game started or the board was last opened, and
/// whether the search's code is warm.
#[derive(Resource, Default, Debug)]
pub struct Warmup {
    frames: u32,
    waited: f32,
    drawn: bool,
    search_warm: bool,
}

impl Warmup {
    /// Whether the first, slow frames are over: the page's cover may go.
    pub fn drawn(&self) -> bool {
        self.drawn
    }

    /// Whether the first, slow frames are over and the search's code is warm: the computer may
    /// think.
    pub fn done(&self) -> bool {
        self.drawn && self.search_warm
    }

    /// Counts a frame that took `secs` since the previous one, `search_warm` telling whether
    /// the search's warming up is over. Returns whether more frames are needed to finish
    /// drawing the first frames (after that the game draws only when something changes).
    pub fn frame(&mut self, secs: f32, search_warm: bool) -> bool {
        self.search_warm = search_warm;
        if self.drawn {
            return false;
        }
        self.waited += secs;
        self.frames += 1;
        if (self.frames > MIN_FRAMES && secs < STEADY_SECS) || self.waited >= MAX_WAIT_SECS {
            self.drawn = true;
        }
        !self.drawn
    }
}

/// The search's first run, under the page's cover (in the browser).
#[derive(Resource)]
struct WarmSearch {
    work: Background<()>,
    finished: bool,
}

/// Starts the search's first run once the first frames are drawn (the page's cover is gone):
/// before that it would only slow them.
#[cfg(target_arch = "wasm32")]
fn warm_search(
    mut commands: Commands,
    warmup: Res<Warmup>,
    proxy: Option<Res<bevy::winit::EventLoopProxyWrapper>>,
) {
    if !warmup.drawn() {
        return;
    }
    use ludus_rules::{AnyGame, Variant};
    // The game sleeps meanwhile: the search wakes it when it is over.
    let wake = crate::platform::background::Wake::new(proxy.as_deref());
    let limits = ludus_ai::Limits::nodes(WARM_NODES);
    // Hard's code with a small table: the run is about compiling the code, and allocating
    // Hard's tables took a frame's worth of time.
    let params = ludus_ai::Params { tt_mb: 1, ..ludus_ai::Level::Hard.params() };
    let mut searches: Vec<ludus_ai::AnySearch> = [Variant::Latrunculi, Variant::Alquerque]
        .iter()
        .map(|&v| {
            ludus_ai::AnySearch::with_params(
                &AnyGame::new(v),
                ludus_ai::Level::Hard,
                limits,
                params.clone(),
                1,
            )
        })
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
    // In the browser the search's first run comes after the first frames; elsewhere there is none.
    let search_ready = match search {
        Some(mut s) => {
            if !s.finished && !s.work.take().is_empty() {
                s.finished = true;
            }
            s.finished
        }
        None => !cfg!(target_arch = "wasm32"),
    };
    if !warmup.done() && warmup.frame(time.delta_secs(), search_ready) {
        // Frames keep coming until the first ones are drawn (the game otherwise draws only when
        // something changes). The search wakes the game when it is over.
        redraw.write(RequestRedraw);
    }
}

fn restart(mut warmup: ResMut<Warmup>) {
    *warmup = Warmup::default();
}

pub fn plugin(app: &mut App) {
    // After the clock's update: `count` judges the frame that has just ended.
    app.init_resource::<Warmup>()
        .add_systems(First, count.after(bevy::time::TimeSystems))
        .add_systems(OnEnter(Screen::Playing), restart);
    #[cfg(target_arch = "wasm32")]
    app.add_systems(Update, warm_search.run_if(not(resource_exists::<WarmSearch>)));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds quick frames until the first frames are drawn; returns how many it took.
    fn quick_frames_until_drawn(w: &mut Warmup, search_warm: bool) -> u32 {
        let mut n = 0;
        while !w.drawn() {
            let more = w.frame(0.016, search_warm);
            assert_eq!(more, !w.drawn(), "frames are asked for until the first ones are drawn");
            n += 1;
            assert!(n < 1_000);
        }
        n
    }

    #[test]
    fn drawn_after_steady_frames_or_a_while() {
        let mut w = Warmup::default();
        // Slow first frames keep it warming up, however many.
        for _ in 0..5 {
            assert!(w.frame(0.3, true));
        }
        assert!(!w.drawn());
        // One quick frame after the minimum: drawn.
        assert!(!w.frame(0.016, true));
        assert!(w.drawn() && w.done());
        // Quick frames from the start still need the minimum count.
        let mut w = Warmup::default();
        assert_eq!(quick_frames_until_drawn(&mut w, true), MIN_FRAMES + 1);
        // A device that never gets quicker is drawn after the longest wait.
        let mut w = Warmup::default();
        let mut n = 0;
        while w.frame(0.25, true) {
            n += 1;
            assert!(n < 100);
        }
        assert!(w.drawn() && w.waited >= MAX_WAIT_SECS);
    }

    #[test]
    fn the_cover_goes_before_the_search_is_warm_but_the_computer_waits() {
        let mut w = Warmup::default();
        assert_eq!(quick_frames_until_drawn(&mut w, false), MIN_FRAMES + 1);
        assert!(w.drawn() && !w.done(), "drawn, the search still cold");
        // No more frames asked for while the search finishes (it wakes the game).
        assert!(!w.frame(0.016, false));
        assert!(!w.done());
        assert!(!w.frame(0.5, true));
        assert!(w.done());
    }
}
