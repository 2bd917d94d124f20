//! The executable: on desktop it parses the command line (by hand: no argument-parser
//! dependency for a handful of flags), then runs the app; in a browser the same options come
//! from the page's address (`?open=board&lang=de`). On iOS (this binary is the app's
//! executable, ios/build-rust.sh) it parses nothing: the system passes arguments of its own
//! (`-AppleLanguages (de)`), see `montello::ios_main`. Android loads the library instead.

#[cfg(not(target_os = "ios"))]
use montello::{
    LaunchOptions, Overlay, game::players::AiLevel, platform::SafeArea, prefs::i18n::Lang,
    prefs::settings::ThemeName,
};
#[cfg(not(target_os = "ios"))]
use montello_engine::search::Level;
#[cfg(not(target_os = "ios"))]
use std::path::PathBuf;
use std::process::ExitCode;

#[cfg(not(target_os = "ios"))]
const USAGE: &str = "\
usage: montello [options]
  --autoplay [LEVEL]        AI against AI (LEVEL 1-6 or a name: beginner .. master; default 1)
  --games N                 with --autoplay: play N games in a row, then exit (a line of
                            figures per game: moves, seconds, CPU seconds, resident memory)
  --position TEXT           start from a transcript (f5d6c3...), GGF record or board string
  --screenshot FILE.png     save a screenshot once the board is drawn, then exit
  --after-moves N           with --screenshot: wait until N moves are on the board
  --window WxH              window size in logical pixels (e.g. 1080x1920, 1920x1080)
  --data-dir DIR            where saves and settings go
  --continuous              redraw continuously (for measuring; default: only when needed)
  --frame-stats SECONDS     redraw continuously, print frame-time statistics after a 5 s
                            warm-up, then exit (with --autoplay the discs keep moving)
  --offscreen               render into an image, no window or display (with --frame-stats)
  --shadows on|off          force shadows (default: on, off on Android)
  --theme NAME              classic, wood, dark or contrast
  --lang CODE               en, ja, fr or de (default: the system's language)
  --face-to-face            table mode: two players across a table, a new game between them
  --hint                    ask for a hint at start (with --screenshot: once it is shown)
  --show-ai-stats           show the AI's search statistics (saved like the menu's switch)
  --open SCREEN             start on new, moves, menu, stats, graph, help, about or board
  --safe-area L,T,R,B       keep these margins free, in logical pixels, like a phone's
                            notch and system bars (e.g. 0,47,0,34)
  --help                    this text";

#[cfg(not(target_os = "ios"))]
fn parse(args: impl IntoIterator<Item = String>) -> Result<LaunchOptions, String> {
    let mut options = LaunchOptions::default();
    let mut args = args.into_iter().peekable();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--autoplay" => {
                options.autoplay = Some(AiLevel::Level(Level::Beginner));
            }
            "--games" => {
                let v = value("--games")?;
                options.games = Some(
                    v.parse()
                        .ok()
                        .filter(|n| *n > 0)
                        .ok_or_else(|| format!("--games: {v:?} is not a number of games"))?,
                );
            }
            "--position" => options.position = Some(value("--position")?),
            "--screenshot" => options.screenshot = Some(PathBuf::from(value("--screenshot")?)),
            "--after-moves" => {
                let v = value("--after-moves")?;
                options.after_moves = v
                    .parse()
                    .map_err(|_| format!("--after-moves: {v:?} is not a number of moves"))?;
            }
            "--window" => {
                let v = value("--window")?;
                options.window = Some(
                    parse_size(&v)
                        .ok_or_else(|| format!("--window: {v:?} is not a size like 1080x1920"))?,
                );
            }
            "--data-dir" => options.data_dir = Some(PathBuf::from(value("--data-dir")?)),
            "--continuous" => options.continuous = true,
            "--offscreen" => options.offscreen = true,
            "--show-ai-stats" => options.show_ai_stats = true,
            "--hint" => options.hint = true,
            "--face-to-face" => options.face_to_face = true,
            "--frame-stats" => {
                let v = value("--frame-stats")?;
                let seconds: f32 =
                    v.parse().ok().filter(|s: &f32| *s > 0.0).ok_or_else(|| {
                        format!("--frame-stats: {v:?} is not a number of seconds")
                    })?;
                options.frame_stats = Some(seconds);
            }
            "--shadows" => {
                options.shadows = Some(match value("--shadows")?.as_str() {
                    "on" => true,
                    "off" => false,
                    v => return Err(format!("--shadows: {v:?} is not on or off")),
                });
            }
            "--theme" => {
                let v = value("--theme")?;
                options.theme = Some(ThemeName::from_name(&v).ok_or_else(|| {
                    format!("--theme: {v:?} is not one of classic, wood, dark, contrast")
                })?);
            }
            "--lang" => {
                let v = value("--lang")?;
                options.lang = Some(
                    Lang::from_code(&v)
                        .ok_or_else(|| format!("--lang: {v:?} is not one of en, ja, fr, de"))?,
                );
            }
            "--safe-area" => {
                let v = value("--safe-area")?;
                options.safe_area = Some(SafeArea::parse(&v).ok_or_else(|| {
                    format!("--safe-area: {v:?} is not four margins like 0,47,0,34")
                })?);
            }
            "--open" => {
                let v = value("--open")?;
                options.open = Some(Overlay::from_name(&v).ok_or_else(|| {
                    let names: Vec<&str> = Overlay::NAMED.iter().map(|(n, _)| *n).collect();
                    format!("--open: {v:?} is not one of {}", names.join(", "))
                })?);
            }
            "--help" | "-h" => return Err(String::new()),
            other => {
                // `--autoplay` takes an optional level right after it.
                if options.autoplay.is_some()
                    && !other.starts_with("--")
                    && let Some(level) = AiLevel::parse(other)
                {
                    options.autoplay = Some(level);
                    continue;
                }
                return Err(format!("unknown argument {other:?}"));
            }
        }
    }
    Ok(options)
}

