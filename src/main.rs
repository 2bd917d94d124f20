//! The executable: on desktop it parses the command line with clap, then runs the app; in a
//! browser the same flags come from the page's address (`?open=board&lang=de`). On iOS (this
//! binary is the app's executable, ios/build-rust.sh) it parses nothing: the system passes
//! arguments of its own (`-AppleLanguages (de)`), see `montello::ios_main`. Android loads the
//! library instead.

#[cfg(not(target_os = "ios"))]
use clap::Parser;
#[cfg(not(target_os = "ios"))]
use montello::{
    LaunchOptions, Overlay, game::player::AiLevel, platform::SafeArea, prefs::choices::Lang,
    prefs::choices::ThemeName,
};
#[cfg(not(target_os = "ios"))]
use std::path::PathBuf;
use std::process::ExitCode;

// The heap counts what it lends (montello::app::heap: the app's memory, told by owner).
#[global_allocator]
static HEAP: montello::app::heap::Counting = montello::app::heap::Counting;

/// The command line: each flag is one field of [`LaunchOptions`], which documents what it does
/// to the app.
#[cfg(not(target_os = "ios"))]
#[derive(Parser, Debug)]
#[command(
    name = "montello",
    version,
    about = "Montello: Othello against a Monte-Carlo Tree Search.",
    after_help = "In a browser the page's address gives the same flags: \
                  ?open=board&theme=dark&position=f5d6 is --open board --theme dark --position f5d6."
)]
struct Flags {
    /// AI against AI (LEVEL 1-6 or a name: beginner .. master; default 1)
    #[arg(long, value_name = "LEVEL", num_args = 0..=1, default_missing_value = "1",
          value_parser = level)]
    autoplay: Option<AiLevel>,
    /// A new game, the player (Black) against LEVEL (1-6 or a name: beginner .. master)
    #[arg(long, value_name = "LEVEL", value_parser = level)]
    opponent: Option<AiLevel>,
    /// With --autoplay: play N games in a row, then exit (a line of figures per game: moves,
    /// seconds, CPU seconds, resident memory)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    games: Option<u32>,
    /// Start from a transcript (f5d6c3...), GGF record or board string
    #[arg(long, value_name = "TEXT")]
    position: Option<String>,
    /// Save a screenshot once the board is drawn, then exit
    #[arg(long, value_name = "FILE.png")]
    screenshot: Option<PathBuf>,
    /// With --screenshot: wait until N moves are on the board
    #[arg(long, value_name = "N", default_value_t = 0)]
    after_moves: usize,
    /// Window size in logical pixels (e.g. 1080x1920, 1920x1080)
    #[arg(long, value_name = "WxH", value_parser = size)]
    window: Option<(u32, u32)>,
    /// Where saves and settings go
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
    /// Redraw continuously (for measuring; default: only when needed)
    #[arg(long)]
    continuous: bool,
    /// Redraw continuously, print frame-time statistics after a 5 s warm-up, then exit (with
    /// --autoplay the discs keep moving)
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    frame_stats: Option<f32>,
    /// Render into an image, no window or display (with --frame-stats)
    #[arg(long)]
    offscreen: bool,
    /// Force shadows (default: on; off on Android and in a phone's or tablet's browser)
    #[arg(long, value_name = "on|off", value_parser = on_off)]
    shadows: Option<bool>,
    /// classic, wood, dark or contrast
    #[arg(long, value_name = "NAME", value_parser = theme)]
    theme: Option<ThemeName>,
    /// en, ja, fr or de (default: the system's language)
    #[arg(long, value_name = "CODE", value_parser = lang)]
    lang: Option<Lang>,
    /// Table mode: two players across a table, a new game between them
    #[arg(long)]
    face_to_face: bool,
    /// Ask for a hint at start (with --screenshot: once it is shown)
    #[arg(long)]
    hint: bool,
    /// Review the game's moves at start (with --screenshot: once the review is done)
    #[arg(long)]
    review: bool,
    /// Show the board after N moves of the game, as a tap on that move in the move list does
    #[arg(long, value_name = "N")]
    show_move: Option<usize>,
    /// With --show-move: step N moves into the best line from the position before that move,
    /// once it is found (with --screenshot: once it is shown)
    #[arg(long, value_name = "N")]
    line_step: Option<usize>,
    /// Try again at the player's first marked move, once the game is reviewed (with --review)
    #[arg(long)]
    try_again: bool,
    /// With --try-again: tap this square as the try (with --screenshot: once it is judged)
    #[arg(long, value_name = "SQUARE", value_parser = square)]
    try_move: Option<montello_engine::Square>,
    /// Play the daily puzzle of this date (YYYY-MM-DD, or today)
    #[arg(long, value_name = "DATE", value_parser = puzzle_day)]
    puzzle: Option<i64>,
    /// With --puzzle: tap these squares in turn as the player's tries, each when the puzzle
    /// asks (with --screenshot: once the last is judged and answered)
    #[arg(long, value_name = "SQUARES", value_parser = squares)]
    puzzle_moves: Option<SquareList>,
    /// With --puzzle: after --puzzle-moves, play the best move each time, to the end
    #[arg(long)]
    puzzle_solve: bool,
    /// Show the AI's search statistics (saved like the menu's switch)
    #[arg(long)]
    show_ai_stats: bool,
    /// For tests of what a crash leaves: panic once N moves are played and saved
    #[arg(long, value_name = "N")]
    crash_after_moves: Option<u32>,
    /// Start on new, moves, menu, stats, graph, help, about, result, puzzle or board
    #[arg(long, value_name = "SCREEN", value_parser = screen)]
    open: Option<Overlay>,
    /// Keep these margins free, in logical pixels, like a phone's notch and system bars
    /// (e.g. 0,47,0,34)
    #[arg(long, value_name = "L,T,R,B", value_parser = margins)]
    safe_area: Option<SafeArea>,
}

