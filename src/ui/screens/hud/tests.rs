//! The HUD's tests.

use super::*;
use crate::ui::placement::{HudPlace, hud_place};
use bevy::ecs::system::RunSystemOnce;

#[test]
fn the_huds_and_the_toolbar_carry_names_a_developer_can_find() {
    let mut world = World::new();
    world.run_system_once(spawn_hud).expect("spawn the HUDs");
    world
        .run_system_once(super::super::toolbar::spawn_toolbar)
        .expect("spawn the toolbar");
    let mut names: Vec<String> = world
        .query::<&Name>()
        .iter(&world)
        .map(|n| n.as_str().to_string())
        .collect();
    names.sort();
    assert_eq!(names, ["HUD Far", "HUD Near", "Toolbar"]);
}

#[test]
fn the_move_strip_shows_the_last_moves_in_numbered_pairs() {
    let moves: Vec<montello_engine::Move> = ["f5", "d6", "c3", "d3", "c4", "f4", "pass"]
        .iter()
        .map(|m| m.parse().expect("move"))
        .collect();
    assert_eq!(strip_text(&moves, 0, 4, Lang::En), "");
    assert_eq!(strip_text(&moves, 1, 4, Lang::En), "1. f5");
    assert_eq!(strip_text(&moves, 4, 4, Lang::En), "1. f5 d6 2. c3 d3");
    // Earlier moves go behind "…"; a strip opening on White's move numbers it.
    assert_eq!(
        strip_text(&moves, 5, 4, Lang::En),
        "… 1. … d6 2. c3 d3 3. c4"
    );
    assert_eq!(strip_text(&moves, 6, 4, Lang::En), "… 2. c3 d3 3. c4 f4");
    // Reviewing: up to the move shown, not the last one played.
    assert_eq!(strip_text(&moves, 2, 4, Lang::En), "1. f5 d6");
    let last = strip_text(&moves, 7, 4, Lang::En);
    assert_eq!(last, "… 2. … d3 3. c4 f4 4. pass");
    assert!(strip_text(&moves, 7, 4, Lang::Ja).ends_with("4. パス"));
    // A ply past the moves (never asked) shows what there is.
    assert_eq!(strip_text(&moves[..2], 9, 4, Lang::En), "1. f5 d6");
}

#[test]
fn the_strip_says_which_move_and_how_many_squares_are_empty() {
    let mut game = montello_engine::Game::new(montello_engine::Variant::default());
    assert_eq!(progress_text(0, game.position(), Lang::En), "60 empty");
    for mv in ["f5", "d6", "c3"] {
        game.play(mv.parse().expect("move")).expect("legal");
    }
    assert_eq!(
        progress_text(3, game.position(), Lang::En),
        "Move 3 · 57 empty"
    );
    assert_eq!(
        progress_text(3, game.position(), Lang::De),
        "Zug 3 · 57 frei"
    );
    assert_eq!(progress_text(3, game.position(), Lang::Ja), "3手目・空き57");
}

#[test]
fn the_thinking_ai_s_card_pulses() {
    let samples: Vec<f32> = (0..24).map(|i| thinking_pulse(i as f32 * 0.05)).collect();
    let (low, high) = samples
        .iter()
        .fold((1.0f32, 0.0f32), |(lo, hi), &a| (lo.min(a), hi.max(a)));
    assert!(low >= 0.3 - 1e-4 && high <= 1.0 + 1e-4, "{low}..{high}");
    // It visibly beats within one 1.2 s period, and returns.
    assert!(high - low > 0.6, "{low}..{high}");
    assert!((thinking_pulse(0.0) - thinking_pulse(1.2)).abs() < 1e-4);
}

/// A world with the HUD and what its texts are written from.
fn hud_world() -> World {
    let mut world = World::new();
    world.init_resource::<CurrentGame>();
    world.insert_resource(Players {
        black: Player::Human,
        white: Player::Ai(crate::game::player::AiLevel::default()),
    });
    world.init_resource::<AiState>();
    world.init_resource::<AiStats>();
    world.init_resource::<crate::game::ai::WinEstimate>();
    world.init_resource::<crate::game::margin::MarginEstimate>();
    world.init_resource::<Notice>();
    world.insert_resource(Settings::default());
    world.init_resource::<Language>();
    world.insert_resource(Palette::CLASSIC);
    world.init_resource::<CountLag>();
    world.init_resource::<ViewBusy>();
    world.init_resource::<TallLayout>();
    world.init_resource::<crate::persist::save::StatsFile>();
    world.run_system_once(spawn_hud).expect("spawn the HUDs");
    world
}

fn near_text(world: &mut World, which: fn(&HudText) -> bool) -> String {
    let mut texts = world.query::<(&HudText, &Seat, &Text)>();
    texts
        .iter(world)
        .find(|(text, seat, _)| which(text) && **seat == Seat::Near)
        .map(|(_, _, text)| text.0.clone())
        .expect("the near HUD has the text")
}

#[test]
fn the_status_changes_when_the_discs_have_landed() {
    let mut world = hud_world();
    let status = |world: &mut World| near_text(world, |t| matches!(t, HudText::Status));
    world.run_system_once(update_texts).expect("texts");
    // A new player's first move says how to play.
    assert_eq!(status(&mut world), "Tap a dot to play (you are Black)");
    world
        .resource_mut::<crate::persist::save::StatsFile>()
        .0
        .record(crate::game::player::AiLevel::default(), 4);
    world.run_system_once(update_texts).expect("texts");
    let before = status(&mut world);
    assert_eq!(before, "Your move (Black)");
    // Black plays f5: while its disc lands and the flips turn, the status stays.
    world.resource_mut::<ViewBusy>().0 = true;
    world
        .resource_mut::<CurrentGame>()
        .play("f5".parse().expect("move"))
        .expect("legal");
    world.run_system_once(update_texts).expect("texts");
    assert_eq!(status(&mut world), before);
    // The board has settled: now it is White's turn.
    world.resource_mut::<ViewBusy>().0 = false;
    world.run_system_once(update_texts).expect("texts");
    assert_eq!(status(&mut world), "White to move");
}

