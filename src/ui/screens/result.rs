//! The end of a game: a summary under the final board (the move list's sheet's place, so the
//! board stays in view above it). It speaks to the player ("You lost by 16", "40-24 against
//! Casual", their record against that level), then says how each player played, from the
//! game's review: the accuracy (a percentage, docs/ai.md), the discs lost a move on average
//! and the inaccuracies, mistakes and blunders, and the player's costliest move ("23. c4 lost
//! 8 discs; b3 was best (exact)"); while the review still runs, its progress. Its actions:
//! Review (the move list with its marks and next-mistake buttons), Try again (the position
//! before the player's first marked move, to find the better one), Rematch (the colours
//! swapped, as the HUD's button does), and the next level after a win. It opens by itself once
//! the move that ended the game has landed on the board (not when a finished game is loaded
//! or imported); its × leaves the board with the HUD's Rematch and Graph.

use super::{Overlay, open_panel};
use crate::AppSystems;
use crate::game::flow::{CurrentGame, GameCommand, GameSetup, MovePlayed, ViewBusy};
use crate::game::player::AiLevel;
use crate::game::players::Players;
use crate::game::practice::{PracticeCommand, practising};
use crate::game::review::{GameReview, board_ply};
use crate::persist::save::StatsFile;
use crate::persist::save_format::Stats;
use crate::prefs::choices::Lang;
use crate::prefs::i18n::Language;
use crate::prefs::settings::Settings;
use crate::ui::placement::Placement;
use crate::ui::theme::Type;
use crate::ui::theme::{Paint, class_symbol};
use crate::ui::widgets::{self, UiAction, coloured_label, panel, text_label};
use bevy::prelude::*;
use montello_engine::search::Level;
use montello_engine::search::review::{Class, Review};
use montello_engine::{Game, Side};

/// What the card's buttons do.
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
pub enum ResultAction {
    /// The same players and rules again, the colours swapped.
    Rematch,
    /// The game's review: the move list, with its marks and the line over the controls.
    Review,
    /// The same colours against the next level up (shown after a win below the top level).
    NextLevel,
    /// Try again at the player's first marked move (shown once the review found one).
    TryAgain,
}

pub(super) fn plugin(app: &mut App) {
    widgets::actions::<ResultAction>(app);
    app.init_resource::<Ending>()
        .add_systems(OnEnter(Overlay::Result), spawn_card)
        .add_systems(
            Update,
            (open_when_settled, note_the_end)
                .chain()
                .in_set(AppSystems::View),
        )
        .add_systems(
            Update,
            (handle_actions, respawn_on_change, show_progress)
                .chain()
                .in_set(AppSystems::Input)
                .run_if(in_state(Overlay::Result)),
        );
}

/// The card's root.
#[derive(Component, Debug)]
struct Card;

/// A game a move has just ended (its [`CurrentGame::generation`]), waiting for its last discs
/// to land before the card opens.
#[derive(Resource, Debug, Default)]
struct Ending(Option<u64>);

/// Notes a move that ended the game. Runs after [`open_when_settled`], so the card is
/// considered from the next frame on, once the board has started the move's animation.
fn note_the_end(
    mut played: MessageReader<MovePlayed>,
    current: Res<CurrentGame>,
    mut ending: ResMut<Ending>,
) {
    if played.read().count() > 0 && current.game().is_over() {
        ending.0 = Some(current.generation());
    }
}

/// Opens the card once the ending move's animation is over, if that game is still the one on
/// the board, still over (not undone), and nothing else is open.
fn open_when_settled(
    mut ending: ResMut<Ending>,
    current: Res<CurrentGame>,
    busy: Res<ViewBusy>,
    overlay: Res<State<Overlay>>,
    mut next: ResMut<NextState<Overlay>>,
) {
    let Some(generation) = ending.0 else {
        return;
    };
    if current.generation() != generation || !current.game().is_over() {
        ending.0 = None;
        return;
    }
    if busy.0 {
        return;
    }
    ending.0 = None;
    if *overlay.get() == Overlay::None {
        next.set(Overlay::Result);
    }
}

