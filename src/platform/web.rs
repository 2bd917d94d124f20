//! The browser's side of the engine's Web Worker: the page's AI, hints and analysis run in
//! web/worker.js (the engine compiled to its own small wasm module), so a search never blocks
//! a frame (on the web Bevy's task pools run on the page's only thread).
//!
//! The page posts [`wire`](montello_engine::wire) request lines and the worker's
//! replies are queued here until the game's systems take them. A search cannot be interrupted
//! by a message, so [`restart`] terminates the worker (its CPU stops at once) and the next
//! request starts a new one. If the worker cannot start or fails, [`failed`] says so and the
//! game runs its searches on the page instead (slower frames, but the game goes on) until a new
//! worker is tried a minute later (`watch::RETRY_WORKER_AFTER`). The watchdog's clock counts
//! only the time the page is in view ([`hidden`]). A worker
//! that says it failed (`failed JOB WHY`: its module did not load, the engine threw or
//! trapped) or stays silent past the request's cap (`game::background`'s watchdog) comes to
//! the same end, so the AI always moves.

use bevy::platform::time::Instant;
use std::cell::{Cell, RefCell};
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{ErrorEvent, MessageEvent, Worker, WorkerOptions, WorkerType};

/// The worker script, beside index.html: web/build.sh names it by its content
/// (`worker.1a2b….js`) and writes that name into the page's `montelloWorkerScript`.
fn script() -> String {
    web_sys::window()
        .and_then(|window| js_sys::Reflect::get(&window, &"montelloWorkerScript".into()).ok())
        .and_then(|name| name.as_string())
        .unwrap_or_else(|| "./worker.js".to_string())
}

struct Link {
    worker: Worker,
    number: u32,
    // Kept alive as long as the worker: the browser calls them.
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

thread_local! {
    static LINK: RefCell<Option<Link>> = const { RefCell::new(None) };
    static REPLIES: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    /// When the worker last failed ([`fail`]); it is tried again a while after
    /// (`watch::RETRY_WORKER_AFTER`).
    static FAILED: Cell<Option<Instant>> = const { Cell::new(None) };
    static NEXT_JOB: Cell<u32> = const { Cell::new(1) };
    static STARTED: Cell<u32> = const { Cell::new(0) };
    /// The worker that said `ready` last (its number) and when.
    static READY: Cell<Option<(u32, Instant)>> = const { Cell::new(None) };
    /// Why the engine could not run on the page either, until the app told the player.
    static LOST: RefCell<Option<String>> = const { RefCell::new(None) };
    /// What the page says after a panic, in the player's language, `{error}` for the panic's
    /// message ([`say_after_a_panic`]).
    static PANIC_TEXT: RefCell<String> = RefCell::new(
        "Montello stopped ({error}). Your game is saved: reload the page to go on.".to_string(),
    );
    /// How long the page has been hidden ([`watch_visibility`]).
    static HIDDEN: Cell<super::watch::HiddenTime> =
        Cell::new(super::watch::HiddenTime::default());
}

/// Whether the browser is touch-first (a phone's or a tablet's): its main pointer is coarse.
pub fn touch_first() -> bool {
    web_sys::window()
        .and_then(|window| window.match_media("(pointer: coarse)").ok().flatten())
        .is_some_and(|query| query.matches())
}

/// Shows `text` on the page's own screen (web/index.html's `#loading`, with its Reload
/// button) over the canvas: after a render error, or when the engine cannot load at all.
pub fn show_render_failure(text: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if let Some(what) = document.get_element_by_id("what") {
        what.set_text_content(Some(text));
    }
    if let Some(body) = document.body() {
        let _ = body.set_attribute("data-montello", "failed");
    }
}

/// The words of the page's Update button (web/index.html shows it when a new build waits).
pub fn say_update(text: &str) {
    if let Some(button) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("update"))
    {
        button.set_text_content(Some(text));
    }
}

/// What the page's screen says after a panic, `{error}` standing for the panic's message.
pub fn say_after_a_panic(text: String) {
    PANIC_TEXT.set(text);
}

