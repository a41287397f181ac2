//! Work off the frame: the computer's search, the post-game analysis and the endgame tables run
//! on threads of their own on the desktop and, in the browser (one thread), in short tasks between
//! the page's frames. Either way a frame costs only what it draws, and nothing is redrawn while the
//! work goes on unless something on screen changes.
//!
//! In the browser the work follows the page's frames: each animation frame opens a budget of
//! [`FRAME_WORK_MS`], spent in tasks of at most [`SLICE_MS`] posted through a `MessageChannel`
//! (no 4 ms clamp as with nested `setTimeout`), and the rest of the frame is the page's. (Tasks
//! posted back to back with no such budget held the page's painting off for 300 ms in headless
//! Chromium.) Where WebGL draws on the processor (see [`software_renderer`]), the budget is
//! [`DRAWING_WORK_MS`] while the game draws frames and until [`DRAWING_FOR_MS`] after the last
//! one started: the renderer needs the processor long after the game's own part of a frame (50
//! to 70 ms a frame in headless Chromium on two cores, twice that with a search beside it).
//! In a hidden page, which has no animation frames, the work runs in tasks of [`SLICE_MS`].

#[cfg(target_arch = "wasm32")]
use bevy::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The browser's work budget per animation frame, in milliseconds.
pub const FRAME_WORK_MS: f64 = 10.0;
/// The longest task in the browser, in milliseconds.
pub const SLICE_MS: f64 = 8.0;
/// The budget per animation frame while the game draws frames on a software renderer.
pub const DRAWING_WORK_MS: f64 = 2.0;
/// The game counts as drawing for this long after a frame starts, in milliseconds.
pub const DRAWING_FOR_MS: f64 = 80.0;

/// Whether the browser's WebGL draws on the processor (SwiftShader, llvmpipe: no GPU), as the page
/// found out before starting the game (`window.ludusSoftwareGl`). Never on the desktop.
pub fn software_renderer() -> bool {
    #[cfg(target_arch = "wasm32")]
    {
        thread_local! {
            static SOFTWARE: bool = web_sys::window()
                .and_then(|w| js_sys::Reflect::get(&w, &"ludusSoftwareGl".into()).ok())
                .and_then(|v| v.as_bool())
                .unwrap_or(false);
        }
        SOFTWARE.with(|s| *s)
    }
    #[cfg(not(target_arch = "wasm32"))]
    false
}

/// Work running in the background, and what it has finished; dropping the handle stops it at
/// its next step. The one way the game runs work off the frame: the computer's search, the
/// analysis, the endgame tables, the browser's warm-up search.
pub struct Background<T> {
    stop: Arc<AtomicBool>,
    results: Arc<Mutex<Vec<T>>>,
}