/// What the card says about a finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Its title: "You won by 16", "You lost by 4", "A draw", or (no single human against the
    /// AI) "White wins by 2".
    pub headline: String,
    /// The discs: "40-24 against Casual" (Black's first, as everywhere).
    pub score: String,
    /// The human's record against the level, this game included once it is counted (none
    /// before the first game against it is).
    pub record: Option<String>,
}

/// The card's text for `game` if it is over, from the human's side when one person plays the
/// AI; `stats` gives the record.
pub fn verdict(game: &Game, players: &Players, stats: &Stats, lang: Lang) -> Option<Verdict> {
    let result = game.result()?;
    let margin = result.margin();
    let against = players.human_against_ai();
    let headline = match (result.winner(), against) {
        (None, _) => lang.t("result.draw").to_string(),
        (Some(winner), Some((human, _))) => lang.f(
            if winner == human {
                "result.won"
            } else {
                "result.lost"
            },
            &[("margin", &margin)],
        ),
        (Some(winner), None) => lang.f(
            "result.side_won",
            &[("side", &lang.side(winner)), ("margin", &margin)],
        ),
    };
    let Some((_, level)) = against else {
        return Some(Verdict {
            headline,
            score: result.discs.to_string(),
            record: None,
        });
    };
    let name = level.label(lang);
    // No record before a game against the level has been counted (a finished game loaded is
    // not one played).
    let record = stats
        .levels
        .get(&level)
        .filter(|r| r.games > 0)
        .map(|record| {
            lang.f(
                "result.record",
                &[
                    ("level", &name),
                    ("wins", &record.wins),
                    ("losses", &record.losses),
                    ("draws", &record.draws),
                ],
            )
        });
    Some(Verdict {
        headline,
        score: lang.f(
            "result.score",
            &[("score", &result.discs), ("level", &name)],
        ),
        record,
    })
}

/// The rematch's players: the colours swapped.
pub fn rematch(players: Players) -> Players {
    Players {
        black: players.white,
        white: players.black,
    }
}

/// After the human beat the AI at one of the engine's levels below the top: the same colours
/// against the next level up.
pub fn next_level(game: &Game, players: Players) -> Option<Players> {
    let (human, level) = players.human_against_ai()?;
    if game.result()?.winner() != Some(human) {
        return None;
    }
    let AiLevel::Level(level) = level else {
        return None;
    };
    let up = Level::ALL
        .iter()
        .position(|&l| l == level)
        .and_then(|i| Level::ALL.get(i + 1))?;
    Some(Players::against_ai(human, AiLevel::Level(*up)))
}

/// One player's line of the summary: the accuracy, the average loss and the counts of the
/// moves a coach points at.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerLine {
    /// Black or White.
    pub side: Side,
    /// How the line names the player: the side, and "You" against the AI.
    pub name: String,
    /// The engine's percentage ([`Accuracy::percent`]), rounded.
    pub percent: u32,
    /// Discs lost a move on average.
    pub average_loss: f32,
    /// Inaccuracies, mistakes and blunders.
    pub marked: [u32; 3],
}

/// What the summary says once the game is reviewed: a line per player (Black's first) and
/// the player's costliest move.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Black's line and White's.
    pub lines: Vec<PlayerLine>,
    /// "23. c4 lost 8 discs; b3 was best (exact)": the human's worst move against the AI, else
    /// the worst of the game; none when nobody lost a disc.
    pub worst: Option<String>,
}

