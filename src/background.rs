//! Work off the frame: the computer's search and the post-game analysis run on Bevy's async
//! compute pool on the desktop and, in the browser (one thread), in short tasks between the
//! page's frames. Either way a frame costs only what it draws, and nothing is redrawn while the
//! work goes on unless something on screen changes.
//!
//! In the browser the tasks follow each other through a `MessageChannel` (no 4 ms clamp as with
//! nested `setTimeout`); each runs the work for about [`SLICE_MS`] and gives the page back, so
//! the browser paints and handles input between them. While the game is drawing frames (a
//! piece moving, the interface changing) the work steps back, [`DRAWING_SLICE_MS`] at a time and
//! [`DRAWING_PAUSE_MS`] apart, until [`DRAWING_FOR_MS`] after the last one: the browser needs the
//! processor to draw them, and long after the game's own part (a software WebGL renderer draws
//! on the processor: 50 to 70 ms a frame in headless Chromium on two cores, or twice that with a
//! search running beside it).

use bevy::prelude::*;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// How long one task in the browser works before giving the page back, in milliseconds.
pub const SLICE_MS: f64 = 8.0;
/// The same while the game is drawing frames.
pub const DRAWING_SLICE_MS: f64 = 2.0;
/// The pause between two tasks while the game is drawing frames, in milliseconds.
pub const DRAWING_PAUSE_MS: i32 = 16;
/// The game counts as drawing for this long after a frame starts, in milliseconds.
pub const DRAWING_FOR_MS: f64 = 80.0;

/// Work running in the background; dropping the handle stops it at its next step.
pub struct Background {
    stop: Arc<AtomicBool>,
    #[cfg(not(target_arch = "wasm32"))]
    _task: bevy::tasks::Task<()>,
}

impl Background {
    /// Calls `step` again and again until it returns `true` (finished) or the handle is dropped.
    /// Each call should be short (a millisecond or two): in the browser the page waits for it.
    pub fn spawn(mut step: impl FnMut() -> bool + Send + 'static) -> Background {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        #[cfg(not(target_arch = "wasm32"))]
        {
            let task = bevy::tasks::AsyncComputeTaskPool::get().spawn(async move {
                while !flag.load(Ordering::Relaxed) && !step() {}
            });
            Background { stop, _task: task }
        }
        #[cfg(target_arch = "wasm32")]
        {
            web::spawn(Box::new(move || {
                let started = bevy::platform::time::Instant::now();
                let slice = if web::drawing() { DRAWING_SLICE_MS } else { SLICE_MS };
                loop {
                    if flag.load(Ordering::Relaxed) || step() {
                        return true;
                    }
                    if started.elapsed().as_secs_f64() * 1000.0 >= slice {
                        return false;
                    }
                }
            }));
            Background { stop }
        }
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Wakes the game's frame loop (which sleeps while nothing changes) from background work, for
/// example when the computer has found its move.
#[derive(Clone)]
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

pub(crate) fn plugin(app: &mut App) {
    #[cfg(target_arch = "wasm32")]
    app.add_systems(First, frame);
    #[cfg(not(target_arch = "wasm32"))]
    let _ = app;
}

#[cfg(target_arch = "wasm32")]
mod web {
    //! The browser's task loop: one `MessageChannel` whose messages run the pending work, or a
    //! timer while the game is drawing.

    use bevy::platform::time::Instant;
    use std::cell::{Cell, RefCell};
    use wasm_bindgen::JsCast;
    use wasm_bindgen::prelude::*;

    /// A piece of work: runs one slice, returns whether it is finished.
    pub type Work = Box<dyn FnMut() -> bool>;

    struct Channel {
        port1: web_sys::MessagePort,
        port2: web_sys::MessagePort,
        _on_message: Closure<dyn FnMut()>,
    }

    thread_local! {
        static QUEUE: RefCell<Vec<Work>> = const { RefCell::new(Vec::new()) };
        static SCHEDULED: Cell<bool> = const { Cell::new(false) };
        static CHANNEL: RefCell<Option<Channel>> = const { RefCell::new(None) };
        /// When the game last drew a frame.
        pub static LAST_FRAME: Cell<Option<Instant>> = const { Cell::new(None) };
    }

    /// Whether the game is drawing frames (it drew one a moment ago).
    pub fn drawing() -> bool {
        LAST_FRAME.get().is_some_and(|t| t.elapsed().as_secs_f64() * 1000.0 < super::DRAWING_FOR_MS)
    }

    /// Adds `work` to the loop.
    pub fn spawn(work: Work) {
        QUEUE.with(|q| q.borrow_mut().push(work));
        schedule();
    }

    /// Asks for one more task, unless one is already on its way.
    fn schedule() {
        if SCHEDULED.get() {
            return;
        }
        let drawing = drawing();
        let posted = !drawing
            && CHANNEL.with(|c| {
                let mut c = c.borrow_mut();
                if c.is_none() {
                    *c = open();
                }
                c.as_ref().is_some_and(|c| c.port2.post_message(&JsValue::NULL).is_ok())
            });
        // While the game draws, and without a channel (never seen in a browser): a timer.
        let posted = posted
            || web_sys::window().is_some_and(|w| {
                let f = Closure::once_into_js(run);
                let pause = if drawing { super::DRAWING_PAUSE_MS } else { 0 };
                w.set_timeout_with_callback_and_timeout_and_arguments_0(f.unchecked_ref(), pause).is_ok()
            });
        SCHEDULED.set(posted);
    }

    fn open() -> Option<Channel> {
        let channel = web_sys::MessageChannel::new().ok()?;
        let on_message = Closure::<dyn FnMut()>::new(run);
        let (port1, port2) = (channel.port1(), channel.port2());
        port1.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        Some(Channel { port1, port2, _on_message: on_message })
    }

    /// One task: every pending piece of work gets a slice; the finished ones leave.
    fn run() {
        SCHEDULED.set(false);
        let mut work = QUEUE.with(|q| std::mem::take(&mut *q.borrow_mut()));
        work.retain_mut(|w| !w());
        let more = QUEUE.with(|q| {
            let mut q = q.borrow_mut();
            // Work spawned during this task goes after the work that was already there.
            work.append(&mut q);
            *q = work;
            !q.is_empty()
        });
        if more {
            schedule();
        }
    }

    impl Drop for Channel {
        fn drop(&mut self) {
            self.port1.set_onmessage(None);
        }
    }
}