/// A panic stops the app's loop: the canvas would stay frozen with no word. From here on a
/// panic also shows the page's own screen with what happened and its Reload button (after
/// the hook already set, Bevy's, which writes the panic to the console). The game is saved
/// after every move, so the reload resumes it.
pub fn show_panics() {
    let before = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        before(info);
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".to_string());
        let text = PANIC_TEXT.with_borrow(|t| t.replace("{error}", &what));
        show_render_failure(&text);
    }));
}

/// A number for a new job, never used before in this page.
pub fn next_job() -> u32 {
    NEXT_JOB.with(|n| {
        let job = n.get();
        n.set(job.wrapping_add(1));
        job
    })
}

/// How long the page has been hidden, all told (the watchdog leaves that time out).
pub fn hidden() -> super::watch::HiddenTime {
    HIDDEN.get()
}

/// Follows the page's visibility for [`hidden`], from the app's start.
pub fn watch_visibility() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let note = |document: &web_sys::Document| {
        let mut time = HIDDEN.get();
        if document.visibility_state() == web_sys::VisibilityState::Hidden {
            time.hide(Instant::now());
        } else {
            time.show(Instant::now());
        }
        HIDDEN.set(time);
    };
    note(&document);
    let watched = document.clone();
    let on_change = Closure::<dyn FnMut()>::new(move || note(&watched));
    let _ = document
        .add_event_listener_with_callback("visibilitychange", on_change.as_ref().unchecked_ref());
    // For the page's life.
    on_change.forget();
}

/// Whether the worker could not start or failed lately: searches then run on the page, until
/// a new worker is tried (`watch::RETRY_WORKER_AFTER` after the failure).
pub fn failed() -> bool {
    super::watch::worker_given_up(FAILED.get(), Instant::now())
}

/// Gives up on the worker for a while: it is terminated, and every search until then runs on
/// the page ([`run_on_page`]); the first request after that starts a new worker.
pub fn fail(why: &str) {
    bevy::log::error!("the engine's worker failed ({why}): searching on the page instead");
    FAILED.set(Some(Instant::now()));
    LINK.with_borrow_mut(|link| {
        if let Some(link) = link.take() {
            link.worker.terminate();
        }
    });
}