/// The summary of `game` from its `review` (every move of it reviewed).
pub fn summary(game: &Game, review: &Review, players: &Players, lang: Lang) -> Summary {
    let human = players.human_against_ai().map(|(side, _)| side);
    let lines = [Side::Black, Side::White]
        .into_iter()
        .map(|side| {
            let a = review.accuracy(side);
            let name = if human == Some(side) {
                format!("{} · {}", lang.side(side), lang.t("hud.you"))
            } else {
                lang.side(side).to_string()
            };
            PlayerLine {
                side,
                name,
                percent: a.percent().unwrap_or(100.0).round() as u32,
                average_loss: a.average_loss,
                marked: [
                    a.counts[Class::Inaccuracy as usize],
                    a.counts[Class::Mistake as usize],
                    a.counts[Class::Blunder as usize],
                ],
            }
        })
        .collect();
    // Against the AI the human's worst move; else the game's (the first of equals).
    let sides = match human {
        Some(side) => vec![side],
        None => vec![Side::Black, Side::White],
    };
    let worst = sides
        .into_iter()
        .filter_map(|side| review.worst(side))
        .min_by(|a, b| b.loss().total_cmp(&a.loss()).then(a.ply.cmp(&b.ply)));
    let worst = worst.map(|m| {
        let ply = board_ply(game.history(), m.ply).unwrap_or(m.ply);
        let how = lang.t(if m.exact {
            "review.exact"
        } else {
            "review.search"
        });
        let said = lang.f(
            "review.lost",
            &[
                ("move", &numbered(ply, m.played, lang)),
                ("n", &lang.discs(m.loss(), m.exact)),
                ("best", &m.best),
                ("how", &how),
            ],
        );
        match human {
            Some(_) => lang.f("result.worst", &[("what", &said)]),
            None => said,
        }
    });
    Summary { lines, worst }
}

/// A move with its number as the move list writes it: "23. c4" (Black's), "23. … c4"
/// (White's), `ply` its place on the board from 1.
pub fn numbered(ply: usize, mv: montello_engine::Move, lang: Lang) -> String {
    let pair = ply.div_ceil(2);
    let name = lang.move_name(mv);
    if ply % 2 == 1 {
        format!("{pair}. {name}")
    } else {
        format!("{pair}. … {name}")
    }
}

/// The summary's line that says how far the review has got, while it runs.
#[derive(Component, Debug)]
struct ReviewProgress;

