//! The page's log: warnings and errors (and the app's own news) in the browser's console.
//!
//! In a browser this takes the place of Bevy's `LogPlugin`, whose `EnvFilter` reads its
//! directives from an environment a page does not have, and whose parser of them is code every
//! player would download for nothing (docs/web.md, "Weight"). The filter here is fixed: the
//! app's own records from `info` up, Bevy's and everything else's from `warn`, the GPU
//! layer's (wgpu, through the `log` crate) from `error`, as Bevy's default filter has it.

use bevy::log::tracing::{
    self, Event, Level, Subscriber,
    field::{Field, Visit},
};
use bevy::log::tracing_subscriber::{
    Layer,
    layer::{Context, SubscriberExt},
    registry::Registry,
};
use std::fmt::Write;

/// The most detailed level shown for records of `target` (a module path): `tracing` and `log`
/// order levels from errors (the least) to traces.
fn most_detailed_level(target: &str) -> Level {
    if target.starts_with("montello") {
        Level::INFO
    } else if target.starts_with("wgpu") {
        Level::ERROR
    } else {
        Level::WARN
    }
}

/// One line of the console: the level, where from, the message and its fields.
fn line(level: Level, target: &str, message: &str) -> String {
    format!("{level} {target}: {message}")
}

/// Writes a record's line to the console, at the console's level for it.
fn show(level: Level, text: &str) {
    let text = text.into();
    match level {
        Level::ERROR => web_sys::console::error_1(&text),
        Level::WARN => web_sys::console::warn_1(&text),
        _ => web_sys::console::log_1(&text),
    }
}

/// Installs the console as the process's log, for `tracing` and for the `log` crate's records
/// (wgpu's); once, before Bevy's plugins start logging.
pub fn install() {
    let subscriber = Registry::default().with(Console);
    if tracing::subscriber::set_global_default(subscriber).is_err() {
        web_sys::console::warn_1(&"montello: the log was already installed".into());
    }
    if log::set_logger(&Console).is_ok() {
        log::set_max_level(log::LevelFilter::Warn);
    }
}

/// The console, as a `tracing` layer and as the `log` crate's logger.
struct Console;

impl<S: Subscriber> Layer<S> for Console {
    fn enabled(&self, meta: &tracing::Metadata<'_>, _: Context<'_, S>) -> bool {
        *meta.level() <= most_detailed_level(meta.target())
    }

    fn on_event(&self, event: &Event<'_>, _: Context<'_, S>) {
        let meta = event.metadata();
        let mut fields = Fields::default();
        event.record(&mut fields);
        show(
            *meta.level(),
            &line(*meta.level(), meta.target(), &fields.text),
        );
    }
}

impl log::Log for Console {
    fn enabled(&self, meta: &log::Metadata<'_>) -> bool {
        level_of(meta.level()) <= most_detailed_level(meta.target())
    }

    fn log(&self, record: &log::Record<'_>) {
        if log::Log::enabled(self, record.metadata()) {
            let level = level_of(record.level());
            show(
                level,
                &line(level, record.target(), &record.args().to_string()),
            );
        }
    }

    fn flush(&self) {}
}

/// `log`'s level as `tracing`'s (both order them alike: errors the least, traces the most).
fn level_of(level: log::Level) -> Level {
    match level {
        log::Level::Error => Level::ERROR,
        log::Level::Warn => Level::WARN,
        log::Level::Info => Level::INFO,
        log::Level::Debug => Level::DEBUG,
        log::Level::Trace => Level::TRACE,
    }
}

/// A record's message, then its other fields as `name=value`.
#[derive(Default)]
struct Fields {
    text: String,
}

impl Visit for Fields {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            let _ = write!(self.text, "{value:?}");
        } else {
            let _ = write!(self.text, " {}={value:?}", field.name());
        }
    }
}
