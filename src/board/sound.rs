//! Sound effects: a wooden clack when a disc lands, a tick for each disc turning over (in step
//! with the animation), a low thud for a refused tap. The sounds are synthesised at start
//! (a few damped partials and a seeded noise burst: no audio files, no decoder), muted by the
//! Sound setting.
//!
//! The game side ([`logic_plugin`]) turns moves and refused taps into [`PlaySound`] messages,
//! so headless tests can see them. The output side ([`output_plugin`]) hands them to one
//! sound thread, which opens the audio device only while there is something to play and
//! closes it two seconds after the last sound: an open output stream keeps a phone's audio
//! hardware awake, so nothing stays open while the player thinks, and nothing at all while
//! the app is suspended. Output uses rodio on cpal (AAudio on Android, CoreAudio on iOS and
//! macOS, WASAPI on Windows); desktop Linux builds play nothing, because ALSA would need
//! `libasound2-dev` on every build machine.

use crate::AppSystems;
use crate::board::move_timeline;
use crate::game::flow::{MovePlayed, TapRefused};
use crate::game::players::Players;
use crate::prefs::settings::Settings;
use bevy::prelude::*;
use bevy::window::AppLifecycle;
use montello_engine::Move;

/// Adds the cues: moves and refusals become [`PlaySound`] messages while the sound is on.
pub(crate) fn logic_plugin(app: &mut App) {
    app.add_message::<PlaySound>()
        .add_systems(Update, cue_sounds.in_set(AppSystems::View));
}

/// Plays the cues through the device (where the platform has an output backend).
pub(crate) fn output_plugin(app: &mut App) {
    app.insert_resource(Speaker::start())
        .add_systems(Update, play_sounds.after(AppSystems::View));
}

/// The sounds Montello makes.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Sound {
    /// A disc lands on the board.
    Place,
    /// A disc turns over.
    Flip,
    /// A tap that changed nothing.
    Refused,
}

impl Sound {
    /// Every sound.
    pub const ALL: [Sound; 3] = [Sound::Place, Sound::Flip, Sound::Refused];
}

/// One sound to play `delay` seconds from now at `gain` (1 = as synthesised).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Cue {
    pub delay: f32,
    pub sound: Sound,
    pub gain: f32,
}

/// Sounds to play, in step with what the board shows.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct PlaySound(pub Vec<Cue>);

/// The sample rate of the synthesised sounds.
pub const RATE: u32 = 44_100;

/// The sounds of a move: the clack when the disc lands, then one tick per group of discs
/// that start turning together, half-way through their turn; louder when more turn at once.
/// `scale` is the animation speed (1 normal, 0.5 fast, `None` off: all at once).
pub fn move_cues(played: &MovePlayed, announced: bool, scale: Option<f32>) -> Vec<Cue> {
    let Move::Play(placed) = played.mv else {
        return Vec::new();
    };
    let flipped = played.flipped();
    let cue = |delay, sound, gain| Cue { delay, sound, gain };
    let Some(scale) = scale else {
        let mut cues = vec![cue(0.0, Sound::Place, 1.0)];
        if flipped != 0 {
            cues.push(cue(0.06, Sound::Flip, 0.8));
        }
        return cues;
    };
    let timeline = move_timeline(placed, flipped, announced, scale);
    let mut cues = vec![cue(timeline.landed, Sound::Place, 1.0)];
    let mut starts: Vec<f32> = timeline.flips.iter().map(|&(_, start)| start).collect();
    starts.sort_by(f32::total_cmp);
    for group in starts.chunk_by(|a, b| (a - b).abs() < 1e-4) {
        let gain = (0.6 + 0.15 * (group.len() as f32 - 1.0)).min(1.0);
        cues.push(cue(
            group[0] + timeline.flip_duration / 2.0,
            Sound::Flip,
            gain,
        ));
    }
    cues
}

