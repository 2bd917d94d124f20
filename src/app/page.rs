//! The browser build's page (web/index.html): what the app tells it through `data-` attributes
//! on its `<body>`, read by the loading screen and by the real-browser test
//! (web/test/phone.mjs), which can see nothing of the canvas's contents otherwise.
//!
//! | attribute | value |
//! |---|---|
//! | `data-montello` | `ready` once a frame was drawn with every pipeline compiled (the loading screen then goes) |
//! | `data-transcript` | the game's moves, `f5d6c3` |
//! | `data-black`, `data-white` | the disc counts |
//! | `data-turn` | `black`, `white` or `over` |
//! | `data-thinking` | `1` while the engine searches |
//! | `data-busy` | `1` while discs move (a tap then is refused with feedback) |
//! | `data-legal` | the legal squares and their centres in the canvas's CSS pixels: `f5:195.0,420.5 d3:…` |
//! | `data-squares` | every square's centre, `a1:x,y b1:…`, for tools/contrast-check.py |
//! | `data-layout` | the layout probes (`crate::ui::layout::LayoutProbe`), `name:left,top,right,bottom;…` in the UI's pixels, for tools/layout-check.py |
//! | `data-ui-scale` | how many CSS pixels a UI pixel of `data-layout` is (the UI is drawn larger on a tablet) |
//! | `data-worker` | `failed` when the engine's worker could not run (searches then run on the page, in the worker's module loaded there) |
//! | `data-rendering` | how the board is drawn: `scale 2 msaa 1 shadows off` (the window's scale factor, the camera's samples per pixel, the sun's shadows) |
//! | `data-estimate` | the win bar's figure for the position on the board (`game::margin`): `none`, or Black's expected final margin and how it was made, `-2.5 searched`, `44.0 exact` |
//! | `data-review` | the game review (`game::review`): `none`, `running`, or `done MOVES MARKED` (the moves on the board reviewed, and how many of them cost discs enough to be marked) |
//! | `data-values` | the values on the squares (`game::values`) of the position the board values now: `none`, `running`, or the wire's words best first, `h7:10:e g1:-4:e …` |
//! | `data-engine-memory` | the engine's budget on this device (`platform::memory`): its class and the most bytes a search's tree may hold, `phone 16777216` |
//! | `data-heap` | what the app's heap holds by owner (`app::heap`): `heap MIB/PEAK_MIB images N/BYTES atlases N/SIZES/BYTES meshes N/BYTES` |
//! | `data-practice` | a try at a better move (`game::practice`): `none`, `asking PLY`, `judging PLY`, `judged PLY MOVE found\|missed VALUE`, `answered PLY` |
//! | `data-puzzle` | the daily puzzle (`game::puzzle`): `none`, or `DAY STATE misses N` with STATE `playing`, `judging`, `finished MARGIN solved\|unsolved` or `shown` |
//!
//! Positions are in the canvas's CSS pixels (the page adds the canvas's offset).

use crate::app::power::PipelinesPending;
use crate::game::ai::AiState;
use crate::game::flow::{CurrentGame, ViewBusy};
use crate::ui::layout::LayoutProbe;
use bevy::prelude::*;
use montello_engine::notation::transcript;
use montello_engine::{Side, Square};
use wasm_bindgen::JsCast;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        Startup,
        (
            crate::platform::web::show_panics,
            crate::platform::web::watch_visibility,
        ),
    )
    .add_systems(Update, say_after_a_panic);
    app.add_systems(
        Last,
        (
            mark_ready,
            publish_game,
            publish_rendering,
            publish_review,
            publish_estimate,
            publish_values,
            publish_practice,
            publish_puzzle,
            publish_engine_memory,
            publish_heap,
            tell_engine_lost,
        ),
    );
}

/// The page's own words in the player's language: its screen after a panic
/// (`platform::web::show_panics`) and its Update button (web/index.html).
fn say_after_a_panic(lang: Res<crate::prefs::i18n::Language>) {
    if lang.is_changed() {
        crate::platform::web::say_after_a_panic(
            crate::prefs::i18n::Said::new("notice.crashed")
                .arg("error", "{error}")
                .in_lang(lang.0),
        );
        crate::platform::web::say_update(
            &crate::prefs::i18n::Said::new("notice.update_ready").in_lang(lang.0),
        );
    }
}

/// The engine could not load, in its worker or on the page (`platform::web::engine_lost`):
/// the page's own screen says so in the app's language, with its Reload button. The game was
/// saved after its last move.
fn tell_engine_lost(lang: Res<crate::prefs::i18n::Language>) {
    if let Some(why) = crate::platform::web::take_engine_lost() {
        let text = crate::prefs::i18n::Said::new("notice.engine_failed")
            .arg("error", why)
            .in_lang(lang.0);
        crate::platform::web::show_render_failure(&text);
    }
}

