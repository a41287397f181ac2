//! Sound effects for a move, a capture and the end of a game, synthesised at start-up (no sound
//! files to ship).
//!
//! Where they play: on Linux through the sound server (PulseAudio, or PipeWire's PulseAudio
//! server) with the pure-Rust `pulseaudio` client, which needs no system package to build; its
//! connection is made on a thread of its own, and a machine without a sound server plays on
//! silently after one line in the log. Elsewhere (Windows, macOS, the browser) through Bevy's
//! audio.

use crate::game::session::Session;

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

/// The end of a game: a knock, then a fifth rising and fading (a bell more than a fanfare).
pub fn ending(rate: u32) -> Vec<f32> {
    let mut out = knock(rate);
    let n = (rate as f32 * 0.6) as usize;
    out.extend((0..n).map(|i| {
        let t = i as f32 / rate as f32;
        let tone = |f: f32, from: f32| {
            if t < from {
                0.0
            } else {
                ((t - from) * 2.0 * std::f32::consts::PI * f).sin() * (-(t - from) * 5.0).exp()
            }
        };
        (tone(392.0, 0.0) * 0.3 + tone(587.3, 0.12) * 0.3).clamp(-1.0, 1.0)
    }));
    out
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

/// What a change of the game calls for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cue {
    /// A move without a capture.
    Move,
    /// A move that captured.
    Capture,
    /// The move that ended the game.
    End,
}

/// What the game has sounded for: its revision and ply, so that a move played is heard once,
/// and an undo, a new game or a loaded one are not heard at all.
#[derive(Default)]
pub struct Heard(Option<(u64, usize)>);

impl Heard {
    /// The cue for the game as it is now, if a move was just played (one ply more than last
    /// time, in a new revision) and sound is on.
    pub fn cue(&mut self, session: &Session, sound_on: bool) -> Option<Cue> {
        let now = (session.revision, session.game.ply());
        let before = self.0.replace(now);
        let played = before.is_some_and(|(rev, ply)| now.1 == ply + 1 && now.0 != rev);
        if !played || !sound_on {
            return None;
        }
        Some(if session.game.is_over() {
            Cue::End
        } else if session.game.moves().last().is_some_and(|m| m.is_capture()) {
            Cue::Capture
        } else {
            Cue::Move
        })
    }
}

/// The sample rate of the effects.
const RATE: u32 = 22_050;

fn samples(cue: Cue) -> Vec<f32> {
    match cue {
        Cue::Move => knock(RATE),
        Cue::Capture => capture(RATE),
        Cue::End => ending(RATE),
    }
}

/// Bevy's audio (everywhere but Linux).
#[cfg(not(target_os = "linux"))]
mod play {
    use super::{Cue, Heard, RATE, samples, wav};
    use crate::game::session::Session;
    use crate::game::settings::Settings;
    use bevy::audio::{AudioPlayer, AudioSource, PlaybackSettings};
    use bevy::prelude::*;

    #[derive(Resource)]
    struct Sounds([Handle<AudioSource>; 3]);

    fn setup(mut commands: Commands, mut sources: ResMut<Assets<AudioSource>>) {
        let mut add = |cue| sources.add(AudioSource { bytes: wav(&samples(cue), RATE).into() });
        let sounds = [add(Cue::Move), add(Cue::Capture), add(Cue::End)];
        commands.insert_resource(Sounds(sounds));
    }

    fn on_move(
        mut commands: Commands,
        session: Option<Res<Session>>,
        settings: Res<Settings>,
        sounds: Option<Res<Sounds>>,
        mut heard: Local<Heard>,
    ) {
        let (Some(session), Some(sounds)) = (session, sounds) else {
            return;
        };
        if let Some(cue) = heard.cue(&session, settings.sound) {
            let handle = sounds.0[cue as usize].clone();
            commands.spawn((AudioPlayer::new(handle), PlaybackSettings::DESPAWN));
        }
    }

    pub(crate) fn plugin(app: &mut App) {
        app.add_systems(Startup, setup).add_systems(Update, on_move);
    }
}