#[cfg(not(target_os = "ios"))]
fn parse_size(text: &str) -> Option<(u32, u32)> {
    let (w, h) = text.split_once(['x', 'X'])?;
    let (w, h) = (w.trim().parse().ok()?, h.trim().parse().ok()?);
    (w > 0 && h > 0).then_some((w, h))
}

#[cfg(target_os = "ios")]
fn main() -> ExitCode {
    if montello::ios_main().is_success() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// In a browser the page's address gives the options: `?open=board&theme=dark&position=f5d6`
/// is `--open board --theme dark --position f5d6`, a name alone (`?face-to-face`) a flag.
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
fn args() -> Vec<String> {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    let decode = |text: &str| {
        js_sys::decode_uri_component(&text.replace('+', " "))
            .map_or_else(|_| text.to_string(), String::from)
    };
    let mut args = Vec::new();
    for pair in search
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
    {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        args.push(format!("--{}", decode(name)));
        if !value.is_empty() {
            args.push(decode(value));
        }
    }
    args
}

/// The command line's arguments.
#[cfg(not(any(target_os = "ios", all(target_family = "wasm", target_os = "unknown"))))]
fn args() -> Vec<String> {
    std::env::args().skip(1).collect()
}

#[cfg(not(target_os = "ios"))]
fn main() -> ExitCode {
    match parse(args()) {
        Ok(options) => {
            if montello::run(options).is_success() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(message) if message.is_empty() => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        // A page address with a wrong option still opens the game, saying why in the console.
        #[cfg(all(target_family = "wasm", target_os = "unknown"))]
        Err(message) => {
            web_sys::console::warn_1(&format!("montello: {message}\n{USAGE}").into());
            montello::run(LaunchOptions::default());
            ExitCode::SUCCESS
        }
        #[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
        Err(message) => {
            eprintln!("montello: {message}\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Vec<String> {
        line.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn flags_parse() {
        let o = parse(args(
            "--autoplay 3 --screenshot a.png --after-moves 4 --window 1080x1920",
        ))
        .expect("valid flags");
        assert_eq!(o.autoplay, Some(AiLevel::Level(Level::Casual)));
        assert_eq!(o.screenshot, Some(PathBuf::from("a.png")));
        assert_eq!(o.after_moves, 4);
        assert_eq!(o.window, Some((1080, 1920)));
        let o = parse(args("--autoplay --position f5d6")).expect("valid flags");
        assert_eq!(o.autoplay, Some(AiLevel::Level(Level::Beginner)));
        assert_eq!(o.position.as_deref(), Some("f5d6"));
        assert!(!o.show_ai_stats);
        assert!(
            parse(args("--show-ai-stats"))
                .expect("valid flags")
                .show_ai_stats
        );
        assert!(
            parse(args("--face-to-face"))
                .expect("valid flags")
                .face_to_face
        );
    }

    #[test]
    fn phones_ignore_what_the_desktop_parser_refuses() {
        // What Xcode's scheme and iOS put on an app's command line.
        let xcode =
            args("-AppleLanguages (de) -AppleLocale de_DE -NSDocumentRevisionsDebugMode YES");
        assert!(
            parse(xcode.clone()).is_err(),
            "the desktop parser refuses the system's arguments, so iOS must not use it"
        );
        assert_eq!(LaunchOptions::for_phone(xcode), LaunchOptions::default());
        assert!(LaunchOptions::for_phone(Vec::new()).shows_new_game_screen());
    }

    #[test]
    fn bad_flags_say_what_is_wrong() {
        let o = parse(args("--theme Wood --lang ja --safe-area 0,47,0,34")).expect("valid flags");
        assert_eq!(o.safe_area.map(|s| s.top), Some(47.0));
        assert_eq!(
            parse(args("--open Help")).expect("valid flags").open,
            Some(Overlay::Help)
        );
        assert_eq!(o.theme, Some(montello::prefs::settings::ThemeName::Wood));
        assert_eq!(o.lang, Some(montello::prefs::i18n::Lang::Ja));
        for bad in [
            "--window 12",
            "--after-moves x",
            "--bogus",
            "--position",
            "--theme pink",
            "--lang xx",
            "--frame-stats 0",
            "--safe-area 1,2",
            "--open nowhere",
        ] {
            let err = parse(args(bad)).expect_err(bad);
            assert!(err.contains(bad.split(' ').next().unwrap_or(bad)), "{err}");
        }
    }
}
