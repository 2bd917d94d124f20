//! The HUD's words and numbers (counts, names, whose turn it is, notices, the AI's
//! statistics) and the thinking bar, written from the game.

use super::*;

/// Whose turn it is, the result, or the review's place; before a first game's first move,
/// how to play (`new_player`: no game against the AI finished yet).
pub(super) fn status_text(
    current: &CurrentGame,
    players: &Players,
    ai: &AiState,
    new_player: bool,
    lang: Lang,
) -> String {
    let game = current.game();
    if let Some(ply) = current.review() {
        return lang.f("hud.review", &[("ply", &ply), ("total", &game.ply())]);
    }
    if let Some(result) = game.result() {
        return match result.winner() {
            Some(side) => lang.f(
                "hud.wins",
                &[
                    ("side", &lang.side(side)),
                    ("score", &result.discs),
                    ("margin", &result.margin()),
                ],
            ),
            None => lang.f("hud.draw", &[("score", &result.discs)]),
        };
    }
    let side = game.side_to_move();
    if let Some((s, Purpose::Move, _)) = ai.thinking() {
        return lang.f("hud.thinking", &[("side", &lang.side(s))]);
    }
    let key = if new_player
        && game.ply() == 0
        && players.human_against_ai().is_some()
        && players.is_human(side)
    {
        // Against the AI the person to move first is Black.
        "hud.first_move"
    } else if game.must_pass() {
        "hud.must_pass"
    } else if players.is_human(side) && !players.is_human(side.opposite()) {
        "hud.your_move"
    } else {
        "hud.to_move"
    };
    lang.f(key, &[("side", &lang.side(side))])
}

/// The AI statistics line (the menu's "AI stats"): the running search's so far, else the
/// last search's while its position is on the board (the AI's move just played, or the hint
/// for this position).
pub fn stats_text(
    current: &CurrentGame,
    players: &Players,
    ai: &AiState,
    stats: &AiStats,
    margin: &crate::game::margin::MarginEstimate,
    lang: Lang,
) -> String {
    let viewer = players.viewer();
    // The margin the engine expects for the position on board, in the app's one unit; the
    // search's chance follows it.
    let discs = margin.figure(current).map(|e| e.margin_for(viewer));
    if let Some(live) = ai.live_stats() {
        return live.line_in_discs(lang, viewer, discs);
    }
    let ply = current.game().ply();
    match &stats.last {
        Some(s)
            if current.review().is_none()
                && match s.purpose {
                    Purpose::Move => s.ply + 1 == ply,
                    Purpose::Hint => s.ply == ply,
                } =>
        {
            s.line_in_discs(lang, viewer, discs)
        }
        _ => String::new(),
    }
}

/// Whether a search runs: its progress and the statistics line move every frame.
pub(super) fn thinking(ai: Res<AiState>) -> bool {
    ai.thinking().is_some()
}

/// What the HUD's texts are written from.
#[derive(SystemParam)]
pub(super) struct TextSources<'w> {
    current: Res<'w, CurrentGame>,
    players: Res<'w, Players>,
    ai: Res<'w, AiState>,
    stats: Res<'w, AiStats>,
    notice: Res<'w, Notice>,
    settings: Res<'w, Settings>,
    language: Res<'w, Language>,
    palette: Res<'w, Palette>,
    lag: Res<'w, CountLag>,
    busy: Res<'w, ViewBusy>,
    tall: Res<'w, TallLayout>,
    record: Res<'w, crate::persist::save::StatsFile>,
    margin: Res<'w, crate::game::margin::MarginEstimate>,
}

/// Whether a HUD text may read differently now.
pub(super) fn texts_stale(from: TextSources) -> bool {
    from.current.is_changed()
        || from.margin.is_changed()
        || from.players.is_changed()
        || from.ai.is_changed()
        || from.stats.is_changed()
        || from.notice.is_changed()
        || from.settings.is_changed()
        || from.language.is_changed()
        || from.palette.is_changed()
        || from.lag.is_changed()
        || from.busy.is_changed()
        || from.tall.is_changed()
        || from.record.is_changed()
}