fn cue_sounds(
    settings: Res<Settings>,
    players: Res<Players>,
    mut played: MessageReader<MovePlayed>,
    mut refused: MessageReader<TapRefused>,
    mut out: MessageWriter<PlaySound>,
) {
    if !settings.sound {
        played.clear();
        refused.clear();
        return;
    }
    let scale = settings.animations.time_scale();
    for played in played.read() {
        let cues = move_cues(played, !players.is_human(played.side), scale);
        if !cues.is_empty() {
            out.write(PlaySound(cues));
        }
    }
    if refused.read().count() > 0 {
        out.write(PlaySound(vec![Cue {
            delay: 0.0,
            sound: Sound::Refused,
            gain: 1.0,
        }]));
    }
}

/// A sound, synthesised: mono samples at [`RATE`], starting and ending at silence, never
/// clipping. The same every time (the noise is seeded).
pub fn synth(sound: Sound) -> Vec<f32> {
    // (seconds, partials as (hz, amplitude, decay per second), noise amplitude, noise decay
    // per second, peak)
    let (length, partials, noise, noise_decay, peak): (f32, &[(f32, f32, f32)], f32, f32, f32) =
        match sound {
            // A wooden clack: a low body and a bright knock.
            Sound::Place => (
                0.09,
                &[(190.0, 1.0, 28.0), (420.0, 0.5, 40.0), (1250.0, 0.25, 70.0)],
                0.6,
                180.0,
                0.55,
            ),
            // A short high tick.
            Sound::Flip => (
                0.045,
                &[(1650.0, 1.0, 110.0), (2900.0, 0.5, 160.0)],
                0.4,
                400.0,
                0.28,
            ),
            // A soft low thud.
            Sound::Refused => (
                0.14,
                &[(95.0, 1.0, 22.0), (150.0, 0.4, 30.0)],
                0.1,
                100.0,
                0.4,
            ),
        };
    let n = (length * RATE as f32).round() as usize;
    let mut seed: u32 = 0x9E37_79B9;
    let mut samples: Vec<f32> = (0..n)
        .map(|i| {
            let t = i as f32 / RATE as f32;
            let tone: f32 = partials
                .iter()
                .map(|&(hz, amp, decay)| {
                    amp * (-decay * t).exp() * (std::f32::consts::TAU * hz * t).sin()
                })
                .sum();
            // xorshift32: white noise in -1..1.
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            let white = seed as f32 / u32::MAX as f32 * 2.0 - 1.0;
            tone + noise * (-noise_decay * t).exp() * white
        })
        .collect();
    // Fade in over 1.5 ms and out over the last 5 ms: no click at either end.
    let fade_in = (0.0015 * RATE as f32) as usize;
    let fade_out = (0.005 * RATE as f32) as usize;
    for (i, s) in samples.iter_mut().enumerate() {
        let a = (i as f32 / fade_in as f32).min(1.0);
        let b = ((n - 1 - i) as f32 / fade_out as f32).min(1.0);
        *s *= a * b;
    }
    let max = samples.iter().fold(0.0_f32, |m, s| m.max(s.abs()));
    if max > 0.0 {
        for s in &mut samples {
            *s *= peak / max;
        }
    }
    samples
}

/// What the game asks of the sound thread.
#[derive(Debug)]
#[cfg_attr(
    not(any(
        target_os = "android",
        target_os = "ios",
        target_os = "macos",
        target_os = "windows"
    )),
    allow(
        dead_code,
        reason = "no output backend reads the cues on this platform"
    )
)]
enum Command {
    Play(Vec<Cue>),
    /// Close the device now (the app is being suspended).
    Silence,
}

/// The way to the sound thread (none where the platform has no output backend).
#[derive(Resource, Debug)]
struct Speaker(Option<std::sync::mpsc::Sender<Command>>);

impl Speaker {
    fn start() -> Speaker {
        Speaker(output::spawn())
    }

    fn send(&self, command: Command) {
        if let Some(tx) = &self.0 {
            // The thread only ends with the app; a send that fails loses a sound, nothing else.
            let _ = tx.send(command);
        }
    }
}