#[cfg(not(target_os = "ios"))]
impl From<Flags> for LaunchOptions {
    fn from(f: Flags) -> LaunchOptions {
        LaunchOptions {
            autoplay: f.autoplay,
            opponent: f.opponent,
            games: f.games,
            position: f.position,
            screenshot: f.screenshot,
            after_moves: f.after_moves,
            window: f.window,
            data_dir: f.data_dir,
            continuous: f.continuous,
            frame_stats: f.frame_stats,
            shadows: f.shadows,
            theme: f.theme,
            lang: f.lang,
            safe_area: f.safe_area,
            offscreen: f.offscreen,
            show_ai_stats: f.show_ai_stats,
            crash_after_moves: f.crash_after_moves,
            hint: f.hint,
            review: f.review,
            show_move: f.show_move,
            line_step: f.line_step,
            try_again: f.try_again,
            try_move: f.try_move,
            puzzle: f.puzzle,
            puzzle_moves: f.puzzle_moves.map(|l| l.0).unwrap_or_default(),
            puzzle_solve: f.puzzle_solve,
            face_to_face: f.face_to_face,
            open: f.open,
        }
    }
}

#[cfg(not(target_os = "ios"))]
fn level(text: &str) -> Result<AiLevel, String> {
    AiLevel::parse(text).ok_or_else(|| "not a level (1-6, or beginner .. master)".into())
}

#[cfg(not(target_os = "ios"))]
fn size(text: &str) -> Result<(u32, u32), String> {
    let parsed = text.split_once(['x', 'X']).and_then(|(w, h)| {
        let (w, h): (u32, u32) = (w.trim().parse().ok()?, h.trim().parse().ok()?);
        (w > 0 && h > 0).then_some((w, h))
    });
    parsed.ok_or_else(|| "not a size like 1080x1920".into())
}

#[cfg(not(target_os = "ios"))]
fn seconds(text: &str) -> Result<f32, String> {
    text.parse()
        .ok()
        .filter(|s: &f32| *s > 0.0)
        .ok_or_else(|| "not a number of seconds".into())
}

