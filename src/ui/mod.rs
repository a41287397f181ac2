//! The interface's toolkit: egui set up (fonts, sizes, the text size's zoom, a bevy_egui fix) and the widgets and
//! words every screen shares.

pub mod announce;
pub mod theme;
pub mod widgets;

use crate::game::settings::{Settings, TextSize, Theme};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// A UI covering the whole window, on the background layer, for panels to be shown in.
pub fn root_ui(ctx: &egui::Context) -> egui::Ui {
    egui::Ui::new(
        ctx.clone(),
        "root".into(),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.viewport_rect()),
    )
}

/// An egui rectangle (points) in the window's logical pixels, where the board is laid out: the
/// two differ by the zoom of the text size setting.
pub fn logical_rect(ctx: &egui::Context, r: egui::Rect) -> Rect {
    let z = ctx.zoom_factor();
    Rect::new(r.min.x * z, r.min.y * z, r.max.x * z, r.max.y * z)
}

/// A place in the window's logical pixels (the board's layout) in egui points.
pub fn to_points(ctx: &egui::Context, p: Vec2) -> egui::Pos2 {
    let z = ctx.zoom_factor();
    egui::pos2(p.x / z, p.y / z)
}

/// Scales every screen of `ctx` by `size` (egui's zoom: text, buttons, panels, spacing; from
/// the next frame on).
pub fn set_text_size(ctx: &egui::Context, size: TextSize) {
    // The setting is the one way to zoom: Ctrl and +/- would leave it behind.
    ctx.options_mut(|o| o.zoom_with_keyboard = false);
    ctx.set_zoom_factor(size.factor());
}

