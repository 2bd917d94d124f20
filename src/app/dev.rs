//! Desktop development helpers: `--screenshot FILE [--after-moves N]` waits until N moves are
//! on the board and the 3D scene is really drawn (shaders compile for a while under software
//! rendering), saves the PNG and exits; beside it, `FILE.squares` gives where each square's
//! centre is in the picture, so tools that measure the picture (tools/contrast-check.py) find
//! the board whatever the layout. `--frame-stats SECONDS` prints frame-time statistics and
//! exits. `--autoplay LEVEL --games N` plays N games in a row, printing what each cost (the
//! battery and soak figures of docs/ai.md), then exits.

use crate::app::launch::LaunchOptions;
use crate::game::ai::{AiControl, AiState, LastHint};
use crate::game::flow::{CurrentGame, ViewBusy};
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::{Duration, Instant};

pub(crate) fn plugin(app: &mut App) {
    if app.world().resource::<LaunchOptions>().offscreen {
        app.add_systems(PostStartup, render_offscreen);
    }
    if let Some(seconds) = app.world().resource::<LaunchOptions>().frame_stats {
        app.insert_resource(FrameStats {
            seconds,
            ..default()
        })
        .add_systems(Last, measure_frames);
    }
    if app.world().resource::<LaunchOptions>().screenshot.is_some() {
        app.init_resource::<ScreenshotJob>()
            .add_systems(Last, take_screenshot);
    }
    let launch = app.world().resource::<LaunchOptions>();
    if let (Some(_), Some(games)) = (launch.autoplay, launch.games) {
        app.insert_resource(Series { games, ..default() })
            .add_systems(Last, play_series);
    }
}

/// `--games N`: games played so far and when (and at what CPU time) the current one began.
#[derive(Resource, Default)]
struct Series {
    games: u32,
    played: u32,
    started: Option<(Instant, f64)>,
    /// The game generation last counted, so a game is counted once.
    counted: Option<u64>,
}

/// This process's CPU seconds (user + system) and resident memory in MiB, from Linux's /proc;
/// `None` elsewhere.
fn process_usage() -> Option<(f64, f64)> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name (which may hold spaces) start after the last ')'.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the line, in clock ticks of 1/100 s (Linux's
    // USER_HZ on every architecture it runs on).
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let rss_kib: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some((ticks / 100.0, rss_kib / 1024.0))
}

/// At each game's end prints `game N: M moves, S s, C s CPU, R MiB resident` and starts the
/// next, or exits after the last.
fn play_series(
    mut series: ResMut<Series>,
    current: Res<CurrentGame>,
    mut commands: MessageWriter<crate::game::flow::GameCommand>,
    mut exit: MessageWriter<AppExit>,
) {
    let (cpu, rss) = process_usage().unwrap_or((f64::NAN, f64::NAN));
    let (started, cpu_at_start) = *series.started.get_or_insert((Instant::now(), cpu));
    if !current.game().is_over() || series.counted == Some(current.generation()) {
        return;
    }
    series.counted = Some(current.generation());
    series.played += 1;
    println!(
        "game {}: {} moves, {:.1} s, {:.1} s CPU, {:.0} MiB resident",
        series.played,
        current.game().ply(),
        started.elapsed().as_secs_f64(),
        cpu - cpu_at_start,
        rss
    );
    series.started = None;
    if series.played >= series.games {
        exit.write(AppExit::Success);
    } else {
        commands.write(crate::game::flow::GameCommand::PlayAgain);
    }
}

const WAITING: u8 = 0;
const CAPTURING: u8 = 1;
const SAVED: u8 = 2;

/// Give up (exit code 1) if no screenshot could be taken in this long.
const DEADLINE: Duration = Duration::from_secs(300);

#[derive(Resource)]
struct ScreenshotJob {
    phase: Arc<AtomicU8>,
    started: Instant,
    settled_frames: u32,
    /// Whether shaders were seen compiling: once they are done, the 3D scene is drawn even if
    /// a panel covers the board.
    seen_compiling: bool,
}

impl Default for ScreenshotJob {
    fn default() -> Self {
        ScreenshotJob {
            phase: Arc::new(AtomicU8::new(WAITING)),
            started: Instant::now(),
            settled_frames: 0,
            seen_compiling: false,
        }
    }
}