#[cfg(not(target_os = "ios"))]
fn on_off(text: &str) -> Result<bool, String> {
    match text {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err("not on or off".into()),
    }
}

#[cfg(not(target_os = "ios"))]
fn theme(text: &str) -> Result<ThemeName, String> {
    ThemeName::from_name(text).ok_or_else(|| "not one of classic, wood, dark, contrast".into())
}

#[cfg(not(target_os = "ios"))]
fn lang(text: &str) -> Result<Lang, String> {
    Lang::from_code(text).ok_or_else(|| "not one of en, ja, fr, de".into())
}

#[cfg(not(target_os = "ios"))]
fn screen(text: &str) -> Result<Overlay, String> {
    Overlay::from_name(text).ok_or_else(|| {
        let names: Vec<&str> = Overlay::NAMED.iter().map(|(n, _)| *n).collect();
        format!("not one of {}", names.join(", "))
    })
}

#[cfg(not(target_os = "ios"))]
fn square(text: &str) -> Result<montello_engine::Square, String> {
    text.parse()
        .map_err(|_| "not a square (a1 .. h8)".to_string())
}

/// Squares given as one value, `b1,e7` (clap would take a `Vec` for several values).
#[cfg(not(target_os = "ios"))]
#[derive(Clone, Debug)]
struct SquareList(Vec<montello_engine::Square>);

#[cfg(not(target_os = "ios"))]
fn squares(text: &str) -> Result<SquareList, String> {
    text.split(',')
        .map(|s| square(s.trim()))
        .collect::<Result<_, _>>()
        .map(SquareList)
}

#[cfg(not(target_os = "ios"))]
fn puzzle_day(text: &str) -> Result<i64, String> {
    if text == "today" {
        return Ok(montello::platform::clock::today());
    }
    montello::platform::clock::parse_iso_date(text)
}

#[cfg(not(target_os = "ios"))]
fn margins(text: &str) -> Result<SafeArea, String> {
    SafeArea::parse(text).ok_or_else(|| "not four margins like 0,47,0,34".into())
}

