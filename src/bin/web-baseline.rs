//! The yardstick of the browser game's start: an empty Bevy + egui app (a camera and one label),
//! built with the game's profile and features into the game's own page by `web/build.sh`
//! (`LUDUS_WEB_BIN=web-baseline`). The browser test loads both and prints how long each takes
//! to its first ready frame, by the same rule: the first frames drawn and steady
//! ([`ludus::players::warmup::Warmup`]). It writes the same page state as the game
//! (`<pre id="ludus-state">`), with `ready_ms` and the start's steps (`start`).
//!
//! It is a page only: on the desktop it says so and exits.

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("web-baseline: a browser page only (LUDUS_WEB_BIN=web-baseline bash web/build.sh)");
    std::process::exit(2);
}

#[cfg(target_arch = "wasm32")]
fn main() -> bevy::app::AppExit {
    page::main()
}

#[cfg(target_arch = "wasm32")]
mod page {
    use bevy::prelude::*;
    use bevy::window::{RequestRedraw, WindowResolution};
    use bevy::winit::{UpdateMode, WinitSettings};
    use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
    use ludus::players::warmup::Warmup;
    use ludus::shell::web::StartSteps;
    use std::time::Duration;

    pub fn main() -> AppExit {
        // As the game does (see its main): the static constructors once.
        bevy::reflect::TypeRegistry::empty().register_derived_types();
        // As the game's window: the page's box for the canvas, so that the surface is made once.
        let (w, h) = ludus::platform::canvas_size().unwrap_or((1280, 800));
        let mut app = App::new();
        app.add_plugins(
            DefaultPlugins
                .set(WindowPlugin {
                    primary_window: Some(Window {
                        title: "Ludus baseline".into(),
                        resolution: WindowResolution::new(w, h),
                        canvas: Some("#ludus".to_string()),
                        fit_canvas_to_parent: true,
                        prevent_default_event_handling: true,
                        ..default()
                    }),
                    ..default()
                })
                .set(AssetPlugin { meta_check: bevy::asset::AssetMetaCheck::Never, ..default() }),
        )
        .add_plugins(bevy_egui::EguiPlugin::default())
        .insert_resource(WinitSettings {
            focused_mode: UpdateMode::reactive(Duration::from_secs(1)),
            unfocused_mode: UpdateMode::reactive_low_power(Duration::from_secs(5)),
        })
        .init_resource::<Warmup>()
        .init_resource::<StartSteps>()
        .add_systems(Startup, |mut commands: Commands| {
            // As the game's board: no multisampling where WebGL draws on the processor.
            let software = ludus::platform::background::software_renderer();
            commands.spawn((Camera2d, if software { Msaa::Off } else { Msaa::Sample4 }));
        })
        // As the game's: after the clock's update, so that `count` judges the frame just ended.
        .add_systems(First, count.after(bevy::time::TimeSystems))
        .add_systems(EguiPrimaryContextPass, label)
        .add_systems(Last, publish);
        app.run()
    }

    fn label(mut contexts: EguiContexts) -> Result {
        egui::Area::new("baseline".into()).show(contexts.ctx_mut()?, |ui| {
            ui.label("Ludus");
        });
        Ok(())
    }

    fn count(time: Res<Time<Real>>, mut warmup: ResMut<Warmup>, mut redraw: MessageWriter<RequestRedraw>) {
        if !warmup.drawn() && warmup.frame(time.delta_secs(), true) {
            redraw.write(RequestRedraw);
        }
    }

    fn publish(warmup: Res<Warmup>, mut steps: ResMut<StartSteps>) {
        if steps.ready_ms.is_none() {
            steps.frame(warmup.drawn());
        }
        if steps.is_changed() {
            ludus::shell::web::write_state(&serde_json::json!({
                "screen": "baseline",
                "ready_ms": steps.ready_ms,
                "start": *steps,
            }));
        }
    }
}
