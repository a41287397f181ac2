//! Sound effects for a move and a capture, synthesised at start-up (no sound files to ship).
//! Bevy's audio needs ALSA's development files on Linux, so there it is behind the opt-in
//! `sound` feature; other platforms and the browser have it by default.

/// Whether this build can play sound.
pub use crate::platform::SOUND_AVAILABLE as AVAILABLE;

/// A 16-bit mono WAV file of `samples` at `rate` Hz.
pub fn wav(samples: &[f32], rate: u32) -> Vec<u8> {
    let data_len = (samples.len() * 2) as u32;
    let mut out = Vec::with_capacity(44 + samples.len() * 2);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data_len).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes()); // PCM
    out.extend_from_slice(&1u16.to_le_bytes()); // mono
    out.extend_from_slice(&rate.to_le_bytes());
    out.extend_from_slice(&(rate * 2).to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_len.to_le_bytes());
    for s in samples {
        out.extend_from_slice(&((s.clamp(-1.0, 1.0) * 32000.0) as i16).to_le_bytes());
    }
    out
}

/// A short wooden knock: a piece set down.
pub fn knock(rate: u32) -> Vec<f32> {
    let n = (rate as f32 * 0.09) as usize;
    let mut noise = 0x1234_5678u32;
    (0..n)
        .map(|i| {
            let t = i as f32 / rate as f32;
            noise ^= noise << 13;
            noise ^= noise >> 17;
            noise ^= noise << 5;
            let white = (noise as f32 / u32::MAX as f32) * 2.0 - 1.0;
            let body = (t * 2.0 * std::f32::consts::PI * 420.0).sin() * 0.6 + white * 0.25;
            body * (-t * 55.0).exp()
        })
        .collect()
}

/// A capture: two knocks and a falling tone.
pub fn capture(rate: u32) -> Vec<f32> {
    let mut out = knock(rate);
    let n = (rate as f32 * 0.22) as usize;
    out.extend((0..n).map(|i| {
        let t = i as f32 / rate as f32;
        let f = 520.0 - 900.0 * t;
        (t * 2.0 * std::f32::consts::PI * f).sin() * 0.45 * (-t * 14.0).exp()
    }));
    out
}

#[cfg(any(not(target_os = "linux"), feature = "sound"))]
mod play {
    use crate::game::session::Session;
    use crate::game::settings::Settings;
    use bevy::audio::{AudioPlayer, AudioSource, PlaybackSettings};
    use bevy::prelude::*;

    #[derive(Resource)]
    struct Sounds {
        knock: Handle<AudioSource>,
        capture: Handle<AudioSource>,
    }

    fn setup(mut commands: Commands, mut sources: ResMut<Assets<AudioSource>>) {
        let rate = 22_050;
        let knock = sources.add(AudioSource { bytes: super::wav(&super::knock(rate), rate).into() });
        let capture = sources.add(AudioSource { bytes: super::wav(&super::capture(rate), rate).into() });
        commands.insert_resource(Sounds { knock, capture });
    }

    fn on_move(
        mut commands: Commands,
        session: Option<Res<Session>>,
        settings: Res<Settings>,
        sounds: Option<Res<Sounds>>,
        mut last: Local<(u64, usize)>,
    ) {
        let (Some(session), Some(sounds)) = (session, sounds) else {
            return;
        };
        let now = (session.revision, session.game.ply());
        if *last == now {
            return;
        }
        let played = now.1 == last.1 + 1 && now.0 != last.0;
        *last = now;
        if !played || !settings.sound {
            return;
        }
        let capture = session.game.moves().last().is_some_and(|m| m.is_capture());
        let handle = if capture { sounds.capture.clone() } else { sounds.knock.clone() };
        commands.spawn((AudioPlayer::new(handle), PlaybackSettings::DESPAWN));
    }

    pub(crate) fn plugin(app: &mut App) {
        app.add_systems(Startup, setup).add_systems(Update, on_move);
    }
}

/// Plays the effects where the build has sound.
pub fn plugin(app: &mut bevy::prelude::App) {
    #[cfg(any(not(target_os = "linux"), feature = "sound"))]
    play::plugin(app);
    let _ = app;
}

#[cfg(test)]
mod tests {
    #[test]
    fn wav_header_is_well_formed() {
        let samples = super::capture(8000);
        let w = super::wav(&samples, 8000);
        assert_eq!(&w[0..4], b"RIFF");
        assert_eq!(&w[8..16], b"WAVEfmt ");
        assert_eq!(u32::from_le_bytes([w[40], w[41], w[42], w[43]]) as usize, samples.len() * 2);
        assert_eq!(w.len(), 44 + samples.len() * 2);
        assert!(samples.iter().all(|s| s.abs() <= 1.0));
    }
}