#[test]
fn on_a_tall_phone_notices_go_to_the_toast_and_the_strip_follows_the_game() {
    let mut world = hud_world();
    world.resource_mut::<TallLayout>().0 = true;
    world.resource_mut::<Settings>().ai_stats = true;
    for mv in ["f5", "d6", "c3"] {
        world
            .resource_mut::<CurrentGame>()
            .play(mv.parse().expect("move"))
            .expect("legal");
    }
    world
        .resource_mut::<Notice>()
        .error(crate::prefs::i18n::Said::new("notice.copied"));
    world.run_system_once(update_texts).expect("texts");
    world.run_system_once(show_toast).expect("toast");
    let toast = near_text(&mut world, |t| matches!(t, HudText::Toast));
    assert!(!toast.is_empty());
    assert_eq!(
        near_text(&mut world, |t| matches!(t, HudText::Notice)),
        toast
    );
    assert_eq!(
        near_text(&mut world, |t| matches!(t, HudText::Strip)),
        "1. f5 d6 2. c3"
    );
    // f5 d6 c3 follows the named lines (the Perpendicular Opening, on to the Tiger): the
    // strip names the opening instead of the move.
    assert_eq!(
        near_text(&mut world, |t| matches!(t, HudText::Progress)),
        "Perpendicular Opening"
    );
    let mut toasts = world.query_filtered::<&Visibility, With<Toast>>();
    assert!(toasts.iter(&world).all(|v| *v == Visibility::Inherited));
    // The notice gone, the toast hides.
    world.resource_mut::<Notice>().clear();
    world.run_system_once(show_toast).expect("toast");
    let mut toasts = world.query_filtered::<&Visibility, With<Toast>>();
    assert!(toasts.iter(&world).all(|v| *v == Visibility::Hidden));
}

#[test]
fn table_mode_turns_the_far_hud_and_routes_the_pass_button() {
    // Alone with the device: one HUD, upright. Face to face, White's is turned.
    assert_eq!(
        hud_place(Seat::Near, false),
        HudPlace {
            shown: true,
            turned: false
        }
    );
    assert!(!hud_place(Seat::Far, false).shown);
    assert!(hud_place(Seat::Far, true).shown && hud_place(Seat::Far, true).turned);
    assert!(!hud_place(Seat::Near, true).turned);
    // The Pass button shows to the player who must pass, and only in table mode to White.
    assert!(shows_button(Seat::Far, HudAction::Pass, Side::White, true));
    assert!(!shows_button(
        Seat::Near,
        HudAction::Pass,
        Side::White,
        true
    ));
    assert!(shows_button(Seat::Near, HudAction::Pass, Side::Black, true));
    assert!(shows_button(
        Seat::Near,
        HudAction::Pass,
        Side::White,
        false
    ));
    // Play again and the rest belong to the near HUD.
    assert!(shows_button(
        Seat::Near,
        HudAction::Rematch,
        Side::White,
        true
    ));
    assert!(!shows_button(
        Seat::Far,
        HudAction::Rematch,
        Side::White,
        true
    ));
    assert_eq!(Seat::of(Side::Black), Seat::Near);
    assert_eq!(Seat::of(Side::White), Seat::Far);
    // Face to face the far player has Undo and Hint of their own; the near player has
    // the toolbar's; alone with the device there is no far HUD to hold them.
    assert!(far_control_shown(Seat::Far, true));
    assert!(!far_control_shown(Seat::Near, true));
    assert!(!far_control_shown(Seat::Far, false));
}

#[test]
fn two_people_are_player_1_and_player_2() {
    let two = Players {
        black: Player::Human,
        white: Player::Human,
    };
    let unnamed = [String::new(), String::new()];
    assert_eq!(who_plays(&two, &unnamed, Side::Black, Lang::En), "Player 1");
    assert_eq!(who_plays(&two, &unnamed, Side::White, Lang::En), "Player 2");
    assert_eq!(
        who_plays(&two, &unnamed, Side::White, Lang::De),
        "Spieler 2"
    );
    let against_ai = Players {
        black: Player::Human,
        white: Player::Ai(crate::game::player::AiLevel::default()),
    };
    assert_eq!(
        who_plays(&against_ai, &unnamed, Side::Black, Lang::En),
        "You"
    );
}

#[test]
fn a_given_name_shows_for_a_human_player_only() {
    let two = Players {
        black: Player::Human,
        white: Player::Human,
    };
    let names = ["Ann".to_string(), String::new()];
    assert_eq!(who_plays(&two, &names, Side::Black, Lang::En), "Ann");
    assert_eq!(who_plays(&two, &names, Side::White, Lang::En), "Player 2");
    let ai_black = Players {
        black: Player::Ai(crate::game::player::AiLevel::default()),
        white: Player::Human,
    };
    let shown = who_plays(&ai_black, &names, Side::Black, Lang::En);
    assert_ne!(shown, "Ann", "the AI keeps its level's name");
    assert_eq!(who_plays(&ai_black, &names, Side::White, Lang::En), "You");
}