/// A `performance.mark` on the page's timeline.
fn mark(name: &str) {
    let mark = web_sys::window()
        .and_then(|w| js_sys::Reflect::get(&w, &"performance".into()).ok())
        .and_then(|p| {
            let mark = js_sys::Reflect::get(&p, &"mark".into()).ok()?;
            Some((p, mark.dyn_into::<js_sys::Function>().ok()?))
        });
    if let Some((performance, mark)) = mark {
        let _ = mark.call1(&performance, &name.into());
    }
}

fn body() -> Option<web_sys::HtmlElement> {
    web_sys::window()?.document()?.body()
}

fn set(name: &str, value: &str) {
    if let Some(body) = body()
        && body.get_attribute(name).as_deref() != Some(value)
    {
        let _ = body.set_attribute(name, value);
    }
}

/// Ready once three frames in a row were drawn with no shader left to compile (the first may
/// still show a half-built scene).
fn mark_ready(pipelines: Res<PipelinesPending>, mut frames: Local<u32>, mut first: Local<bool>) {
    if *frames > 3 {
        return;
    }
    // The app's first frame, for web/test/startup.mjs: what is left after it is the shaders.
    if !*first {
        *first = true;
        mark("montello:first-frame");
    }
    *frames = if pipelines.pending() { 0 } else { *frames + 1 };
    if *frames == 3 {
        set("data-montello", "ready");
        *frames = 4;
    }
}

/// How the board is drawn: a touch-first browser draws as a phone does (app::gpu). Written in
/// a frame where the window, the camera's MSAA or the shadows changed, not every frame.
fn publish_rendering(
    windows: Query<Ref<Window>, With<bevy::window::PrimaryWindow>>,
    cameras: Query<Ref<Msaa>, With<Camera3d>>,
    shadows: Option<Res<crate::board::Shadows>>,
) {
    let (Ok(window), Ok(msaa)) = (windows.single(), cameras.single()) else {
        return;
    };
    if !(window.is_changed()
        || msaa.is_changed()
        || shadows.as_ref().is_some_and(|s| s.is_changed()))
    {
        return;
    }
    let shadows = shadows.map_or_else(crate::board::Shadows::default, |s| *s);
    set(
        "data-rendering",
        &format!(
            "scale {} msaa {} shadows {}",
            window.scale_factor(),
            msaa.samples(),
            if shadows.0 { "on" } else { "off" }
        ),
    );
}

/// The engine's memory budget, written once it is known (it does not change).
fn publish_heap(heap: Res<crate::app::heap::HeapReport>) {
    if heap.is_changed() {
        set("data-heap", &heap.words());
    }
}

fn publish_engine_memory(memory: Res<crate::platform::memory::EngineMemory>) {
    if memory.is_changed() {
        set(
            "data-engine-memory",
            &format!("{} {}", memory.class.name(), memory.tree),
        );
    }
}

/// The game review's state, written in a frame where the review or the game changed.
fn publish_review(current: Res<CurrentGame>, review: Res<crate::game::review::GameReview>) {
    if !(current.is_changed() || review.is_changed()) {
        return;
    }
    let game = current.game();
    let state = match (review.progress(), review.of_game(game)) {
        (Some(_), _) => "running".to_string(),
        (None, Some(whole)) => {
            let marked = whole
                .moves
                .iter()
                .filter(|m| crate::ui::theme::review_colour(m.class()).is_some())
                .count();
            format!("done {} {marked}", whole.moves.len())
        }
        (None, None) => "none".to_string(),
    };
    set("data-review", &state);
}

/// The values on the squares of the position the board values now.
fn publish_values(
    current: Res<CurrentGame>,
    values: Res<crate::game::values::SquareValues>,
    asked: Res<crate::game::values::ValuesAsked>,
    hint: Res<crate::game::ai::LastHint>,
) {
    if !(current.is_changed() || values.is_changed() || asked.is_changed() || hint.is_changed()) {
        return;
    }
    let state = match crate::game::values::wanted(&current, &asked, &hint) {
        None => "none".to_string(),
        Some(valued) => match values.of(&valued) {
            Some(found) => found
                .iter()
                .map(|v| format!("{}:{}:{}", v.mv, v.value, if v.exact { 'e' } else { 's' }))
                .collect::<Vec<_>>()
                .join(" "),
            None => "running".to_string(),
        },
    };
    set("data-values", &state);
}