/// Whether the thinking bar may have moved.
pub(super) fn bars_stale(ai: Res<AiState>, table: Res<TableMode>) -> bool {
    ai.is_changed() || table.is_changed()
}

/// The HUD's words and numbers: disc counts, names, who plays, the status, the lead and the
/// notice (or the statistics line in its place).
pub(super) fn update_texts(
    from: TextSources,
    mut texts: Query<(&HudText, &Seat, &mut Text, &mut TextColor)>,
) {
    let TextSources {
        current,
        players,
        ai,
        stats,
        notice,
        settings,
        language,
        palette,
        lag,
        busy,
        tall,
        record,
        margin,
    } = from;
    let score = current.shown_position().score();
    // The counts tick with the discs: the board's animation may not have drawn them all yet.
    let count = |side: Side, n: u8| (i32::from(n) + lag.of(side)).max(0).to_string();
    for (which, seat, mut text, mut color) in &mut texts {
        let value = match which {
            HudText::Count(Side::Black) => count(Side::Black, score.black),
            HudText::Count(Side::White) => count(Side::White, score.white),
            HudText::Name(side) => language.0.side(*side).to_string(),
            HudText::Who(side) => who_plays(&players, &settings.names, *side, language.0),
            // The status changes when the board's discs have landed (a move's result, whose
            // turn it is next), in step with what the player sees.
            HudText::Status if busy.0 && !text.0.is_empty() => continue,
            HudText::Status => {
                let new_player = record.0.levels.values().all(|r| r.games == 0);
                status_text(&current, &players, &ai, new_player, language.0)
            }
            HudText::Notice => {
                let colour = if notice.is_error {
                    palette.text_error
                } else {
                    palette.text_dim
                };
                if color.0 != colour {
                    color.0 = colour;
                }
                if *seat == Seat::Far {
                    // The far player sees the game, not the near player's notices.
                    String::new()
                } else if notice.is_empty() && settings.ai_stats && !tall.0 {
                    stats_text(&current, &players, &ai, &stats, &margin, language.0)
                } else {
                    notice.text(language.0)
                }
            }
            HudText::Toast => {
                let colour = if notice.is_error {
                    palette.text_error
                } else {
                    palette.text
                };
                if color.0 != colour {
                    color.0 = colour;
                }
                notice.text(language.0)
            }
            HudText::Stats if settings.ai_stats && tall.0 => {
                stats_text(&current, &players, &ai, &stats, &margin, language.0)
            }
            HudText::Stats => String::new(),
            // With the HUD's buttons beside it the strip says less, so nothing is cut: the
            // last two moves, and where the game is only while one button shows.
            HudText::Strip => strip_text(
                current.game().all_moves(),
                current.shown_ply(),
                match buttons_beside_strip(&current, &players) {
                    0 => STRIP_PLIES,
                    _ => 2,
                },
                language.0,
            ),
            HudText::Progress if buttons_beside_strip(&current, &players) >= 2 => String::new(),
            // While the game follows a named opening, its name; then where the game is.
            HudText::Progress => match opening_at(current.game(), current.shown_ply()) {
                Some((name, None)) => name.to_string(),
                _ => progress_text(current.shown_ply(), current.shown_position(), language.0),
            },
        };
        if text.0 != value {
            text.0 = value;
        }
    }
}

/// The thinking bar's progress (the win bar is [`super::super::win_bar`]'s).
pub(super) fn update_bars(
    ai: Res<AiState>,
    table: Res<TableMode>,
    mut bars: Query<&mut Node, With<ThinkingBar>>,
) {
    let progress = ai.thinking().map_or(0.0, |(_, _, p)| p);
    for mut node in &mut bars {
        node.width = percent(progress * 100.0);
        // Face to face (two people) there is no AI to follow: each HUD is the shorter for it.
        node.display = if table.0 {
            Display::None
        } else {
            Display::Flex
        };
    }
}
