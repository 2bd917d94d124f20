//! The move strip of a tall phone: the last moves and where the game is ("Move 23 · 37
//! empty", or the opening's name while the game follows a named line); a tap opens the move
//! list.

use super::*;
use crate::ui::theme::Type;

/// The move strip (a tall phone's): the last moves and where the game is, one line; a tap
/// opens the move list.
pub(super) fn move_strip(seat: Seat) -> impl Bundle {
    (
        widgets::framed(
            Node {
                display: Display::None,
                flex_grow: 1.0,
                flex_basis: px(0),
                // It gives way to the buttons beside it (Play again, Graph), its text clipped.
                min_width: px(0),
                min_height: px(crate::ui::layout::TOUCH),
                padding: UiRect::axes(px(12), px(6)),
                align_items: AlignItems::Center,
                border_radius: BorderRadius::all(px(10)),
                overflow: Overflow::clip(),
                ..default()
            },
            super::super::toolbar::ToolAction::Open(super::super::Overlay::Moves),
            false,
            (
                layout(Node {
                    width: percent(100),
                    justify_content: JustifyContent::SpaceBetween,
                    align_items: AlignItems::Center,
                    column_gap: px(10),
                    ..default()
                }),
                children![
                    (
                        text_label("", Type::Body),
                        TextLayout::no_wrap(),
                        HudText::Strip,
                        seat,
                    ),
                    (
                        coloured_label("", Type::Small, Color::WHITE),
                        Paint::TextDim,
                        TextLayout::no_wrap(),
                        HudText::Progress,
                        seat,
                    ),
                ],
            ),
        ),
        // On a tall phone, the move strip: a tap opens the move list.
        Placed::Strip,
        seat,
    )
}

/// How many of the last moves the move strip shows.
pub(super) const STRIP_PLIES: usize = 4;

/// The move strip's text: the last `plies` moves up to the shown one (`shown`, a ply), in
/// numbered pairs, "…" before them when there are earlier ones ("… 21. f5 d6 22. c3"; a
/// White move opening the strip is numbered "21. …"; a pass reads "pass" in `lang`). Empty
/// before the first move.
pub fn strip_text(
    moves: &[montello_engine::Move],
    shown: usize,
    plies: usize,
    lang: Lang,
) -> String {
    let end = shown.min(moves.len());
    let start = end.saturating_sub(plies);
    let mut out = String::new();
    if start > 0 {
        out.push('…');
    }
    for (i, mv) in moves[start..end].iter().enumerate() {
        let ply = start + i;
        let pair = ply / 2 + 1;
        if !out.is_empty() {
            out.push(' ');
        }
        if ply.is_multiple_of(2) {
            out.push_str(&format!("{pair}. "));
        } else if i == 0 {
            out.push_str(&format!("{pair}. … "));
        }
        out.push_str(&lang.move_name(*mv));
    }
    out
}

/// Where the game is, after the strip's moves: "Move 23 · 37 empty" (`ply` moves played, the
/// empty squares of `position`); before the first move only the empty squares.
pub fn progress_text(ply: usize, position: montello_engine::Position, lang: Lang) -> String {
    let score = position.score();
    let empty = 64 - u32::from(score.black) - u32::from(score.white);
    if ply == 0 {
        lang.f("hud.empty", &[("empty", &empty)])
    } else {
        lang.f("hud.move_empty", &[("n", &ply), ("empty", &empty)])
    }
}