/// What a screenshot waits for: the board and the shaders settled, and whatever the picture
/// is to show (a hint, the review, the win bar's figure).
#[derive(bevy::ecs::system::SystemParam)]
struct ShotWaits<'w> {
    busy: Res<'w, ViewBusy>,
    pipelines: Res<'w, crate::app::power::PipelinesPending>,
    hint: Res<'w, LastHint>,
    review: Res<'w, crate::game::review::GameReview>,
    practice: Res<'w, crate::game::practice::Practice>,
    puzzling: Res<'w, crate::game::puzzle::Puzzling>,
    values: Res<'w, crate::game::values::SquareValues>,
    asked: Res<'w, crate::game::values::ValuesAsked>,
    margin: Res<'w, crate::game::margin::MarginEstimate>,
    settings: Res<'w, crate::prefs::settings::Settings>,
    table: Res<'w, crate::prefs::settings::TableMode>,
}

impl ShotWaits<'_> {
    /// Whether the squares wait for their values (a hint, a position of the review, a try).
    fn values_pending(&self, current: &CurrentGame) -> bool {
        crate::game::values::wanted(current, &self.asked, &self.hint)
            .is_some_and(|asked| self.values.of(&asked).is_none())
    }

    /// Whether a puzzle is on the board with `tries` tries made (the misses and the player's
    /// moves played), none being judged, and the player to move or the game over.
    fn puzzle_settled(&self, current: &CurrentGame, tries: usize) -> bool {
        use crate::game::puzzle::PuzzleState;
        let Some(session) = self.puzzling.0.as_ref() else {
            return false;
        };
        let game = current.game();
        let side = session.side();
        let played = game
            .positions()
            .iter()
            .zip(game.history())
            .filter(|(before, mv)| {
                before.side_to_move() == side && !matches!(mv, montello_engine::Move::Pass)
            })
            .count();
        session.misses as usize + played >= tries
            && !matches!(session.state, PuzzleState::Judging(_))
            && (game.is_over() || game.side_to_move() == side)
    }

    /// Whether the win bar is on screen and still waits for its figure.
    fn figure_pending(&self, current: &CurrentGame) -> bool {
        self.settings.win_bar
            && !self.table.0
            && self.settings.win_shows == crate::prefs::choices::WinShows::Discs
            && !self.margin.is_made_for(current)
    }
}

fn take_screenshot(
    mut commands: Commands,
    mut job: ResMut<ScreenshotJob>,
    launch: Res<LaunchOptions>,
    current: Res<CurrentGame>,
    waits: ShotWaits,
    mut ai: ResMut<AiState>,
    mut control: ResMut<AiControl>,
    mut exit: MessageWriter<AppExit>,
    clear: Res<ClearColor>,
    cameras: Query<(&Camera, &GlobalTransform), With<Camera3d>>,
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
    probes: Query<(
        &crate::ui::layout::LayoutProbe,
        &ComputedNode,
        &bevy::ui::UiGlobalTransform,
        &InheritedVisibility,
    )>,
    scrolls: Query<
        (
            &ComputedNode,
            &bevy::ui::UiGlobalTransform,
            &InheritedVisibility,
            &ScrollPosition,
        ),
        With<crate::ui::widgets::Scrolls>,
    >,
) {
    if waits.pipelines.pending() && !job.seen_compiling {
        job.seen_compiling = true;
    }
    match job.phase.load(Ordering::Acquire) {
        SAVED => {
            exit.write(AppExit::Success);
            return;
        }
        CAPTURING => return,
        _ => {}
    }
    if job.started.elapsed() > DEADLINE {
        error!("no screenshot after {DEADLINE:?}: giving up");
        exit.write(AppExit::error());
        return;
    }
    if current.game().ply() < launch.after_moves && !current.game().is_over() {
        return;
    }
    if launch.hint && waits.hint.0.is_none() {
        return;
    }
    if launch.review && !waits.review.covers(current.game()) {
        return;
    }
    // A step into the best line: shown.
    if launch.line_step.is_some() && current.line().is_none() {
        return;
    }
    // A try at a better move: set up, and judged when a square was tapped.
    if launch.try_again {
        let state = waits.practice.0.map(|a| a.state);
        use crate::game::practice::TryState;
        let ready = matches!(
            (launch.try_move, state),
            (None, Some(TryState::Asking)) | (Some(_), Some(TryState::Judged(_)))
        );
        if !ready {
            return;
        }
    }
    // A puzzle: every try of `--puzzle-moves` tapped and judged, and Master's answer played.
    if launch.puzzle.is_some()
        && !(waits.puzzle_settled(&current, launch.puzzle_moves.len())
            && (!launch.puzzle_solve || current.game().is_over()))
    {
        return;
    }
    // Freeze the game where the picture is to be taken.
    if !control.frozen {
        control.frozen = true;
        ai.cancel();
    }
    if waits.busy.0
        || waits.pipelines.pending()
        || waits.figure_pending(&current)
        || waits.values_pending(&current)
    {
        job.settled_frames = 0;
        return;
    }
    job.settled_frames += 1;
    if job.settled_frames < 3 {
        return;
    }
    let Some(path) = launch.screenshot.clone() else {
        return;
    };
    if let Err(err) = write_square_map(&path, &cameras, &windows) {
        warn!("no square map beside the screenshot: {err}");
    }
    if let Err(err) = write_layout(&path, &probes, &scrolls) {
        warn!("no layout beside the screenshot: {err}");
    }
    job.phase.store(CAPTURING, Ordering::Release);
    let phase = job.phase.clone();
    let background = clear.0;
    let compiled = job.seen_compiling;
    let mut save = save_to_disk(path);
    commands.spawn(Screenshot::primary_window()).observe(
        move |captured: On<ScreenshotCaptured>| {
            // The felt across the middle says the scene is drawn; under a panel that covers
            // it, the shaders having compiled says so.
            if compiled || board_is_drawn(&captured.image, background) {
                save(captured);
                phase.store(SAVED, Ordering::Release);
            } else {
                // Shaders are still compiling: only the UI is there. Try again.
                phase.store(WAITING, Ordering::Release);
            }
        },
    );
}

