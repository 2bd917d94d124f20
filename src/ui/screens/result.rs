//! The end of a game: a card that speaks to the player ("You lost by 16", "40-24 against
//! Casual", their record against that level) with what comes next: a rematch with the colours
//! swapped, the game's review in the move list, and the next level after a win. It opens by
//! itself once the move that ended the game has landed on the board (not when a finished game
//! is loaded or imported), over the board only; its × leaves the board with the HUD's Play
//! again and Graph.

use super::{Overlay, open_panel};
use crate::AppSystems;
use crate::game::flow::{CurrentGame, GameCommand, GameSetup, MovePlayed, ViewBusy};
use crate::game::player::AiLevel;
use crate::game::players::Players;
use crate::persist::save::StatsFile;
use crate::persist::save_format::Stats;
use crate::prefs::choices::Lang;
use crate::prefs::i18n::Language;
use crate::ui::theme::{self, Paint};
use crate::ui::widgets::{self, UiAction, choice_text, coloured_label, panel, text_label};
use bevy::prelude::*;
use montello_engine::Game;
use montello_engine::search::Level;

/// What the card's buttons do.
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
pub enum ResultAction {
    /// The same players and rules again, the colours swapped.
    Rematch,
    /// The game's review: the move list, with its marks and the line over the controls.
    Review,
    /// The same colours against the next level up (shown after a win below the top level).
    NextLevel,
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
            (handle_actions, respawn_on_change)
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

fn spawn_card(
    mut commands: Commands,
    current: Res<CurrentGame>,
    players: Res<Players>,
    stats: Res<StatsFile>,
    lang: Res<Language>,
    mut next: ResMut<NextState<Overlay>>,
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
        .with_child(text_label(verdict.score, theme::FONT));
    if let Some(record) = verdict.record {
        commands
            .entity(body)
            .with_child((coloured_label(record, 16.0, Color::WHITE), Paint::TextDim));
    }
    let rematch_label = match players.human_against_ai() {
        Some((human, _)) => lang.f(
            "result.rematch_as",
            &[("side", &lang.side(human.opposite()))],
        ),
        None => lang.t("result.rematch").to_string(),
    };
    let buttons = commands
        .spawn((
            Node {
                flex_direction: FlexDirection::Column,
                row_gap: px(8),
                margin: UiRect::top(px(6)),
                ..default()
            },
            Pickable::IGNORE,
        ))
        .id();
    commands
        .entity(buttons)
        .with_child(choice_text(rematch_label, ResultAction::Rematch, true))
        .with_child(choice_text(
            lang.t("result.review"),
            ResultAction::Review,
            false,
        ));
    if let Some(up) = next_level(game, *players) {
        let level = up
            .human_against_ai()
            .map(|(_, level)| level.label(lang))
            .unwrap_or_default();
        commands.entity(buttons).with_child(choice_text(
            lang.f("result.next", &[("level", &level)]),
            ResultAction::NextLevel,
            false,
        ));
    }
    commands.entity(body).add_child(buttons);
    open_panel(
        &mut commands,
        Overlay::Result,
        Card,
        text_label(verdict.headline, 28.0),
        body,
        None,
    );
}

fn handle_actions(
    mut actions: MessageReader<UiAction<ResultAction>>,
    current: Res<CurrentGame>,
    players: Res<Players>,
    mut commands: MessageWriter<GameCommand>,
    mut next: ResMut<NextState<Overlay>>,
) {
    for UiAction(action) in actions.read() {
        let variant = current.game().variant();
        let players = match action {
            ResultAction::Review => {
                next.set(Overlay::Moves);
                continue;
            }
            ResultAction::Rematch => rematch(*players),
            ResultAction::NextLevel => match next_level(current.game(), *players) {
                Some(players) => players,
                None => continue,
            },
        };
        commands.write(GameCommand::NewGame(GameSetup { players, variant }));
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
    cards: Query<Entity, With<Card>>,
) {
    if !(stats.is_changed() || language.is_changed() || current.is_changed()) {
        return;
    }
    super::respawn(&mut commands, cards, spawn_card);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::player::Player;
    use montello_engine::notation::transcript;
    use montello_engine::{Side, Variant};

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
