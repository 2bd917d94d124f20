//! Accessibility: screen readers (through Bevy's AccessKit support, where the platform has an
//! adapter) hear every square of the board described in the player's language, "d3, empty,
//! legal move", and can play it. Buttons are described by Bevy itself from their text.
//!
//! The board's squares are 3D meshes, which AccessKit cannot see, so each gets an invisible UI
//! node placed over it (like the coordinates) that carries its description. An AccessKit
//! "click" on such a node plays the square exactly as a tap does.

use crate::game::flow::{CurrentGame, SquareTapped};
use crate::game::players::Players;
use crate::prefs::choices::Lang;
use crate::prefs::i18n::Language;
use accesskit::{Action, Node as AccessNode, NodeId, Role};
use bevy::a11y::{AccessibilityNode, ActionRequest};
use bevy::prelude::*;
use montello_engine::{Move, Side, Square};

/// The logic half (no window needed): AccessKit clicks on squares become taps.
pub(crate) fn logic_plugin(app: &mut App) {
    app.add_message::<ActionRequest>()
        .add_systems(PreUpdate, activate_squares);
}

/// The view half: one described node per square.
pub(crate) fn view_plugin(app: &mut App) {
    app.add_systems(Startup, spawn_square_nodes)
        .add_systems(PostUpdate, describe_squares);
}

/// The invisible node over a square.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct AccessibleSquare(pub Square);

/// What a screen reader says for a square: its name, what lies on it, and whether it is a
/// legal move for the side to move or the last move played.
pub fn describe_square(lang: Lang, current: &CurrentGame, square: Square) -> String {
    let position = current.shown_position();
    let state = match position.disc_at(square) {
        Some(Side::Black) => lang.t("a11y.black"),
        Some(Side::White) => lang.t("a11y.white"),
        None => lang.t("a11y.empty"),
    };
    let mut text = lang.f("a11y.square", &[("square", &square), ("state", &state)]);
    let legal = current.review().is_none() && current.game().legal_moves().contains(square);
    let last = current.shown_last_move() == Some(Move::Play(square));
    for (holds, key) in [(legal, "a11y.legal"), (last, "a11y.last")] {
        if holds {
            text = lang.f("a11y.more", &[("text", &text), ("more", &lang.t(key))]);
        }
    }
    text
}

fn activate_squares(
    mut requests: MessageReader<ActionRequest>,
    squares: Query<&AccessibleSquare>,
    mut taps: MessageWriter<SquareTapped>,
) {
    for request in requests.read() {
        if request.0.action != Action::Click {
            continue;
        }
        let Some(entity) = Entity::try_from_bits(request.0.target_node.0) else {
            continue;
        };
        if let Ok(square) = squares.get(entity) {
            taps.write(SquareTapped(square.0));
        }
    }
}

fn spawn_square_nodes(mut commands: Commands) {
    for square in Square::ALL {
        commands.spawn((
            Name::new(format!("Accessible square {square}")),
            AccessibleSquare(square),
            crate::board::pinned_to(square),
            AccessibilityNode(AccessNode::new(Role::Button)),
            Pickable::IGNORE,
        ));
    }
}

fn describe_squares(
    current: Res<CurrentGame>,
    players: Res<Players>,
    language: Res<Language>,
    mut nodes: Query<(&AccessibleSquare, &mut AccessibilityNode)>,
) {
    if !(current.is_changed() || players.is_changed() || language.is_changed()) {
        return;
    }
    for (square, mut node) in &mut nodes {
        let label = describe_square(language.0, &current, square.0);
        if node.label() != Some(label.as_str()) {
            node.set_label(label);
            node.add_action(Action::Click);
        }
    }
}

/// The AccessKit id Bevy gives an entity's node.
pub fn node_id(entity: Entity) -> NodeId {
    NodeId(entity.to_bits())
}