/// Writes `PATH.squares`: one line per square, `a1 X Y`, its centre in the picture's pixels.
fn write_square_map(
    path: &std::path::Path,
    cameras: &Query<(&Camera, &GlobalTransform), With<Camera3d>>,
    windows: &Query<&Window, With<bevy::window::PrimaryWindow>>,
) -> Result<(), String> {
    let (camera, at) = cameras.single().map_err(|e| e.to_string())?;
    let scale = windows.single().map_or(1.0, Window::scale_factor);
    let mut lines = String::new();
    for index in 0..64 {
        let square = montello_engine::Square::from_index(index).ok_or("no such square")?;
        let centre = crate::board::square_centre(square);
        let p = camera
            .world_to_viewport(at, centre)
            .map_err(|e| format!("{square}: {e:?}"))?
            * scale;
        lines.push_str(&format!("{square} {:.1} {:.1}\n", p.x, p.y));
    }
    std::fs::write(beside(path, ".squares"), lines).map_err(|e| e.to_string())
}

/// Writes `PATH.layout`: `scale S` (the picture's pixels per UI unit), one line per shown
/// [`crate::ui::layout::LayoutProbe`] node, `NAME LEFT TOP RIGHT BOTTOM` in the picture's
/// pixels, and one per shown scrolling node, `scroll LEFT TOP RIGHT BOTTOM CONTENT_HEIGHT
/// SCROLLED` (how far down it is scrolled), also in pixels.
fn write_layout(
    path: &std::path::Path,
    probes: &Query<(
        &crate::ui::layout::LayoutProbe,
        &ComputedNode,
        &bevy::ui::UiGlobalTransform,
        &InheritedVisibility,
    )>,
    scrolls: &Query<
        (
            &ComputedNode,
            &bevy::ui::UiGlobalTransform,
            &InheritedVisibility,
            &ScrollPosition,
        ),
        With<crate::ui::widgets::Scrolls>,
    >,
) -> std::io::Result<()> {
    let mut lines = String::new();
    // The picture's pixels per UI unit (the UI scale times the window's scale factor), so
    // that tools/layout-check.py can count the move list's rows in UI units.
    if let Some((_, node, _, _)) = probes.iter().next() {
        lines.push_str(&format!("scale {}\n", 1.0 / node.inverse_scale_factor()));
    }
    for (probe, node, at, visible) in probes {
        if let Some((min, max)) = drawn_box(node, at, visible) {
            lines.push_str(&format!(
                "{} {:.1} {:.1} {:.1} {:.1}\n",
                probe.0, min.x, min.y, max.x, max.y
            ));
        }
    }
    for (node, at, visible, scroll) in scrolls {
        if let Some((min, max)) = drawn_box(node, at, visible) {
            lines.push_str(&format!(
                "scroll {:.1} {:.1} {:.1} {:.1} {:.1} {:.1}\n",
                min.x,
                min.y,
                max.x,
                max.y,
                node.content_size().y,
                scroll.y / node.inverse_scale_factor()
            ));
        }
    }
    std::fs::write(beside(path, ".layout"), lines)
}