fn spawn_card(
    mut commands: Commands,
    current: Res<CurrentGame>,
    players: Res<Players>,
    stats: Res<StatsFile>,
    review: Res<GameReview>,
    placement: Res<Placement>,
    lang: Res<Language>,
    mut next: ResMut<NextState<Overlay>>,
    settings: Res<Settings>,
) {
    let lang = lang.0;
    let game = current.game();
    let Some(verdict) = verdict(game, &players, &stats.0, lang) else {
        // Nothing to say about a game in progress: an undo took back the last move, so the
        // card goes. (Before the first move nothing shows yet: `--open result` opens it
        // before the command line's game is loaded, and it follows once it is.)
        if game.ply() > 0 {
            next.set(Overlay::None);
        }
        return;
    };
    let body = commands.spawn(panel()).id();
    commands
        .entity(body)
        .with_child(text_label(verdict.score, Type::Body));
    if let Some(record) = verdict.record {
        commands.entity(body).with_child((
            coloured_label(record, Type::Small, Color::WHITE),
            Paint::TextDim,
        ));
    }
    // Against the adaptive opponent: the rating, and how far this game moved it.
    if settings.adaptive
        && let Some((human, level)) = players.human_against_ai()
        && let Some(result) = game.result()
        && stats.0.counted(game)
    {
        // The human's margin, as the statistics counted it.
        let black = i32::from(result.discs.margin());
        let margin = if human == Side::Black { black } else { -black };
        if let Some(line) = super::adaptive::change(&stats.0, level, margin, lang) {
            commands.entity(body).with_child((
                coloured_label(line, Type::Small, Color::WHITE),
                Paint::TextDim,
            ));
        }
    }
    match review.of_game(game) {
        Some(whole) if !whole.moves.is_empty() => {
            let summary = summary(game, &whole, &players, lang);
            // Lying down the sheet is the HUD's column beside the board.
            let narrow = placement.0.is_some_and(|p| p.areas.landscape);
            let table = accuracy_table(&mut commands, &summary, lang, narrow);
            commands.entity(body).add_child(table);
            if let Some(worst) = summary.worst {
                commands
                    .entity(body)
                    .with_child(text_label(worst, Type::Small));
            }
        }
        _ => {
            // The review runs (it starts by itself at the end of a game): its progress,
            // filled in each frame, until the summary replaces it.
            commands.entity(body).with_child((
                coloured_label(lang.t("result.reviewing"), Type::Small, Color::WHITE),
                Paint::TextDim,
                ReviewProgress,
            ));
        }
    }
    let rematch_label = match players.human_against_ai() {
        Some((human, _)) => lang.f(
            "result.rematch_as",
            &[("side", &lang.side(human.opposite()))],
        ),
        None => lang.t("result.rematch").to_string(),
    };
    // The actions side by side, wrapping onto a second row where the words are long.
    // (In a row of its own: the panel lays its footer out as one line.)
    let footer = commands
        .spawn((
            Node {
                flex_wrap: FlexWrap::Wrap,
                flex_grow: 1.0,
                row_gap: px(6),
                column_gap: px(4),
                ..default()
            },
            Pickable::IGNORE,
        ))
        .id();
    commands.entity(footer).with_child(action(
        lang.t("result.review"),
        ResultAction::Review,
        false,
    ));
    if !review.marked_plies(game, practising(&players)).is_empty() {
        commands.entity(footer).with_child(action(
            lang.t("result.try"),
            ResultAction::TryAgain,
            false,
        ));
    }
    commands
        .entity(footer)
        .with_child(action(rematch_label, ResultAction::Rematch, true));
    if let Some(up) = next_level(game, *players) {
        let level = up
            .human_against_ai()
            .map(|(_, level)| level.label(lang))
            .unwrap_or_default();
        commands.entity(footer).with_child(action(
            lang.f("result.next", &[("level", &level)]),
            ResultAction::NextLevel,
            false,
        ));
    }
    let footer_row = commands.spawn(Pickable::IGNORE).add_child(footer).id();
    open_panel(
        &mut commands,
        Overlay::Result,
        Card,
        text_label(verdict.headline, Type::Title),
        body,
        Some(footer_row),
    );
}

/// One of the summary's actions (so that a small phone's summary shows its figures above
/// them, 44 pt tall: [`widgets::row_action`]).
fn action(text: impl Into<String>, action: ResultAction, selected: bool) -> impl Bundle {
    widgets::row_action(action, selected, text_label(text, Type::Body))
}