fn play_sounds(
    mut sounds: MessageReader<PlaySound>,
    mut lifecycle: MessageReader<AppLifecycle>,
    speaker: Res<Speaker>,
) {
    for PlaySound(cues) in sounds.read() {
        speaker.send(Command::Play(cues.clone()));
    }
    if lifecycle
        .read()
        .any(|e| matches!(e, AppLifecycle::WillSuspend | AppLifecycle::Suspended))
    {
        speaker.send(Command::Silence);
    }
}

#[cfg(any(
    target_os = "android",
    target_os = "ios",
    target_os = "macos",
    target_os = "windows"
))]
mod output {
    use super::{Command, RATE, Sound, synth};
    use bevy::log::{info, warn};
    use rodio::buffer::SamplesBuffer;
    use rodio::{DeviceSinkBuilder, MixerDeviceSink, Source};
    use std::num::NonZero;
    use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
    use std::time::{Duration, Instant};

    /// How long the device stays open after the last sound ends.
    const KEEP_OPEN: Duration = Duration::from_secs(2);
    /// After the device failed to open, try again no sooner than this.
    const RETRY: Duration = Duration::from_secs(30);

    pub(crate) fn spawn() -> Option<Sender<Command>> {
        let (tx, rx) = mpsc::channel();
        std::thread::Builder::new()
            .name("montello-sound".into())
            .spawn(move || run(rx))
            .map_err(|e| warn!("sound: no sound thread: {e}"))
            .ok()?;
        Some(tx)
    }

    /// iOS: the ambient category mixes with the player's music and obeys the silent switch.
    #[cfg(target_os = "ios")]
    fn ambient_session() {
        use objc2_avf_audio::{AVAudioSession, AVAudioSessionCategoryAmbient};
        // SAFETY: the shared session is a process-wide singleton; setting its category is
        // allowed from any thread before the first stream opens.
        unsafe {
            if let Some(category) = AVAudioSessionCategoryAmbient
                && let Err(e) = AVAudioSession::sharedInstance().setCategory_error(category)
            {
                warn!("sound: could not set the ambient audio session: {e:?}");
            }
        }
    }

    fn run(rx: Receiver<Command>) {
        #[cfg(target_os = "ios")]
        ambient_session();
        let (one, rate) = (
            NonZero::<u16>::MIN,
            NonZero::new(RATE).unwrap_or(NonZero::<u32>::MIN),
        );
        let buffers: Vec<(Sound, SamplesBuffer)> = Sound::ALL
            .into_iter()
            .map(|s| (s, SamplesBuffer::new(one, rate, synth(s))))
            .collect();
        let mut sink: Option<MixerDeviceSink> = None;
        let mut quiet_at = Instant::now();
        let mut retry_at: Option<Instant> = None;
        loop {
            // With the device closed, block: no CPU at all until the next sound.
            let command = match sink {
                Some(_) => rx.recv_timeout(KEEP_OPEN),
                None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
            };
            match command {
                Ok(Command::Play(cues)) => {
                    let now = Instant::now();
                    if sink.is_none() && retry_at.is_none_or(|at| now >= at) {
                        match DeviceSinkBuilder::open_default_sink() {
                            Ok(mut opened) => {
                                opened.log_on_drop(false);
                                sink = Some(opened);
                                retry_at = None;
                            }
                            Err(e) => {
                                info!("sound: no output device ({e}); trying again later");
                                retry_at = Some(now + RETRY);
                            }
                        }
                    }
                    let Some(open) = &sink else { continue };
                    for cue in cues {
                        let Some((_, buffer)) = buffers.iter().find(|(s, _)| *s == cue.sound)
                        else {
                            continue;
                        };
                        let delay = Duration::from_secs_f32(cue.delay.max(0.0));
                        quiet_at =
                            quiet_at.max(now + delay + buffer.total_duration().unwrap_or_default());
                        open.mixer()
                            .add(buffer.clone().amplify(cue.gain).delay(delay));
                    }
                }
                Ok(Command::Silence) => sink = None,
                Err(RecvTimeoutError::Timeout) => {
                    if Instant::now() >= quiet_at {
                        sink = None;
                    }
                }
                Err(RecvTimeoutError::Disconnected) => return,
            }
        }
    }
}