/// Where a try at a better move is.
fn publish_practice(practice: Res<crate::game::practice::Practice>) {
    use crate::game::practice::TryState;
    if !practice.is_changed() {
        return;
    }
    let state = match practice.0 {
        None => "none".to_string(),
        Some(a) => match a.state {
            TryState::Asking => format!("asking {}", a.ply),
            TryState::Judging(_) => format!("judging {}", a.ply),
            TryState::Judged(j) => format!(
                "judged {} {} {} {}",
                a.ply,
                j.tried,
                if j.found { "found" } else { "missed" },
                j.value
            ),
            TryState::Answered => format!("answered {}", a.ply),
        },
    };
    set("data-practice", &state);
}

/// Where the daily puzzle is.
fn publish_puzzle(puzzling: Res<crate::game::puzzle::Puzzling>) {
    use crate::game::puzzle::PuzzleState;
    if !puzzling.is_changed() {
        return;
    }
    let state = match puzzling.0.as_ref() {
        None => "none".to_string(),
        Some(s) => {
            let state = match s.state {
                PuzzleState::Playing => "playing".to_string(),
                PuzzleState::Judging(_) => "judging".to_string(),
                PuzzleState::Finished(margin) => format!(
                    "finished {margin} {}",
                    if s.solved() { "solved" } else { "unsolved" }
                ),
                PuzzleState::Shown => "shown".to_string(),
            };
            format!("{} {state} misses {}", s.day, s.misses)
        }
    };
    set("data-puzzle", &state);
}

/// The win bar's figure, written in a frame where it or the game changed.
fn publish_estimate(current: Res<CurrentGame>, margin: Res<crate::game::margin::MarginEstimate>) {
    if !(current.is_changed() || margin.is_changed()) {
        return;
    }
    let state = match margin.figure(&current) {
        Some(e) if margin.is_made_for(&current) => format!(
            "{:.1} {}",
            e.black_margin,
            if e.exact { "exact" } else { "searched" }
        ),
        _ => "none".to_string(),
    };
    set("data-estimate", &state);
}

/// The game's state and where things are drawn, written in a frame where one of them changed
/// (an attribute whose value is the same is not touched).
fn publish_game(
    current: Res<CurrentGame>,
    ai: Res<AiState>,
    busy: Res<ViewBusy>,
    cameras: Query<(Ref<Camera>, Ref<GlobalTransform>), With<Camera3d>>,
    probes: Query<(
        &LayoutProbe,
        Ref<ComputedNode>,
        Ref<bevy::ui::UiGlobalTransform>,
        Ref<InheritedVisibility>,
    )>,
    mut removed: RemovedComponents<LayoutProbe>,
    ui_scale: Res<UiScale>,
) {
    let moved = ui_scale.is_changed()
        || cameras
            .iter()
            .any(|(camera, at)| camera.is_changed() || at.is_changed())
        || probes.iter().any(|(_, node, at, visible)| {
            node.is_changed() || at.is_changed() || visible.is_changed()
        })
        || removed.read().count() > 0;
    if !(moved || current.is_changed() || ai.is_changed() || busy.is_changed()) {
        return;
    }
    let game = current.game();
    let score = game.position().score();
    let turn = if game.is_over() {
        "over"
    } else {
        match game.side_to_move() {
            Side::Black => "black",
            Side::White => "white",
        }
    };
    let mut legal = Vec::new();
    let mut squares = Vec::new();
    if let Ok((camera, at)) = cameras.single() {
        for square in Square::ALL {
            if let Ok(p) = camera.world_to_viewport(&at, crate::board::square_centre(square)) {
                let place = format!("{square}:{:.1},{:.1}", p.x, p.y);
                if game.legal_moves().contains(square) {
                    legal.push(place.clone());
                }
                squares.push(place);
            }
        }
    }
    let mut layout = Vec::new();
    for (probe, node, at, visible) in &probes {
        let size = node.size() * node.inverse_scale_factor();
        if !visible.get() || size.x < 1.0 || size.y < 1.0 {
            continue;
        }
        let centre = at.affine().translation * node.inverse_scale_factor();
        let (min, max) = (centre - size / 2.0, centre + size / 2.0);
        layout.push(format!(
            "{}:{:.1},{:.1},{:.1},{:.1}",
            probe.0, min.x, min.y, max.x, max.y
        ));
    }
    let state = [
        transcript::to_transcript(game.history()),
        score.black.to_string(),
        score.white.to_string(),
        turn.to_string(),
        u8::from(ai.thinking().is_some()).to_string(),
        u8::from(busy.0).to_string(),
        legal.join(" "),
        squares.join(" "),
        layout.join(";"),
        ui_scale.0.to_string(),
    ];
    for (name, value) in [
        "data-transcript",
        "data-black",
        "data-white",
        "data-turn",
        "data-thinking",
        "data-busy",
        "data-legal",
        "data-squares",
        "data-layout",
        "data-ui-scale",
    ]
    .into_iter()
    .zip(&state)
    {
        set(name, value);
    }
    if crate::platform::web::failed() {
        set("data-worker", "failed");
    }
}