/// The players' accuracy as a small table: a heading row, then Black's and White's lines
/// ("Black · You  87%  1.2  2 1 0").
/// `narrow`: the summary is in the column beside the board (lying down), too narrow for a
/// name beside the figures: each name goes on a line of its own over them.
fn accuracy_table(commands: &mut Commands, summary: &Summary, lang: Lang, narrow: bool) -> Entity {
    // The figures' columns; the name takes what they leave (a 360-pt phone's card leaves
    // the name about 100 pt).
    const FIGURE: f32 = 60.0;
    const MARK: f32 = 30.0;
    let cell = |text: String, width: f32, size: Type, dim: bool| {
        (
            coloured_label(text, size, Color::WHITE),
            if dim { Paint::TextDim } else { Paint::Text },
            TextLayout::justify(Justify::Center),
            Node {
                width: px(width),
                flex_shrink: 0.0,
                justify_content: JustifyContent::Center,
                ..default()
            },
        )
    };
    let row = || {
        (
            Node {
                align_items: AlignItems::Center,
                column_gap: px(2),
                ..default()
            },
            Pickable::IGNORE,
        )
    };
    let table = commands
        .spawn((
            Node {
                flex_direction: FlexDirection::Column,
                row_gap: px(2),
                flex_shrink: 0.0,
                ..default()
            },
            Pickable::IGNORE,
        ))
        .id();
    let heading = commands
        .spawn(row())
        .with_children(|r| {
            if !narrow {
                r.spawn((name_cell(), Pickable::IGNORE));
            }
            r.spawn(cell(
                lang.t("result.accuracy").into(),
                FIGURE,
                Type::Caption,
                true,
            ));
            r.spawn(cell(
                lang.t("result.loss").into(),
                FIGURE,
                Type::Caption,
                true,
            ));
            for class in [Class::Inaccuracy, Class::Mistake, Class::Blunder] {
                r.spawn(cell(class_symbol(class).into(), MARK, Type::Caption, true));
            }
        })
        .id();
    commands.entity(table).add_child(heading);
    for line in &summary.lines {
        if narrow {
            commands
                .entity(table)
                .with_child(text_label(line.name.clone(), Type::Body));
        }
        let figures = commands
            .spawn(row())
            .with_children(|r| {
                if !narrow {
                    r.spawn((text_label(line.name.clone(), Type::Body), name_cell()));
                }
                r.spawn(cell(
                    format!("{}%", line.percent),
                    FIGURE,
                    Type::Body,
                    false,
                ));
                r.spawn(cell(
                    lang.decimal(line.average_loss, 1),
                    FIGURE,
                    Type::Body,
                    false,
                ));
                for n in line.marked {
                    r.spawn(cell(n.to_string(), MARK, Type::Body, n == 0));
                }
            })
            .id();
        commands.entity(table).add_child(figures);
    }
    table
}

/// The accuracy table's first column: what the figures' columns leave.
fn name_cell() -> Node {
    Node {
        flex_grow: 1.0,
        flex_shrink: 1.0,
        flex_basis: px(0),
        min_width: px(0),
        ..default()
    }
}

/// Writes the review's progress into the summary while it runs.
fn show_progress(
    review: Res<GameReview>,
    lang: Res<Language>,
    mut lines: Query<&mut Text, With<ReviewProgress>>,
) {
    let Some((done, total)) = review.progress() else {
        return;
    };
    let text = lang
        .0
        .f("review.running", &[("done", &done), ("total", &total)]);
    for mut line in &mut lines {
        if line.0 != text {
            line.0.clone_from(&text);
        }
    }
}

/// The one rematch of the app (the summary's button and the HUD's): the same rules, the
/// colours swapped ([`rematch`]); against the adaptive opponent (`adaptive`: the level the
/// player's rating picks now, [`adaptive_level`]) at that level.
pub fn rematch_command(game: &Game, players: Players, adaptive: Option<AiLevel>) -> GameCommand {
    let players = match (players.human_against_ai(), adaptive) {
        (Some((human, _)), Some(level)) => Players::against_ai(human.opposite(), level),
        _ => rematch(players),
    };
    GameCommand::NewGame(GameSetup {
        players,
        variant: game.variant(),
    })
}

/// The adaptive opponent's level now, when the player chose it.
pub fn adaptive_level(settings: &Settings, stats: &StatsFile) -> Option<AiLevel> {
    settings.adaptive.then(|| super::adaptive::level(&stats.0))
}