impl<T: Send + 'static> Background<T> {
    /// Calls `step` again and again until it returns `true` (finished) or the handle is dropped;
    /// `step` pushes its results (any number, any time) for [`Background::take`]. Each call should
    /// be short (a millisecond or two): in the browser the page waits for it. On the desktop the
    /// work has a thread of its own, `name`.
    pub fn spawn(name: &str, mut step: impl FnMut(&mut Vec<T>) -> bool + Send + 'static) -> Background<T> {
        let stop = Arc::new(AtomicBool::new(false));
        let results = Arc::new(Mutex::new(Vec::new()));
        let (flag, out) = (stop.clone(), results.clone());
        let mut run = move || {
            let mut found = Vec::new();
            let done = step(&mut found);
            if !found.is_empty() {
                out.lock().unwrap_or_else(|e| e.into_inner()).append(&mut found);
            }
            done
        };
        #[cfg(not(target_arch = "wasm32"))]
        {
            let spawned = std::thread::Builder::new()
                .name(format!("ludus-{name}"))
                .spawn(move || while !flag.load(Ordering::Relaxed) && !run() {});
            if let Err(e) = spawned {
                bevy::log::warn!("cannot start the background work {name}: {e}");
            }
        }
        #[cfg(target_arch = "wasm32")]
        {
            let _ = name;
            web::spawn(Box::new(move |until| {
                loop {
                    if flag.load(Ordering::Relaxed) || run() {
                        return true;
                    }
                    if bevy::platform::time::Instant::now() >= until {
                        return false;
                    }
                }
            }));
        }
        Background { stop, results }
    }

    /// The results pushed since the last call.
    pub fn take(&self) -> Vec<T> {
        std::mem::take(&mut *self.results.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

impl<T> Drop for Background<T> {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Wakes the game's frame loop (which sleeps while nothing changes) from background work, for
/// example when the computer has found its move.
pub struct Wake(Option<bevy::winit::EventLoopProxy<bevy::winit::WinitUserEvent>>);

impl Wake {
    /// From the window's event loop, if there is one (tests run without).
    pub fn new(proxy: Option<&bevy::winit::EventLoopProxyWrapper>) -> Wake {
        Wake(proxy.map(|p| (**p).clone()))
    }

    /// Asks for a frame.
    pub fn wake(&self) {
        if let Some(p) = &self.0 {
            // The loop is gone only when the game is closing: nothing to wake then.
            let _ = p.send_event(bevy::winit::WinitUserEvent::WakeUp);
        }
    }
}

/// Notes that the game draws a frame (every update draws one in a window).
#[cfg(target_arch = "wasm32")]
fn frame() {
    web::LAST_FRAME.set(Some(bevy::platform::time::Instant::now()));
}

/// The browser's part: the work steps back while the game draws.
#[cfg(target_arch = "wasm32")]
pub fn plugin(app: &mut App) {
    app.add_systems(First, frame);
}

#[cfg(target_arch = "wasm32")]
mod web {
    //! The browser's task loop: animation frames open budgets, `MessageChannel` messages run the
    //! pending work within them.

    use bevy::platform::time::Instant;
    use std::cell::{Cell, RefCell};
    use std::time::Duration;
    use wasm_bindgen::JsCast;
    use wasm_bindgen::prelude::*;

    /// A piece of work: runs until the given instant (or a little past it), returns whether it
    /// is finished.
    pub type Work = Box<dyn FnMut(Instant) -> bool>;

    /// The page's hooks: a message channel and an animation frame callback.
    struct Hooks {
        port1: web_sys::MessagePort,
        port2: web_sys::MessagePort,
        _on_message: Closure<dyn FnMut()>,
        on_frame: Closure<dyn FnMut()>,
    }

    thread_local! {
        static QUEUE: RefCell<Vec<Work>> = const { RefCell::new(Vec::new()) };
        /// A message or an animation frame is on its way.
        static SCHEDULED: Cell<bool> = const { Cell::new(false) };
        /// The end of this frame's budget.
        static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
        static HOOKS: RefCell<Option<Hooks>> = const { RefCell::new(None) };
        /// When the game last drew a frame.
        pub static LAST_FRAME: Cell<Option<Instant>> = const { Cell::new(None) };
    }

    /// Whether the game is drawing frames (it drew one a moment ago) on a software renderer.
    fn drawing() -> bool {
        super::software_renderer()
            && LAST_FRAME.get().is_some_and(|t| t.elapsed().as_secs_f64() * 1000.0 < super::DRAWING_FOR_MS)
    }

    fn ms(ms: f64) -> Duration {
        Duration::from_secs_f64(ms / 1000.0)
    }

    fn hidden() -> bool {
        web_sys::window().and_then(|w| w.document()).is_some_and(|d| d.hidden())
    }

    /// Adds `work` to the loop.
    pub fn spawn(work: Work) {
        QUEUE.with(|q| q.borrow_mut().push(work));
        if !SCHEDULED.get() {
            next_frame();
        }
    }

    fn with_hooks<T>(f: impl FnOnce(&Hooks) -> T) -> Option<T> {
        HOOKS.with(|h| {
            let mut h = h.borrow_mut();
            if h.is_none() {
                *h = open();
            }
            h.as_ref().map(f)
        })
    }

    fn open() -> Option<Hooks> {
        let channel = web_sys::MessageChannel::new().ok()?;
        let on_message = Closure::<dyn FnMut()>::new(run);
        let on_frame = Closure::<dyn FnMut()>::new(frame);
        let (port1, port2) = (channel.port1(), channel.port2());
        port1.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        Some(Hooks { port1, port2, _on_message: on_message, on_frame })
    }

    /// Waits for the next animation frame (a hidden page has none: then a task at once).
    fn next_frame() {
        if hidden() {
            DEADLINE.set(Some(Instant::now() + ms(super::SLICE_MS)));
            post();
            return;
        }
        let asked = with_hooks(|h| {
            web_sys::window()
                .is_some_and(|w| w.request_animation_frame(h.on_frame.as_ref().unchecked_ref()).is_ok())
        });
        SCHEDULED.set(asked == Some(true));
    }

    /// Posts a task.
    fn post() {
        let posted = with_hooks(|h| h.port2.post_message(&JsValue::NULL).is_ok());
        SCHEDULED.set(posted == Some(true));
    }

    /// An animation frame: a new budget, spent in tasks after the page has painted.
    fn frame() {
        let budget = if drawing() { super::DRAWING_WORK_MS } else { super::FRAME_WORK_MS };
        DEADLINE.set(Some(Instant::now() + ms(budget)));
        post();
    }

    /// One task: every pending piece of work gets a share of what is left of the budget (at
    /// most a slice); the finished ones leave. Then another task, or the next frame.
    fn run() {
        SCHEDULED.set(false);
        let now = Instant::now();
        let deadline = DEADLINE.get().unwrap_or(now);
        let until = deadline.min(now + ms(super::SLICE_MS));
        let mut work = QUEUE.with(|q| std::mem::take(&mut *q.borrow_mut()));
        if until > now {
            work.retain_mut(|w| !w(until));
        }
        let more = QUEUE.with(|q| {
            let mut q = q.borrow_mut();
            // Work spawned during this task goes after the work that was already there.
            work.append(&mut q);
            *q = work;
            !q.is_empty()
        });
        if !more {
            return;
        }
        if hidden() {
            DEADLINE.set(Some(Instant::now() + ms(super::SLICE_MS)));
            post();
        } else if Instant::now() + ms(1.0) < deadline {
            post();
        } else {
            next_frame();
        }
    }

    impl Drop for Hooks {
        fn drop(&mut self) {
            self.port1.set_onmessage(None);
        }
    }
}
