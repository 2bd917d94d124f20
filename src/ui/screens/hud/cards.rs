//! The player cards: each side's count on a disc, its name and who plays it, ringed while
//! its side is to move; an AI's card pulses while it thinks.

use super::*;
use crate::ui::theme::Type;

/// A player card: the side's count on a disc, its name and who plays it.
pub(super) fn player_card(side: Side, seat: Seat) -> impl Bundle {
    let texts = (
        layout(Node {
            flex_direction: FlexDirection::Column,
            align_items: if side == Side::Black {
                AlignItems::FlexStart
            } else {
                AlignItems::FlexEnd
            },
            ..default()
        }),
        Placed::CardTexts(side),
        children![
            (
                text_label("", Type::Body),
                TextLayout::no_wrap(),
                HudText::Name(side),
                seat
            ),
            (
                coloured_label("", Type::Small, Color::WHITE),
                TextLayout::no_wrap(),
                Paint::TextDim,
                HudText::Who(side),
                seat
            ),
        ],
    );
    (
        // Not a pass-through layout node: a tap on a human player's card edits the name.
        Node {
            flex_grow: 1.0,
            flex_basis: px(0),
            // White's card mirrors Black's: its count at the outer edge.
            flex_direction: if side == Side::Black {
                FlexDirection::Row
            } else {
                FlexDirection::RowReverse
            },
            align_items: AlignItems::Center,
            column_gap: px(10),
            padding: UiRect::all(px(4)),
            border: UiRect::all(px(2)),
            border_radius: BorderRadius::all(px(34)),
            ..default()
        },
        BorderColor::all(Color::NONE),
        PlayerCard(side),
        Placed::Card(side),
        LayoutProbe(match side {
            Side::Black => "card-black",
            Side::White => "card-white",
        }),
        children![count_chip(side, seat), texts],
    )
}

pub(super) fn count_chip(side: Side, seat: Seat) -> impl Bundle {
    // The chips look like the discs in every theme.
    let discs = Palette::CLASSIC;
    let (bg, fg) = match side {
        Side::Black => (discs.disc_black, discs.disc_white),
        Side::White => (discs.disc_white, discs.disc_black),
    };
    (
        Node {
            min_width: px(60),
            height: px(46),
            justify_content: JustifyContent::Center,
            align_items: AlignItems::Center,
            border: UiRect::all(px(3)),
            border_radius: BorderRadius::all(px(24)),
            ..default()
        },
        BackgroundColor(bg),
        BorderColor::all(discs.text_dim),
        CountChip(side),
        Pickable::IGNORE,
        children![(
            coloured_label("2", Type::Title, fg),
            HudText::Count(side),
            seat
        )],
    )
}

/// Who plays `side`, under its name: the AI and its level, else the name the player gave
/// (`names`, Black's then White's), else "You" against the AI, "Player 1" (Black) and
/// "Player 2" (White) between two people.
pub fn who_plays(players: &Players, names: &[String; 2], side: Side, lang: Lang) -> String {
    let name = &names[crate::prefs::settings::name_slot(side)];
    match players.get(side) {
        Player::Ai(level) => lang.f("hud.ai", &[("level", &level.label(lang))]),
        Player::Human if !name.is_empty() => name.clone(),
        Player::Human if players.is_human(side.opposite()) => {
            let n = match side {
                Side::Black => 1,
                Side::White => 2,
            };
            lang.f("hud.player", &[("n", &n)])
        }
        Player::Human => lang.t("hud.you").to_string(),
    }
}

/// How strongly the AI's card is ringed while it thinks, at `secs` on the clock: a slow
/// pulse between 30% and 100% (1.2 s a beat), so the player sees the AI at work.
pub fn thinking_pulse(secs: f32) -> f32 {
    let beat = (secs / 1.2 * std::f32::consts::TAU).cos();
    0.3 + 0.7 * (0.5 + 0.5 * beat)
}

/// The side to move: its count ringed in the accent colour and its card on a lighter ground
/// (neither once the game is over or under review); an AI's card pulses while it thinks.
pub(super) fn mark_side_to_move(
    current: Res<CurrentGame>,
    palette: Res<Palette>,
    ai: Res<AiState>,
    time: Res<Time>,
    mut chips: Query<(&CountChip, &mut BorderColor), Without<PlayerCard>>,
    mut cards: Query<(&PlayerCard, &mut BorderColor, &mut BackgroundColor), Without<CountChip>>,
) {
    let game = current.game();
    let to_move = (!game.is_over() && current.review().is_none()).then(|| game.side_to_move());
    let thinking = match ai.thinking() {
        Some((side, Purpose::Move, progress)) => Some((side, progress)),
        _ => None,
    };
    for (chip, mut border) in &mut chips {
        let colour = if to_move == Some(chip.0) {
            palette.hint
        } else {
            palette.text_dim.with_alpha(0.5)
        };
        if border.top != colour {
            *border = BorderColor::all(colour);
        }
    }
    for (card, mut border, mut background) in &mut cards {
        let (mut edge, ground) = if to_move == Some(card.0) {
            (palette.hint, palette.button)
        } else {
            (Color::NONE, Color::NONE)
        };
        if let Some((side, _)) = thinking
            && side == card.0
        {
            edge = edge.with_alpha(thinking_pulse(time.elapsed_secs()));
        }
        if border.top != edge {
            *border = BorderColor::all(edge);
        }
        if background.0 != ground {
            background.0 = ground;
        }
    }
}