/// Platforms without an output backend (desktop Linux): no thread, the cues go nowhere.
#[cfg(not(any(
    target_os = "android",
    target_os = "ios",
    target_os = "macos",
    target_os = "windows"
)))]
mod output {
    use super::Command;
    use std::sync::mpsc::Sender;

    pub(crate) fn spawn() -> Option<Sender<Command>> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use montello_engine::{Position, Side, Square};

    fn sq(name: &str) -> Square {
        name.parse().expect("a square")
    }

    #[test]
    fn sounds_start_and_end_silent_and_never_clip() {
        for sound in Sound::ALL {
            let s = synth(sound);
            assert!(s.len() > RATE as usize / 50, "{sound:?} lasts over 20 ms");
            assert!(s.len() < RATE as usize / 5, "{sound:?} is short");
            assert_eq!(s[0], 0.0, "{sound:?} starts at silence");
            assert_eq!(s[s.len() - 1], 0.0, "{sound:?} ends at silence");
            let peak = s.iter().fold(0.0_f32, |m, x| m.max(x.abs()));
            assert!(peak > 0.2 && peak < 0.6, "{sound:?} peak {peak}");
            let energy = |part: &[f32]| part.iter().map(|x| x * x).sum::<f32>();
            let (first, second) = s.split_at(s.len() / 2);
            assert!(energy(first) > 2.0 * energy(second), "{sound:?} dies away");
            assert_eq!(s, synth(sound), "{sound:?} is the same every time");
        }
        assert_ne!(synth(Sound::Place), synth(Sound::Flip));
    }

    #[test]
    fn a_move_clacks_when_the_disc_lands_then_ticks_with_the_flips() {
        // c4 from the start turns d4; after f5 d6, c3 turns d4 (and nothing else).
        let before = Position::start();
        let after = before.play_unchecked(sq("c4"));
        let played = MovePlayed {
            mv: Move::Play(sq("c4")),
            side: Side::Black,
            before,
            after,
        };
        let human = move_cues(&played, false, Some(1.0));
        assert_eq!(human.len(), 2);
        assert_eq!(human[0].sound, Sound::Place);
        assert_eq!(human[1].sound, Sound::Flip);
        assert!(
            human[1].delay > human[0].delay,
            "the flip follows the landing"
        );
        // The same move by the AI is announced first: every sound comes later by as much.
        let ai = move_cues(&played, true, Some(1.0));
        let shift = ai[0].delay - human[0].delay;
        assert!(shift > 0.2);
        assert!((ai[1].delay - human[1].delay - shift).abs() < 1e-5);
        // Fast animations: twice as soon. Off: at once.
        let fast = move_cues(&played, false, Some(0.5));
        assert!((fast[1].delay - human[1].delay / 2.0).abs() < 1e-5);
        let off = move_cues(&played, false, None);
        assert_eq!(off[0].delay, 0.0);
        assert_eq!(off.len(), 2);
        // A pass makes no sound.
        let pass = MovePlayed {
            mv: Move::Pass,
            ..played
        };
        assert!(move_cues(&pass, false, Some(1.0)).is_empty());
    }

    #[test]
    fn discs_turning_together_tick_once_and_louder() {
        // From this position, black's e3 turns e4 (one step down) and d4 (one step
        // diagonally): two discs at the same distance start together.
        let before = Position::from_player_opponent(
            sq("e5").bit() | sq("c5").bit(),
            sq("e4").bit() | sq("d4").bit(),
            Side::Black,
        );
        let e3 = sq("e3");
        let after = before.play_unchecked(e3);
        assert_eq!(
            before.flips(e3).count(),
            2,
            "the position is what the test needs"
        );
        let played = MovePlayed {
            mv: Move::Play(e3),
            side: Side::Black,
            before,
            after,
        };
        let cues = move_cues(&played, false, Some(1.0));
        assert_eq!(cues.len(), 2, "{cues:?}");
        assert!(cues[1].gain > 0.6);
    }
}