/// The sound server, through the `pulseaudio` crate (Linux).
#[cfg(target_os = "linux")]
mod play {
    use super::{Cue, Heard, RATE, samples};
    use crate::game::session::Session;
    use crate::game::settings::Settings;
    use bevy::prelude::*;
    use futures::StreamExt;
    use futures::channel::mpsc;
    use futures::executor::LocalPool;
    use futures::task::LocalSpawnExt;
    use pulseaudio::{AsPlaybackSource, Client, protocol};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU32, Ordering};

    /// The effects as 16-bit mono PCM, and the way to the sound thread.
    #[derive(Resource)]
    struct Speaker {
        pcm: [Arc<[u8]>; 3],
        to_thread: mpsc::UnboundedSender<Arc<[u8]>>,
    }

    fn pcm(cue: Cue) -> Arc<[u8]> {
        samples(cue).iter().flat_map(|s| ((s.clamp(-1.0, 1.0) * 32000.0) as i16).to_le_bytes()).collect()
    }

    /// Plays one effect on a stream of its own (the server mixes the streams).
    async fn play(client: Client, pcm: Arc<[u8]>) -> Result<(), pulseaudio::ClientError> {
        // Each stream in a synchronisation group of its own, as libpulse does: streams with the
        // same id are joined, and a second one made while the first plays is refused.
        static SYNC_ID: AtomicU32 = AtomicU32::new(1);
        let frames = |ms: u32| RATE * ms / 1000 * 2;
        let mut params = protocol::PlaybackStreamParams {
            sample_spec: protocol::SampleSpec {
                format: protocol::SampleFormat::S16Le,
                channels: 1,
                sample_rate: RATE,
            },
            channel_map: protocol::ChannelMap::mono(),
            cvolume: Some(protocol::ChannelVolume::norm(1)),
            sink_name: Some(protocol::DEFAULT_SINK.to_owned()),
            sync_id: SYNC_ID.fetch_add(1, Ordering::Relaxed),
            ..Default::default()
        };
        params.buffer_attr.target_length = frames(50);
        params.buffer_attr.pre_buffering = frames(10);
        params.buffer_attr.minimum_request_length = frames(10);
        params.flags.adjust_latency = true;
        let mut at = 0;
        let source = move |buf: &mut [u8]| {
            let n = buf.len().min(pcm.len() - at);
            buf[..n].copy_from_slice(&pcm[at..at + n]);
            at += n;
            n
        };
        client.create_playback_stream(params, source.as_playback_source()).await?.play_all().await
    }

    /// The sound thread: connects to the sound server (the handshake waits for it, so never on
    /// the frame's thread), then plays what it is sent. Without a server it says so once and
    /// ends; what the game sends after that is dropped.
    fn sound_thread(mut from_game: mpsc::UnboundedReceiver<Arc<[u8]>>) {
        let client = match Client::from_env(c"Ludus") {
            Ok(client) => client,
            Err(e) => {
                info!("No sound: no sound server answered ({e:?}); the game plays on silently");
                return;
            }
        };
        let mut pool = LocalPool::new();
        let spawner = pool.spawner();
        pool.run_until(async move {
            while let Some(pcm) = from_game.next().await {
                let client = client.clone();
                let spawned = spawner.spawn_local(async move {
                    if let Err(e) = play(client, pcm).await {
                        debug!("a sound was not played: {e:?}");
                    }
                });
                if spawned.is_err() {
                    return;
                }
            }
        });
    }

    fn setup(mut commands: Commands) {
        let (to_thread, from_game) = mpsc::unbounded();
        if let Err(e) =
            std::thread::Builder::new().name("sound".into()).spawn(move || sound_thread(from_game))
        {
            info!("No sound: the sound thread did not start ({e})");
            return;
        }
        commands
            .insert_resource(Speaker { pcm: [pcm(Cue::Move), pcm(Cue::Capture), pcm(Cue::End)], to_thread });
    }

    fn on_move(
        session: Option<Res<Session>>,
        settings: Res<Settings>,
        speaker: Option<Res<Speaker>>,
        mut heard: Local<Heard>,
    ) {
        let (Some(session), Some(speaker)) = (session, speaker) else {
            return;
        };
        if let Some(cue) = heard.cue(&session, settings.sound) {
            // Nobody listening (no sound server): the effect is dropped.
            let _ = speaker.to_thread.unbounded_send(speaker.pcm[cue as usize].clone());
        }
    }

    pub(crate) fn plugin(app: &mut App) {
        app.add_systems(Startup, setup).add_systems(Update, on_move);
    }
}

/// Plays the effects.
pub fn plugin(app: &mut bevy::prelude::App) {
    play::plugin(app);
}

#[cfg(test)]
mod tests {
    use super::{Cue, Heard};
    use crate::game::session::{Seats, Session};
    use ludus_rules::{AnyGame, AnyPosition, Variant};

    /// Plays `mv` on the session's game as a command would: a new revision.
    fn play(session: &mut Session, mv: &str) {
        let m = session.game.position().parse_move(mv).expect("a legal move");
        session.game.play(&m).expect("legal");
        session.revision += 1;
    }

    #[test]
    fn a_move_a_capture_and_the_end_are_heard_once_and_an_undo_not_at_all() {
        let mut session = Session::new(Variant::Alquerque, Seats::two_players());
        let mut heard = Heard::default();
        assert_eq!(heard.cue(&session, true), None, "the game as it starts makes no sound");
        play(&mut session, "b2-c3");
        assert_eq!(heard.cue(&session, true), Some(Cue::Move));
        assert_eq!(heard.cue(&session, true), None, "heard once");
        play(&mut session, "d4xb2");
        assert_eq!(heard.cue(&session, true), Some(Cue::Capture));
        // An undo: one ply fewer, nothing heard.
        session.game.undo();
        session.revision += 1;
        assert_eq!(heard.cue(&session, true), None);
        // Sound off: a move is not heard.
        play(&mut session, "d4xb2");
        assert_eq!(heard.cue(&session, false), None);
        // The move that ends the game.
        let pos = AnyPosition::parse(Variant::Alquerque, "5/5/2B2/1W3/5 w").expect("a position");
        session.game = AnyGame::from_position(pos);
        session.revision += 1;
        assert_eq!(heard.cue(&session, true), None, "a new game is not heard");
        play(&mut session, "b2xd4");
        assert!(session.game.is_over());
        assert_eq!(heard.cue(&session, true), Some(Cue::End));
    }

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
