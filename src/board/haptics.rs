//! Light haptics, while the setting is on: a tick under the finger when the player's disc is
//! placed, a short buzz when a tap is refused (an illegal square, the AI's turn, the board
//! showing an earlier position; not a tap that skips an animation). The device makes them
//! where it can ([`crate::platform::haptic`]: Android's view haptics, iOS's feedback
//! generators, `navigator.vibrate` in a browser).

use crate::AppSystems;
use crate::game::flow::{MovePlayed, Refusal, TapRefused};
use crate::game::players::Players;
use crate::prefs::settings::Settings;
use bevy::prelude::*;
use montello_engine::Move;

pub use crate::platform::Haptic;

/// Haptics to make now.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Buzz(pub Haptic);

/// Turns the player's moves and refused taps into [`Buzz`] messages while haptics are on.
pub(crate) fn logic_plugin(app: &mut App) {
    app.add_message::<Buzz>()
        .add_systems(Update, cue_haptics.in_set(AppSystems::View));
}

/// Makes the haptics on the device.
pub(crate) fn output_plugin(app: &mut App) {
    app.add_systems(Update, buzz.after(AppSystems::View));
}

/// Whether a refused tap buzzes: a tap that only skipped the running animation did what the
/// player meant.
pub fn buzzes(why: Refusal) -> bool {
    !matches!(why, Refusal::Animating)
}

fn cue_haptics(
    settings: Res<Settings>,
    players: Res<Players>,
    mut played: MessageReader<MovePlayed>,
    mut refused: MessageReader<TapRefused>,
    mut out: MessageWriter<Buzz>,
) {
    if !settings.haptics {
        played.clear();
        refused.clear();
        return;
    }
    // The person's own discs (not the AI's answer, nor a pass).
    if played
        .read()
        .any(|p| players.is_human(p.side) && matches!(p.mv, Move::Play(_)))
    {
        out.write(Buzz(Haptic::Place));
    }
    if refused.read().any(|r| buzzes(r.why)) {
        out.write(Buzz(Haptic::Refused));
    }
}

/// (On the main thread: iOS's feedback generators must be made there.)
fn buzz(mut buzzes: MessageReader<Buzz>, _main_thread: bevy::ecs::system::NonSendMarker) {
    for Buzz(haptic) in buzzes.read() {
        crate::platform::haptic(*haptic);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::player::{AiLevel, Player};
    use montello_engine::{Game, IllegalReason, Side, Square, Variant};

    fn app(haptics: bool) -> App {
        let mut app = App::new();
        let settings = Settings {
            prefs: crate::prefs::choices::Preferences {
                haptics,
                ..Default::default()
            },
            ..Default::default()
        };
        app.add_plugins(MinimalPlugins)
            .configure_sets(Update, AppSystems::View)
            .insert_resource(settings)
            .insert_resource(Players {
                black: Player::Human,
                white: Player::Ai(AiLevel::default()),
            })
            .add_message::<MovePlayed>()
            .add_message::<TapRefused>();
        logic_plugin(&mut app);
        app
    }

    fn played(side: Side, mv: &str) -> MovePlayed {
        let mut game = Game::new(Variant::default());
        let before = game.position();
        let mv: Move = mv.parse().expect("move");
        let after = game.play(mv).unwrap_or(before);
        MovePlayed {
            mv,
            side,
            before,
            after,
        }
    }

    fn buzzed(app: &mut App) -> Vec<Haptic> {
        let messages = app.world().resource::<Messages<Buzz>>();
        messages.get_cursor().read(messages).map(|b| b.0).collect()
    }

    fn refused(why: Refusal) -> TapRefused {
        TapRefused {
            square: "a1".parse::<Square>().expect("square"),
            why,
        }
    }

    #[test]
    fn the_players_disc_ticks_and_a_refused_tap_buzzes() {
        let mut app = app(true);
        app.world_mut().write_message(played(Side::Black, "f5"));
        app.update();
        assert_eq!(buzzed(&mut app), [Haptic::Place]);
        let mut app = self::app(true);
        app.world_mut()
            .write_message(refused(Refusal::Illegal(IllegalReason::NoFlips)));
        app.update();
        assert_eq!(buzzed(&mut app), [Haptic::Refused]);
        // The AI's move, and a tap that skipped an animation, make none.
        let mut app = self::app(true);
        app.world_mut().write_message(played(Side::White, "f5"));
        app.world_mut().write_message(refused(Refusal::Animating));
        app.update();
        assert_eq!(buzzed(&mut app), []);
    }

    #[test]
    fn no_haptics_while_the_setting_is_off() {
        let mut app = app(false);
        app.world_mut().write_message(played(Side::Black, "f5"));
        app.world_mut().write_message(refused(Refusal::NotYourTurn));
        app.update();
        assert_eq!(buzzed(&mut app), []);
    }
}