fn handle_actions(
    mut actions: MessageReader<UiAction<ResultAction>>,
    current: Res<CurrentGame>,
    players: Res<Players>,
    mut commands: MessageWriter<GameCommand>,
    mut practice: MessageWriter<PracticeCommand>,
    mut next: ResMut<NextState<Overlay>>,
    settings: Res<Settings>,
    stats: Res<StatsFile>,
) {
    for UiAction(action) in actions.read() {
        let command = match action {
            ResultAction::Review => {
                next.set(Overlay::Moves);
                continue;
            }
            ResultAction::TryAgain => {
                // The practice's sheet takes the summary's place once the try is set up.
                practice.write(PracticeCommand::First);
                continue;
            }
            ResultAction::Rematch => {
                rematch_command(current.game(), *players, adaptive_level(&settings, &stats))
            }
            ResultAction::NextLevel => match next_level(current.game(), *players) {
                Some(players) => GameCommand::NewGame(GameSetup {
                    players,
                    variant: current.game().variant(),
                }),
                None => continue,
            },
        };
        commands.write(command);
        next.set(Overlay::None);
    }
}

/// The record changes once the game is counted, the language may change, and the game may
/// (an undo closes the card, a game loaded after it opened fills it): the card follows.
fn respawn_on_change(
    mut commands: Commands,
    stats: Res<StatsFile>,
    language: Res<Language>,
    current: Res<CurrentGame>,
    review: Res<GameReview>,
    cards: Query<Entity, With<Card>>,
    mut reviewed: Local<bool>,
) {
    // The review's end fills the summary in.
    let covers = review.covers(current.game());
    let review_came = covers != *reviewed;
    *reviewed = covers;
    if !(stats.is_changed() || language.is_changed() || current.is_changed() || review_came) {
        return;
    }
    super::respawn(&mut commands, cards, spawn_card);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::player::Player;
    use montello_engine::Variant;
    use montello_engine::notation::transcript;
    use montello_engine::search::review::MoveReview;

    /// A finished game (the browser test's reviewed one).
    fn finished() -> Game {
        let moves = "f5f6f7g5e6d7h4d6e7d3c3b3d2f8d8c8e3g6h6h5g4h3h2e1c7f4f3g3a3e8d1c1e2f2f1b4b1b6\
                     c2g7c5b5h8g2h7g1h1a5c6b2a2a1g8a4c4a7b7b8";
        let game = transcript::parse(moves, Variant::Othello).expect("a legal game");
        assert!(game.is_over());
        game
    }

    fn human_vs(level: Level, human: Side) -> Players {
        Players::against_ai(human, AiLevel::Level(level))
    }

    #[test]
    fn the_verdict_speaks_from_the_humans_side_with_the_record() {
        let game = finished();
        let result = game.result().expect("over");
        let winner = result.winner().expect("not a draw");
        let margin = result.margin();
        let mut stats = Stats::default();
        stats.record(AiLevel::Level(Level::Casual), 10);
        stats.record(AiLevel::Level(Level::Casual), -2);
        let won =
            verdict(&game, &human_vs(Level::Casual, winner), &stats, Lang::En).expect("a verdict");
        assert_eq!(won.headline, format!("You won by {margin}"));
        assert_eq!(won.score, format!("{} against Casual", result.discs));
        assert_eq!(
            won.record.as_deref(),
            Some("Your record against Casual: 1 won, 1 lost, 0 drawn")
        );
        let lost = verdict(
            &game,
            &human_vs(Level::Casual, winner.opposite()),
            &stats,
            Lang::En,
        )
        .expect("a verdict");
        assert_eq!(lost.headline, format!("You lost by {margin}"));
        // No record yet against a level never counted.
        let first =
            verdict(&game, &human_vs(Level::Master, winner), &stats, Lang::En).expect("a verdict");
        assert_eq!(first.record, None);
        // Face to face: who won, and no record.
        let people = Players {
            black: Player::Human,
            white: Player::Human,
        };
        let both = verdict(&game, &people, &stats, Lang::En).expect("a verdict");
        assert_eq!(
            both.headline,
            format!("{} wins by {margin}", Lang::En.side(winner))
        );
        assert_eq!(both.record, None);
        // Translated, and nothing to say before the end.
        let ja = verdict(&game, &human_vs(Level::Casual, winner), &stats, Lang::Ja);
        assert_ne!(ja.as_ref(), Some(&won));
        assert_eq!(
            verdict(&Game::new(Variant::Othello), &people, &stats, Lang::En),
            None
        );
    }

    #[test]
    fn a_rematch_swaps_the_colours_and_a_win_offers_the_next_level_only() {
        let game = finished();
        let winner = game.result().and_then(|r| r.winner()).expect("a winner");
        let players = human_vs(Level::Casual, winner);
        assert_eq!(rematch(players), human_vs(Level::Casual, winner.opposite()));
        // Against the adaptive opponent the rematch is at the level the rating picks now.
        let strong = AiLevel::Level(Level::Strong);
        assert!(matches!(
            rematch_command(&game, players, Some(strong)),
            GameCommand::NewGame(GameSetup { players, .. }) if players == human_vs(Level::Strong, winner.opposite())
        ));
        assert!(matches!(
            rematch_command(&game, players, None),
            GameCommand::NewGame(GameSetup { players: p, .. }) if p == human_vs(Level::Casual, winner.opposite())
        ));
        assert_eq!(
            next_level(&game, players),
            Some(human_vs(Level::Intermediate, winner))
        );
        // Not after a loss, not above the top, not face to face, not before the end.
        assert_eq!(
            next_level(&game, human_vs(Level::Casual, winner.opposite())),
            None
        );
        assert_eq!(next_level(&game, human_vs(Level::Master, winner)), None);
        let people = Players {
            black: Player::Human,
            white: Player::Human,
        };
        assert_eq!(next_level(&game, people), None);
        assert_eq!(next_level(&Game::new(Variant::Othello), players), None);
    }

    /// The summary's figures are the engine's review of the same game: each player's
    /// percentage, average loss and marked moves, and the costliest move with its number on
    /// the board.
    #[test]
    fn the_summary_says_what_the_engines_review_found() {
        use montello_engine::search::review::{ReviewConfig, review};
        let game = finished();
        let config = ReviewConfig {
            depth: 2,
            exact_empties: 10,
            ..ReviewConfig::default()
        };
        let review = review(&game, &config, None, |_, _| {}).expect("not cancelled");
        let winner = game.result().and_then(|r| r.winner()).expect("a winner");
        let loser = winner.opposite();
        let players = human_vs(Level::Casual, loser);
        let s = summary(&game, &review, &players, Lang::En);
        assert_eq!(s.lines.len(), 2);
        for (line, side) in s.lines.iter().zip([Side::Black, Side::White]) {
            let a = review.accuracy(side);
            assert_eq!(line.side, side);
            assert_eq!(line.percent, a.percent().expect("moves").round() as u32);
            assert_eq!(line.average_loss, a.average_loss);
            assert_eq!(line.marked, [a.counts[2], a.counts[3], a.counts[4]]);
            assert_eq!(line.name.ends_with("You"), side == loser, "{}", line.name);
        }
        let worst = review.worst(loser).expect("the loser lost discs somewhere");
        let ply = board_ply(game.history(), worst.ply).expect("on the board");
        let expected = format!(
            "Your costliest move: {} lost {} discs; {} was best ({})",
            numbered(ply, worst.played, Lang::En),
            Lang::En.discs(worst.loss(), worst.exact),
            worst.best,
            if worst.exact { "exact" } else { "search" }
        );
        assert_eq!(s.worst.as_deref(), Some(expected.as_str()));
    }

    /// Known losses, as a review with exact values gives them: the figures and the line are
    /// these and no others.
    #[test]
    fn a_summary_of_known_losses() {
        let game = transcript::parse("f5d6c3d3", Variant::Othello).expect("legal");
        let m = |side, played: &str, best: &str, b: f32, p: f32, ply| MoveReview {
            ply,
            side,
            played: played.parse().expect("a move"),
            best: best.parse().expect("a move"),
            best_value: b,
            played_value: p,
            exact: true,
        };
        let review = Review {
            moves: vec![
                m(Side::Black, "f5", "f5", 0.0, 0.0, 1),
                m(Side::White, "d6", "f6", 2.0, -8.0, 2),
                m(Side::Black, "c3", "c3", 4.0, 4.0, 3),
                m(Side::White, "d3", "c4", -1.0, -6.0, 4),
            ],
        };
        let people = Players {
            black: Player::Human,
            white: Player::Human,
        };
        let s = summary(&game, &review, &people, Lang::En);
        assert_eq!(s.lines[0].percent, 100);
        assert_eq!(
            (s.lines[0].average_loss, s.lines[0].marked),
            (0.0, [0, 0, 0])
        );
        // White lost 10 (a blunder: 25%) and 5 (an inaccuracy: 50%).
        assert_eq!(s.lines[1].percent, 38);
        assert_eq!(
            (s.lines[1].average_loss, s.lines[1].marked),
            (7.5, [1, 0, 1])
        );
        assert_eq!(s.lines[1].name, "White");
        // Face to face the game's costliest move, not "yours".
        assert_eq!(
            s.worst.as_deref(),
            Some("1. … d6 lost 10 discs; f6 was best (exact)")
        );
        assert_eq!(
            numbered(3, "pass".parse().expect("a pass"), Lang::Fr),
            "2. passe"
        );
    }

    /// An app with only what the card's opening needs: the overlay state, the game, the
    /// view's busy flag and the move messages.
    fn opening_app() -> App {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, bevy::state::app::StatesPlugin))
            .init_state::<Overlay>()
            .init_resource::<Ending>()
            .init_resource::<ViewBusy>()
            .insert_resource(CurrentGame::new(Game::new(Variant::Othello)))
            .add_message::<MovePlayed>()
            .add_systems(Update, (open_when_settled, note_the_end).chain());
        app.update();
        app
    }

    /// Plays `game`'s moves on the app's game, announcing each as the flow does.
    fn play_all(app: &mut App, game: &Game) {
        for &mv in game.history() {
            let world = app.world_mut();
            let before = world.resource::<CurrentGame>().game().position();
            let side = world.resource::<CurrentGame>().game().side_to_move();
            let after = world
                .resource_mut::<CurrentGame>()
                .play(mv)
                .expect("a legal move");
            world.write_message(MovePlayed {
                mv,
                side,
                before,
                after,
            });
            app.update();
        }
    }

    fn overlay(app: &App) -> Overlay {
        *app.world().resource::<State<Overlay>>().get()
    }

    #[test]
    fn the_card_opens_once_the_last_move_has_landed_and_not_for_a_loaded_game() {
        let game = finished();
        let mut app = opening_app();
        app.world_mut().resource_mut::<ViewBusy>().0 = true;
        play_all(&mut app, &game);
        app.update();
        assert_eq!(overlay(&app), Overlay::None, "the discs are still landing");
        app.world_mut().resource_mut::<ViewBusy>().0 = false;
        app.update();
        app.update();
        assert_eq!(overlay(&app), Overlay::Result);

        // A finished game loaded (no move played) opens nothing.
        let mut app = opening_app();
        app.world_mut()
            .resource_mut::<CurrentGame>()
            .replace(game.clone());
        for _ in 0..3 {
            app.update();
        }
        assert_eq!(overlay(&app), Overlay::None);

        // Undone before the discs landed: nothing either.
        let mut app = opening_app();
        app.world_mut().resource_mut::<ViewBusy>().0 = true;
        play_all(&mut app, &game);
        let mut shorter = game.clone();
        assert!(shorter.undo().is_some());
        app.world_mut()
            .resource_mut::<CurrentGame>()
            .replace(shorter);
        app.world_mut().resource_mut::<ViewBusy>().0 = false;
        for _ in 0..3 {
            app.update();
        }
        assert_eq!(overlay(&app), Overlay::None);
    }
}