/// Where a shown node was drawn (its corners, in the picture's pixels), if it was drawn at
/// all.
fn drawn_box(
    node: &ComputedNode,
    at: &bevy::ui::UiGlobalTransform,
    visible: &InheritedVisibility,
) -> Option<(Vec2, Vec2)> {
    let size = node.size();
    if !visible.get() || size.x < 1.0 || size.y < 1.0 {
        return None;
    }
    let centre = at.translation;
    Some((centre - size / 2.0, centre + size / 2.0))
}

/// The file beside the screenshot at `path`, its name followed by `suffix`.
fn beside(path: &std::path::Path, suffix: &str) -> std::path::PathBuf {
    let mut file = path.as_os_str().to_owned();
    file.push(suffix);
    file.into()
}

/// Whether the felt shows: a good share of green pixels along the screen's middle row.
fn board_is_drawn(image: &Image, background: Color) -> bool {
    // Until the 3D pipelines are compiled only the UI is drawn over the clear colour: the
    // row across the middle of the board then shows the background, whatever the theme.
    let size = image.size();
    let y = size.y / 2;
    let bg = background.to_srgba();
    let mut board = 0;
    for x in 0..size.x {
        if let Ok(c) = image.get_color_at(x, y) {
            let c = c.to_srgba();
            let diff = (c.red - bg.red)
                .abs()
                .max((c.green - bg.green).abs())
                .max((c.blue - bg.blue).abs());
            if diff > 0.08 {
                board += 1;
            }
        }
    }
    board * 4 >= size.x
}

/// `--offscreen`: every camera renders into an image the size of the (virtual) window, so
/// the whole scene and UI are drawn on the GPU as usual, without a surface to present to.
fn render_offscreen(
    mut commands: Commands,
    mut images: ResMut<Assets<Image>>,
    windows: Query<&Window>,
    cameras: Query<Entity, With<Camera>>,
) {
    let (w, h) = windows.iter().next().map_or((720, 1080), |w| {
        (w.physical_width().max(1), w.physical_height().max(1))
    });
    let image = Image::new_target_texture(
        w,
        h,
        bevy::render::render_resource::TextureFormat::Rgba8UnormSrgb,
        None,
    );
    let handle = images.add(image);
    for camera in &cameras {
        commands
            .entity(camera)
            .insert(bevy::camera::RenderTarget::Image(handle.clone().into()));
    }
}

/// `--frame-stats`: frame times after a warm-up (shaders compile first).
#[derive(Resource, Default)]
struct FrameStats {
    seconds: f32,
    warm_up_left: Option<f32>,
    frames: Vec<f32>,
}

const WARM_UP: f32 = 5.0;

fn measure_frames(
    time: Res<Time<Real>>,
    mut stats: ResMut<FrameStats>,
    mut exit: MessageWriter<AppExit>,
) {
    let dt = time.delta_secs();
    let left = stats.warm_up_left.get_or_insert(WARM_UP);
    if *left > 0.0 {
        *left -= dt;
        return;
    }
    stats.frames.push(dt);
    if stats.frames.iter().sum::<f32>() < stats.seconds {
        return;
    }
    let mut ms: Vec<f32> = stats.frames.iter().map(|s| s * 1000.0).collect();
    ms.sort_by(f32::total_cmp);
    let pct = |p: f32| ms[((ms.len() - 1) as f32 * p).round() as usize];
    let mean = ms.iter().sum::<f32>() / ms.len() as f32;
    let line = format!(
        "frame-stats: {} frames in {:.1} s: mean {mean:.1} ms ({:.1} fps), p50 {:.1} ms, \
         p95 {:.1} ms, max {:.1} ms",
        ms.len(),
        stats.seconds,
        1000.0 / mean,
        pct(0.5),
        pct(0.95),
        pct(1.0),
    );
    info!("{line}");
    println!("{line}");
    exit.write(AppExit::Success);
}