/// The text size's zoom and the board theme's look, set on egui when the player changes them
/// (and in the first frame).
fn apply_settings(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    mut applied: Local<Option<(TextSize, Theme)>>,
) -> Result {
    let now = (settings.text_size, settings.theme);
    if *applied == Some(now) {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    if applied.is_none_or(|(size, _)| size != now.0) {
        set_text_size(ctx, now.0);
    }
    if applied.is_none_or(|(_, theme)| theme != now.1) {
        theme::apply(ctx, now.1);
    }
    *applied = Some(now);
    Ok(())
}

/// The display face's family: titles and headings (see [`font_definitions`]).
pub fn display_family() -> egui::FontFamily {
    egui::FontFamily::Name("display".into())
}

/// A title's font: the display face at `size` points (the text size's zoom applies to it).
pub fn display(size: f32) -> egui::FontId {
    egui::FontId::new(size, display_family())
}

/// The game's two typefaces, cut to what the game shows (`assets/fonts/subset.sh`;
/// `tests/client/fonts.rs` checks each character):
/// - the body face for every text: DejaVu Sans, with every Vietnamese letter, Greek and Cyrillic
///   for nicknames, the symbols of the texts and diagrams;
/// - the display face for the name, titles and headings: EB Garamond, an old-style Roman face
///   with every Vietnamese letter; anything it lacks falls back to DejaVu.
///
/// egui's own default fonts are not built in (`default_fonts` is off): they would add 1.4 MB to
/// the browser bundle for glyphs the game never shows.
pub fn font_definitions() -> egui::FontDefinitions {
    let mut fonts = egui::FontDefinitions::empty();
    fonts.font_data.insert(
        "dejavu".to_owned(),
        std::sync::Arc::new(egui::FontData::from_static(include_bytes!(
            "../../assets/fonts/DejaVuSans-subset.ttf"
        ))),
    );
    fonts.font_data.insert(
        "garamond".to_owned(),
        std::sync::Arc::new(egui::FontData::from_static(include_bytes!(
            "../../assets/fonts/EBGaramond12-subset.otf"
        ))),
    );
    for family in [egui::FontFamily::Proportional, egui::FontFamily::Monospace] {
        fonts.families.insert(family, vec!["dejavu".to_owned()]);
    }
    fonts.families.insert(display_family(), vec!["garamond".to_owned(), "dejavu".to_owned()]);
    fonts
}

/// The game's look on `ctx`: its typeface, text sizes and touch-sized buttons (the screens'
/// layout tests use it too).
pub fn style_context(ctx: &egui::Context) {
    ctx.set_fonts(font_definitions());
    ctx.global_style_mut(|style| {
        style.spacing.interact_size.y = 44.0;
        style.spacing.button_padding = egui::vec2(12.0, 8.0);
        style.spacing.item_spacing = egui::vec2(8.0, 8.0);
        for (text_style, size) in [
            (egui::TextStyle::Body, 17.0),
            (egui::TextStyle::Button, 17.0),
            (egui::TextStyle::Heading, 22.0),
            (egui::TextStyle::Small, 13.0),
            (egui::TextStyle::Monospace, 15.0),
        ] {
            if let Some(f) = style.text_styles.get_mut(&text_style) {
                f.size = size;
            }
        }
        // Headings in the display face, a little larger: its letters are smaller for their size.
        style.text_styles.insert(egui::TextStyle::Heading, display(25.0));
    });
}

fn setup_egui(mut contexts: EguiContexts, mut done: Local<bool>) {
    if *done {
        return;
    }
    // No context yet (no window or camera): the next frame.
    if let Ok(ctx) = contexts.ctx_mut() {
        style_context(ctx);
        *done = true;
    }
}

/// bevy_egui 0.42 writes a `ModifiersChanged` event every frame, even when nothing changed;
/// egui then asks for another frame at once, and the game never rests (one core busy on an
/// idle title screen). Keep the event only when the modifiers really change.
fn drop_unchanged_modifiers(
    mut inputs: Query<&mut bevy_egui::EguiInput>,
    mut last: Local<Option<egui::Modifiers>>,
) {
    for mut input in &mut inputs {
        input.0.events.retain(|e| match e {
            egui::Event::ModifiersChanged(m) => {
                let changed = *last != Some(*m);
                *last = Some(*m);
                changed
            }
            _ => true,
        });
    }
}

/// egui's set-up and its input fix (the screens draw in [`EguiPrimaryContextPass`] after it).
pub fn plugin(app: &mut App) {
    app.add_systems(
        PreUpdate,
        drop_unchanged_modifiers
            .after(bevy_egui::EguiInputSet::WriteEguiEvents)
            .before(bevy_egui::EguiPreUpdateSet::BeginPass),
    );
    // The fonts before the first pass begins: egui takes new fonts at the start of a pass, and a
    // heading in the display face must find its family in the very first frame.
    app.add_systems(
        PreUpdate,
        setup_egui
            .after(bevy_egui::EguiPreUpdateSet::InitContexts)
            .before(bevy_egui::EguiPreUpdateSet::BeginPass),
    );
    app.init_resource::<TapTargets>();
    app.add_plugins(announce::plugin);
    app.add_systems(EguiPrimaryContextPass, (apply_settings, clear_taps).in_set(UiSet::Setup));
    app.configure_sets(EguiPrimaryContextPass, UiSet::Setup.before(UiSet::Screens));
}

/// Where some of the panel's buttons were in the last frame, by name, at their centres in the
/// window's logical pixels: the page state publishes them so that the browser test taps them
/// as a person would (the board's points come from its own layout).
#[derive(Resource, Default, Clone, Debug, PartialEq)]
pub struct TapTargets(pub std::collections::BTreeMap<&'static str, [f32; 2]>);

impl TapTargets {
    /// Notes where `response`'s widget is, as `name`, if its middle shows (not clipped away).
    pub fn note(&mut self, ui: &egui::Ui, name: &'static str, response: &egui::Response) {
        if !ui.clip_rect().contains(response.rect.center()) {
            return;
        }
        let r = logical_rect(ui.ctx(), response.rect);
        self.0.insert(name, [r.center().x, r.center().y]);
    }
}

/// Each frame's screen notes its own buttons.
fn clear_taps(mut taps: ResMut<TapTargets>) {
    taps.0.clear();
}

/// The order of the egui pass: set-up, then the screens.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UiSet {
    /// Fonts and sizes (once).
    Setup,
    /// The screen showing.
    Screens,
}