fn start() -> Option<Link> {
    let options = WorkerOptions::new();
    options.set_type(WorkerType::Module);
    let worker = match Worker::new_with_options(&script(), &options) {
        Ok(worker) => worker,
        Err(e) => {
            fail(&format!("{e:?}"));
            return None;
        }
    };
    let number = STARTED.get() + 1;
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        match event.data().as_string() {
            // The worker's module is in (or could not load: its requests then get `failed`).
            Some(line) if line == "ready" => READY.set(Some((number, Instant::now()))),
            Some(line) => REPLIES.with_borrow_mut(|replies| replies.push(line)),
            None => {}
        }
    });
    let on_error = Closure::<dyn FnMut(ErrorEvent)>::new(|event: ErrorEvent| {
        fail(&event.message());
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    STARTED.set(number);
    Some(Link {
        worker,
        number,
        _on_message: on_message,
        _on_error: on_error,
    })
}

/// The number of the worker running now (each start counts one more), if one runs.
pub fn current_worker() -> Option<u32> {
    LINK.with_borrow(|link| link.as_ref().map(|link| link.number))
}

/// When the running worker said it was ready (its module loaded, or found unloadable); `None`
/// while it is still starting, or when none runs.
pub fn ready_since() -> Option<Instant> {
    let running = current_worker()?;
    READY
        .get()
        .and_then(|(number, at)| (number == running).then_some(at))
}

/// Sends a request line to the worker, starting it if none runs, and returns the number of the
/// worker it went to: a job whose worker was restarted (another job's cancel) sends its line
/// again. `None` if there is no worker ([`failed`]): the caller runs the request itself.
pub fn post(line: &str) -> Option<u32> {
    if failed() {
        return None;
    }
    LINK.with_borrow_mut(|link| {
        if link.is_none() {
            *link = start();
        }
        let link = link.as_ref()?;
        match link.worker.post_message(&line.into()) {
            Ok(()) => Some(link.number),
            Err(e) => {
                bevy::log::error!("could not post to the engine's worker: {e:?}");
                None
            }
        }
    })
}

/// Runs a request line with the engine loaded on the page, for when the worker cannot run:
/// web/index.html's `montelloRunOnPage` loads the worker's own module into the page once (the
/// app's module carries no engine search or weights of its own) and answers the line there,
/// holding the page's frames for the search. Its answer is queued like a worker's: the reply,
/// or `failed JOB WHY` if the engine cannot load here either.
pub fn run_on_page(line: &str) {
    let answered = web_sys::window().and_then(|window| {
        let run = js_sys::Reflect::get(&window, &"montelloRunOnPage".into()).ok()?;
        let promise = run
            .dyn_into::<js_sys::Function>()
            .ok()?
            .call1(&window, &line.into())
            .ok()?;
        let then = js_sys::Reflect::get(&promise, &"then".into())
            .ok()?
            .dyn_into::<js_sys::Function>()
            .ok()?;
        let queue = Closure::<dyn FnMut(wasm_bindgen::JsValue)>::once_into_js(
            |reply: wasm_bindgen::JsValue| {
                if let Some(reply) = reply.as_string() {
                    REPLIES.with_borrow_mut(|replies| replies.push(reply));
                }
            },
        );
        then.call1(&promise, &queue).ok()
    });
    if answered.is_none() {
        let job = line.split(' ').nth(1).unwrap_or("0");
        REPLIES.with_borrow_mut(|replies| {
            replies.push(format!(
                "failed {job} the page cannot run the engine (no montelloRunOnPage)"
            ));
        });
    }
}

/// The engine could not run in a worker or on the page: the app tells the player
/// ([`take_engine_lost`]), who can reload; the game is saved after every move.
pub fn engine_lost(why: &str) {
    bevy::log::error!("the engine could not load on the page either ({why})");
    LOST.with_borrow_mut(|lost| *lost = Some(why.to_owned()));
}

/// Why the engine could not run, once, for the app to tell the player.
pub fn take_engine_lost() -> Option<String> {
    LOST.with_borrow_mut(Option::take)
}

/// Takes the replies whose first two words are `kind job` for `job`, in the order they came,
/// leaving the others queued.
pub fn take_replies(job: u32) -> Vec<String> {
    let job = job.to_string();
    REPLIES.with_borrow_mut(|replies| {
        let (mine, others) = std::mem::take(replies)
            .into_iter()
            .partition(|line| line.split(' ').nth(1) == Some(job.as_str()));
        *replies = others;
        mine
    })
}

/// Stops whatever the worker is doing, at once: it is terminated, the replies not yet taken
/// are dropped, and the next request starts a new worker (with no kept searchers).
pub fn restart() {
    LINK.with_borrow_mut(|link| {
        if let Some(link) = link.take() {
            link.worker.terminate();
        }
    });
    REPLIES.with_borrow_mut(Vec::clear);
}

/// `navigator.vibrate(ms)` where the browser has it (Chrome on Android; not Safari): 10 ms
/// for a placed disc, two pulses for a refused tap.
pub fn haptic(kind: super::Haptic) {
    let pattern: &[u32] = match kind {
        super::Haptic::Place => &[10],
        super::Haptic::Refused => &[30, 40, 30],
    };
    let vibrated = web_sys::window().and_then(|window| {
        let navigator = js_sys::Reflect::get(&window, &"navigator".into()).ok()?;
        let vibrate = js_sys::Reflect::get(&navigator, &"vibrate".into())
            .ok()?
            .dyn_into::<js_sys::Function>()
            .ok()?;
        let pattern: js_sys::Array = pattern
            .iter()
            .map(|&ms| wasm_bindgen::JsValue::from(ms))
            .collect();
        vibrate.call1(&navigator, &pattern).ok()
    });
    // (No vibrate, or the page not yet tapped: the browser says no, and the game goes on.)
    let _ = vibrated;
}

/// Asks the page's own prompt for a line of text (a phone's browser opens its keyboard for
/// it, which a canvas cannot); `None` if the player dismissed it.
pub fn prompt(question: &str, default: &str) -> Option<String> {
    web_sys::window()?
        .prompt_with_message_and_default(question, default)
        .ok()
        .flatten()
}