/// The options from `args` (the program's name first).
#[cfg(not(target_os = "ios"))]
fn parse(args: impl IntoIterator<Item = String>) -> Result<LaunchOptions, clap::Error> {
    Flags::try_parse_from(args).map(LaunchOptions::from)
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
    let mut args = vec!["montello".to_string()];
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

/// The command line's arguments, the program's name first.
#[cfg(not(any(target_os = "ios", all(target_family = "wasm", target_os = "unknown"))))]
fn args() -> Vec<String> {
    std::env::args().collect()
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
        // A page address with a wrong option still opens the game, saying why in the console.
        #[cfg(all(target_family = "wasm", target_os = "unknown"))]
        Err(e) => {
            web_sys::console::warn_1(&format!("montello: {e}").into());
            montello::run(LaunchOptions::default());
            ExitCode::SUCCESS
        }
        // --help and --version print and succeed; a wrong flag says why, with the usage.
        #[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
        Err(e) => {
            let _ = e.print();
            ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;
    use montello_engine::search::Level;

    fn args(line: &str) -> Vec<String> {
        std::iter::once("montello")
            .chain(line.split_whitespace())
            .map(String::from)
            .collect()
    }

    #[test]
    fn the_parser_is_consistent() {
        Flags::command().debug_assert();
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
        let o = parse(args(
            "--autoplay master --games 2 --frame-stats 1.5 --shadows off",
        ))
        .expect("valid flags");
        assert_eq!(o.autoplay, Some(AiLevel::Level(Level::Master)));
        assert_eq!(o.opponent, None);
        let o = parse(args("--opponent 6")).expect("valid flags");
        assert_eq!(
            (o.opponent, o.autoplay),
            (Some(AiLevel::Level(Level::Master)), None)
        );
        let o = parse(args(
            "--autoplay master --games 2 --frame-stats 1.5 --shadows off",
        ))
        .expect("valid flags");
        assert_eq!(
            (o.games, o.frame_stats, o.shadows),
            (Some(2), Some(1.5), Some(false))
        );
        let o = parse(args(
            "--show-ai-stats --face-to-face --hint --review --continuous --offscreen",
        ))
        .expect("valid flags");
        assert!(o.show_ai_stats && o.face_to_face && o.hint && o.continuous && o.offscreen);
        assert!(o.review);
        assert_eq!(parse(args("")).expect("no flags"), LaunchOptions::default());
    }

    #[test]
    fn phones_ignore_what_the_desktop_parser_refuses() {
        // What Xcode's scheme and iOS put on an app's command line.
        let xcode = "-AppleLanguages (de) -AppleLocale de_DE -NSDocumentRevisionsDebugMode YES";
        assert!(
            parse(args(xcode)).is_err(),
            "the desktop parser refuses the system's arguments, so iOS must not use it"
        );
        let xcode: Vec<String> = xcode.split(' ').map(String::from).collect();
        assert_eq!(LaunchOptions::for_phone(xcode), LaunchOptions::default());
    }

    #[test]
    fn bad_flags_say_what_is_wrong() {
        let o = parse(args("--theme Wood --lang ja --safe-area 0,47,0,34")).expect("valid flags");
        assert_eq!(o.safe_area.map(|s| s.top), Some(47.0));
        assert_eq!(
            parse(args("--open Help")).expect("valid flags").open,
            Some(Overlay::Help)
        );
        assert_eq!(o.theme, Some(ThemeName::Wood));
        assert_eq!(o.lang, Some(Lang::Ja));
        for (bad, why) in [
            ("--window 12", "not a size"),
            ("--after-moves x", "invalid digit"),
            ("--bogus", "unexpected argument"),
            ("--position", "a value is required"),
            ("--theme pink", "classic, wood"),
            ("--lang xx", "en, ja, fr, de"),
            ("--frame-stats 0", "seconds"),
            ("--games 0", "not in 1.."),
            ("--safe-area 1,2", "four margins"),
            ("--open nowhere", "board"),
            ("--puzzle 2026-02-30", "YYYY-MM-DD"),
            ("--puzzle-moves a1,z9", "a square"),
            ("--autoplay 9", "not a level"),
        ] {
            let err = parse(args(bad)).expect_err(bad).to_string();
            let flag = bad.split(' ').next().unwrap_or(bad);
            assert!(err.contains(flag) && err.contains(why), "{bad}: {err}");
        }
    }

    #[test]
    fn help_lists_every_flag_with_its_value() {
        let e = parse(args("--help")).expect_err("help is not a launch");
        assert_eq!(e.kind(), clap::error::ErrorKind::DisplayHelp);
        let help = e.to_string();
        for flag in [
            "--autoplay [<LEVEL>]",
            "--opponent <LEVEL>",
            "--games <N>",
            "--position <TEXT>",
            "--screenshot <FILE.png>",
            "--after-moves <N>",
            "--window <WxH>",
            "--data-dir <DIR>",
            "--continuous",
            "--frame-stats <SECONDS>",
            "--offscreen",
            "--shadows <on|off>",
            "--theme <NAME>",
            "--lang <CODE>",
            "--face-to-face",
            "--hint",
            "--review",
            "--show-move <N>",
            "--line-step <N>",
            "--try-again",
            "--try-move <SQUARE>",
            "--puzzle <DATE>",
            "--puzzle-moves <SQUARES>",
            "--puzzle-solve",
            "--show-ai-stats",
            "--crash-after-moves <N>",
            "--open <SCREEN>",
            "--safe-area <L,T,R,B>",
            "--help",
            "?open=board",
        ] {
            assert!(help.contains(flag), "{flag} missing from:\n{help}");
        }
        assert_eq!(
            Flags::command()
                .get_arguments()
                .filter(|a| a.get_long().is_some())
                .count(),
            28,
            "every LaunchOptions field has its flag"
        );
    }
}
