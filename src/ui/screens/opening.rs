//! The opening's name in the player's words (#71): the move strip names it while the game
//! follows a named line, the move list says where the game left it
//! (`montello_engine::named_openings`).

use crate::prefs::choices::Lang;

/// The named opening the first `ply` moves of `game` follow (`montello_engine::named_openings`,
/// matched under the board's symmetries): its name, and the move where the game left the
/// table once it has. `None` before a named position, or from a start the table lacks.
pub fn opening_at(
    game: &montello_engine::Game,
    ply: usize,
) -> Option<(&'static str, Option<usize>)> {
    let positions = game.positions();
    let at = montello_engine::named_openings::OpeningNames::shipped()
        .of_positions(&positions[..=ply.min(positions.len() - 1)])?;
    Some((at.line.name.as_str(), at.left_at))
}

/// The move list's line for the opening of the game's first `ply` moves: "Opening: Tiger",
/// and once the game left the table "Opening: Tiger, left at move 9".
pub fn opening_line(game: &montello_engine::Game, ply: usize, lang: Lang) -> Option<String> {
    let (name, left) = opening_at(game, ply)?;
    Some(match left {
        None => lang.f("opening.named", &[("name", &name)]),
        Some(n) => lang.f("opening.left", &[("name", &name), ("n", &n)]),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_strip_names_the_opening_and_the_list_says_where_the_game_left_it() {
        let game = |moves: &str| {
            montello_engine::notation::transcript::parse(moves, montello_engine::Variant::default())
                .expect("legal")
        };
        // The Tiger, from f5 and through its mirror image from c4.
        for moves in ["f5d6c3d3c4", "c4e3f6e6f5"] {
            let g = game(moves);
            assert_eq!(opening_at(&g, 5), Some(("Tiger", None)), "{moves}");
            assert_eq!(
                opening_line(&g, 5, Lang::En).as_deref(),
                Some("Opening: Tiger")
            );
            // Shown at an earlier move: the opening as it stood then.
            assert_eq!(opening_at(&g, 2), Some(("Perpendicular Opening", None)));
        }
        // The Rose-Bill, then a move no named line plays there (Tamenori goes on with e6, the
        // Central Rose-Bill with b4): the name stays, with the move that left it.
        let mut g = game("f5d6c3d3c4f4c5b3c2");
        assert_eq!(opening_at(&g, 9), Some(("Rose-Bill", None)));
        let off = g
            .moves()
            .into_iter()
            .find(|m| !["e6", "b4"].contains(&m.to_string().as_str()))
            .expect("another move");
        g.play(off).expect("legal");
        assert_eq!(opening_at(&g, 10), Some(("Rose-Bill", Some(10))));
        assert_eq!(
            opening_line(&g, 10, Lang::En).as_deref(),
            Some("Opening: Rose-Bill, left at move 10")
        );
        assert_eq!(
            opening_line(&g, 10, Lang::Ja).as_deref(),
            Some("定石：Rose-Bill・10手目で新手")
        );
        // No move yet, or the first alone: no name.
        assert_eq!(opening_at(&game(""), 0), None);
        assert_eq!(opening_at(&game("f5"), 1), None);
    }
}
