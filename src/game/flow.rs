//! The one authoritative [`Game`] and everything that changes it: taps become
//! [`MoveRequested`], the engine decides, [`MovePlayed`] tells the view. Undo, redo, new
//! game, import and review arrive as [`GameCommand`]s. No rule is decided here: the engine
//! says what is legal, whose turn it is and when the game is over.

use crate::AppSystems;
use crate::game::player::Player;
use crate::game::players::Players;
use crate::prefs::choices::Lang;
use crate::prefs::i18n::Said;
use crate::prefs::settings::{Settings, TableMode};
use bevy::prelude::*;
use montello_engine::{
    Game, IllegalMove, IllegalReason, Move, Position, Side, Square, Variant, notation,
};

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<CurrentGame>()
        .init_resource::<Players>()
        .init_resource::<ViewBusy>()
        .init_resource::<CountLag>()
        .init_resource::<Notice>()
        .init_resource::<PassNotice>()
        .init_resource::<TableMode>()
        .init_resource::<Trying>()
        .add_message::<SquareTapped>()
        .add_message::<MoveRequested>()
        .add_message::<MovePlayed>()
        .add_message::<BoardReset>()
        .add_message::<TapRefused>()
        .add_message::<GameCommand>()
        .add_systems(
            Update,
            (
                handle_taps.in_set(AppSystems::Input),
                (
                    handle_commands,
                    apply_moves,
                    auto_pass,
                    follow_table_mode,
                    age_notice,
                )
                    .chain()
                    .in_set(AppSystems::Logic),
            ),
        );
}

/// Everything a new game needs.
#[derive(Clone, PartialEq, Debug)]
pub struct GameSetup {
    /// Who plays each side.
    pub players: Players,
    /// The rules.
    pub variant: Variant,
}

/// The game on the board. Its invariants live behind its methods: every change to the game
/// or to the ply under review bumps [`CurrentGame::generation`] (so an AI result for an older
/// generation is stale), playing or going back ends a review, and a review shows a ply before
/// the game's last.
#[derive(Resource, Debug, Default)]
pub struct CurrentGame {
    game: Game,
    generation: u64,
    review: Option<usize>,
    line: Option<ShownLine>,
}

/// A line of moves shown on the board from a reviewed position (the best line from the
/// position before the move under review): the game itself is untouched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShownLine {
    /// The ply of the position the line starts from.
    pub from: usize,
    /// The line's moves, each legal in turn.
    pub moves: Vec<Move>,
    /// How many of them the board shows played (at least one).
    pub shown: usize,
}

impl CurrentGame {
    /// `game`, not under review, at generation 0.
    pub fn new(game: Game) -> CurrentGame {
        CurrentGame {
            game,
            ..CurrentGame::default()
        }
    }

    /// The authoritative game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Bumped on every change to the game or to the ply under review.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// While stepping back through the game: the ply shown (the game itself is untouched).
    pub fn review(&self) -> Option<usize> {
        self.review
    }

    /// Whether Undo would change anything for these players (it goes back to a human's turn,
    /// or to the start when the AI moved first).
    pub fn can_undo(&self, players: &Players) -> bool {
        CurrentGame::new(self.game.clone()).undo_to_human(players)
    }

    /// Whether Redo would change anything.
    pub fn can_redo(&self) -> bool {
        self.game.can_redo()
    }

    /// The ply the board shows.
    pub fn shown_ply(&self) -> usize {
        self.review.unwrap_or(self.game.ply())
    }

    /// The position the board shows: the game's at the ply shown, or a line's.
    pub fn shown_position(&self) -> Position {
        if let Some(line) = &self.line {
            let variant = self.game.variant();
            return line.moves[..line.shown]
                .iter()
                .fold(self.game.positions()[line.from], |at, mv| {
                    variant.play_unchecked(&at, *mv)
                });
        }
        self.game.positions()[self.shown_ply().min(self.game.ply())]
    }

    /// The move that led to the shown position.
    pub fn shown_last_move(&self) -> Option<Move> {
        if let Some(line) = &self.line {
            return Some(line.moves[line.shown - 1]);
        }
        let ply = self.shown_ply();
        (ply > 0).then(|| self.game.history()[ply - 1])
    }

    /// The line the board shows instead of the reviewed position, if any.
    pub fn line(&self) -> Option<&ShownLine> {
        self.line.as_ref()
    }

    /// Shows the first `shown` moves of `moves` played from the position at ply `from`, while
    /// a move is under review (`None`, or nothing to show: back to the reviewed position).
    /// Refused (`false`, nothing changes) outside a review, or for a line whose moves are not
    /// legal in turn. Returns whether anything changed.
    pub fn show_line(&mut self, line: Option<ShownLine>) -> bool {
        let line = line.filter(|l| l.shown > 0 && l.shown <= l.moves.len());
        if let Some(l) = &line {
            let variant = self.game.variant();
            let Some(&start) = self.game.positions().get(l.from) else {
                return false;
            };
            let legal = l
                .moves
                .iter()
                .try_fold(start, |at, mv| variant.try_play(&at, *mv).ok());
            if self.review.is_none() || l.from >= self.game.ply() || legal.is_none() {
                return false;
            }
        }
        if line == self.line {
            return false;
        }
        self.line = line;
        self.generation += 1;
        true
    }

    /// A new game (a new game, an import, a restored save).
    pub fn replace(&mut self, game: Game) {
        self.game = game;
        self.changed();
    }

    /// Plays `mv` under the game's rules, ending any review.
    ///
    /// # Errors
    /// The game's refusal when the move is illegal; nothing changes then.
    pub fn play(&mut self, mv: Move) -> Result<Position, IllegalMove> {
        let after = self.game.play(mv)?;
        self.changed();
        Ok(after)
    }

    /// Undoes one move, then keeps undoing while the AI is to move, so that a human playing
    /// the AI is back on their own turn. Returns whether anything changed.
    pub fn undo_to_human(&mut self, players: &Players) -> bool {
        let any_human = players.black == Player::Human || players.white == Player::Human;
        let start = self.game.ply();
        self.game.undo();
        while any_human && self.game.can_undo() && self.ai_or_pass_to_play(players) {
            self.game.undo();
        }
        // Nothing to land on for the human (the AI moved first): stay at the start.
        let changed = self.game.ply() != start;
        if changed {
            self.changed();
        }
        changed
    }

    /// Redoes one move, then keeps redoing while the AI is to move and a move is known.
    /// Returns whether anything changed.
    pub fn redo_to_human(&mut self, players: &Players) -> bool {
        let any_human = players.black == Player::Human || players.white == Player::Human;
        if self.game.redo().is_none() {
            return false;
        }
        while any_human && self.game.can_redo() && self.ai_or_pass_to_play(players) {
            self.game.redo();
        }
        self.changed();
        true
    }

    /// Shows `ply` (a ply before the last; `None`: the game as it stands). Returns whether
    /// anything changed; reviewing pauses the AI, as the new generation cancels its search.
    pub fn set_review(&mut self, ply: Option<usize>) -> bool {
        let ply = ply.filter(|&p| p < self.game.ply());
        if ply == self.review && self.line.is_none() {
            return false;
        }
        self.review = ply;
        self.line = None;
        self.generation += 1;
        true
    }

    /// Whether the side to move is the AI, or a human who can only pass.
    fn ai_or_pass_to_play(&self, players: &Players) -> bool {
        !players.is_human(self.game.side_to_move()) || self.game.must_pass()
    }

    fn changed(&mut self) {
        self.review = None;
        self.line = None;
        self.generation += 1;
    }
}

/// Set by the board view while discs are animating: taps then only skip the animation and the
/// AI's move waits for the board to settle. Always false without a view.
#[derive(Resource, Debug, Default)]
pub struct ViewBusy(pub bool);

/// How far the board's animation is behind the game's disc counts, by side: what to add to
/// the game's count of each side for the discs drawn so far (the placed disc before it lands,
/// each turned disc before it is half over), so that the HUD's counts tick with the discs.
/// Zero when nothing is moving, and always without a view.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CountLag {
    /// Add to Black's count.
    pub black: i32,
    /// Add to White's count.
    pub white: i32,
}

impl CountLag {
    /// The lag to add to `side`'s count.
    pub fn of(self, side: Side) -> i32 {
        match side {
            Side::Black => self.black,
            Side::White => self.white,
        }
    }

    fn add(&mut self, side: Side, n: i32) {
        match side {
            Side::Black => self.black += n,
            Side::White => self.white += n,
        }
    }

    /// The lag of discs in flight, each as (whether it is the placed disc's drop, the side it
    /// shows once done, how far it is from 0 to 1): a disc not yet landed is not counted yet;
    /// a disc turning over counts for its old side until it is half over.
    pub fn of_discs(discs: impl IntoIterator<Item = (bool, Side, f32)>) -> CountLag {
        let mut lag = CountLag::default();
        for (drop, side, t) in discs {
            if drop && t < 1.0 {
                lag.add(side, -1);
            } else if !drop && t < 0.5 {
                lag.add(side, -1);
                lag.add(side.opposite(), 1);
            }
        }
        lag
    }
}

/// A short message for the player (an import error, "Copied"), kept untranslated so the HUD
/// shows it in the language of the moment. It fades out after [`NOTICE_SECONDS`]
/// ([`ERROR_NOTICE_SECONDS`] for an error): what it said stays in the move list and the
/// status line.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct Notice {
    said: Option<Said>,
    /// Whether it reports something that went wrong.
    pub is_error: bool,
    /// Seconds it has been shown.
    age: f32,
}

/// How long a notice shows, fading out over its last [`NOTICE_FADE`] seconds.
pub const NOTICE_SECONDS: f32 = 5.0;
/// How long a notice that reports an error shows: long enough to read where and why.
pub const ERROR_NOTICE_SECONDS: f32 = 10.0;
/// See [`NOTICE_SECONDS`].
pub const NOTICE_FADE: f32 = 0.8;

impl Notice {
    /// Shows `said` as information.
    pub fn info(&mut self, said: Said) {
        self.said = Some(said);
        self.is_error = false;
        self.age = 0.0;
    }

    /// Shows `said` as an error.
    pub fn error(&mut self, said: Said) {
        self.said = Some(said);
        self.is_error = true;
        self.age = 0.0;
    }

    /// Takes the notice away.
    pub fn clear(&mut self) {
        self.said = None;
        self.is_error = false;
        self.age = 0.0;
    }

    /// How long this notice shows in all.
    fn lifetime(&self) -> f32 {
        if self.is_error {
            ERROR_NOTICE_SECONDS
        } else {
            NOTICE_SECONDS
        }
    }

    /// Whether it has been shown its whole time (`age_notice` then takes it away).
    fn is_over(&self) -> bool {
        self.age >= self.lifetime()
    }

    /// How opaque it is drawn: 1 until its last [`NOTICE_FADE`] seconds, then down to 0.
    pub fn opacity(&self) -> f32 {
        ((self.lifetime() - self.age) / NOTICE_FADE).clamp(0.0, 1.0)
    }

    /// Whether there is nothing to show.
    pub fn is_empty(&self) -> bool {
        self.said.is_none()
    }

    /// The text in `lang` (empty for none).
    pub fn text(&self, lang: Lang) -> String {
        self.said
            .as_ref()
            .map_or_else(String::new, |s| s.in_lang(lang))
    }
}

/// Ages the notice (without counting as a change of it, so the HUD is not rebuilt every
/// frame) and takes it away when its time is up.
fn age_notice(time: Res<Time>, mut notice: ResMut<Notice>) {
    if notice.is_empty() {
        return;
    }
    notice.bypass_change_detection().age += time.delta_secs();
    if notice.is_over() {
        notice.clear();
    }
}

/// The pending automatic pass (an AI's, or a human's with [`Settings::auto_pass`]): the
/// notice shows for a moment first.
#[derive(Resource, Debug, Default)]
pub struct PassNotice {
    /// The generation it is for and the seconds left.
    pub pending: Option<(u64, f32)>,
}

/// A tap (or click) on a square of the board: what the picking observer sends.
#[derive(Message, Clone, Copy, Debug)]
pub struct SquareTapped(pub Square);

/// Who asked for a move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveSource {
    /// A player's tap or the Pass button.
    Human,
    /// The AI, for the game generation it searched.
    Ai {
        /// The [`CurrentGame::generation`] the search started from.
        generation: u64,
    },
}

/// A request to play a move, checked by the engine before anything changes.
#[derive(Message, Clone, Copy, Debug)]
pub struct MoveRequested {
    /// The move.
    pub mv: Move,
    /// Who asked.
    pub source: MoveSource,
}

/// A move was played: the view animates from `before` to `after`.
#[derive(Message, Clone, Copy, Debug)]
pub struct MovePlayed {
    /// The move.
    pub mv: Move,
    /// The side that made it.
    pub side: Side,
    /// The position before it.
    pub before: Position,
    /// The position after it.
    pub after: Position,
}

impl MovePlayed {
    /// The discs the move turned over (as the engine counts them; none for a pass).
    pub fn flipped(&self) -> u64 {
        match self.mv {
            Move::Play(square) => self.before.flips(square).0,
            Move::Pass => 0,
        }
    }
}

/// The board changed other than by a move (new game, undo, redo, import, review): the view
/// shows the new position at once.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct BoardReset;

/// The board is set up for tries: at a better move than a mistake (`game::practice`), or at
/// a puzzle's move (`game::puzzle`, judged before it is played). A tap there is a try, not a
/// move, and the practice or the puzzle takes it.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Trying(pub bool);

/// Why a tap changed nothing.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Refusal {
    /// The engine refused the move.
    Illegal(IllegalReason),
    /// It is the AI's turn.
    NotYourTurn,
    /// An animation was running: the tap skipped it instead.
    Animating,
    /// The board shows an earlier position of the game.
    Reviewing,
}

/// A tap that changed nothing, for the view's feedback.
#[derive(Message, Clone, Copy, Debug)]
pub struct TapRefused {
    /// The square tapped.
    pub square: Square,
    /// Why nothing happened.
    pub why: Refusal,
}

/// Everything a player can do besides tapping a square.
#[derive(Message, Clone, Debug)]
pub enum GameCommand {
    /// Start a new game.
    NewGame(GameSetup),
    /// Start again with the same players and rules.
    PlayAgain,
    /// Take back moves (against the AI: back to the human's last turn).
    Undo,
    /// Replay undone moves.
    Redo,
    /// The human to move passes (only when the engine says a pass is required).
    Pass,
    /// Show the position after this many moves without changing the game (`None`: back to
    /// the game).
    Review(Option<usize>),
    /// Under review, show a line played from a reviewed position (`None`: back to the
    /// reviewed position).
    ShowLine(Option<ShownLine>),
    /// Start a game from a transcript, GGF record or board string.
    Import(String),
}

fn handle_taps(
    mut taps: MessageReader<SquareTapped>,
    current: Res<CurrentGame>,
    players: Res<Players>,
    busy: Res<ViewBusy>,
    trying: Res<Trying>,
    mut requests: MessageWriter<MoveRequested>,
    mut refused: MessageWriter<TapRefused>,
) {
    for &SquareTapped(square) in taps.read() {
        let refuse = |why| TapRefused { square, why };
        if busy.0 {
            refused.write(refuse(Refusal::Animating));
            continue;
        }
        if trying.0 {
            // A try, not a move: the practice's (a better move than a mistake) or the
            // puzzle's (judged before it is played).
            continue;
        }
        if current.review().is_some() {
            refused.write(refuse(Refusal::Reviewing));
            continue;
        }
        let game = current.game();
        if !players.is_human(game.side_to_move()) && !game.is_over() {
            refused.write(refuse(Refusal::NotYourTurn));
            continue;
        }
        let variant = game.variant();
        match variant.try_play(&game.position(), Move::Play(square)) {
            Ok(_) => {
                requests.write(MoveRequested {
                    mv: Move::Play(square),
                    source: MoveSource::Human,
                });
            }
            Err(e) => {
                refused.write(refuse(Refusal::Illegal(e.reason)));
            }
        }
    }
}

fn apply_moves(
    mut requests: MessageReader<MoveRequested>,
    mut current: ResMut<CurrentGame>,
    players: Res<Players>,
    mut played: MessageWriter<MovePlayed>,
    mut notice: ResMut<Notice>,
) {
    for request in requests.read() {
        let side = current.game().side_to_move();
        let allowed = match request.source {
            MoveSource::Human => players.is_human(side) && current.review().is_none(),
            MoveSource::Ai { generation } => generation == current.generation(),
        };
        if !allowed {
            continue;
        }
        let before = current.game().position();
        match current.play(request.mv) {
            Ok(after) => {
                notice.clear();
                played.write(MovePlayed {
                    mv: request.mv,
                    side,
                    before,
                    after,
                });
            }
            Err(e) => warn!("refused {:?}: {e}", request),
        }
    }
}

/// Table mode is on while the setting asks for it and both sides are human.
fn follow_table_mode(settings: Res<Settings>, players: Res<Players>, mut table: ResMut<TableMode>) {
    let on = settings.table_mode && players.is_human(Side::Black) && players.is_human(Side::White);
    if table.0 != on {
        table.0 = on;
    }
}

/// When a side must pass, the notice shows for a moment and then the pass is played: an AI's
/// after [`Settings::pass_notice`], a human's after [`Settings::human_pass_notice`] unless
/// [`Settings::auto_pass`] is off (the HUD's Pass button passes at once either way). The pause
/// is a countdown over frames: nothing waits on it.
fn auto_pass(
    time: Res<Time>,
    current: Res<CurrentGame>,
    players: Res<Players>,
    settings: Res<Settings>,
    busy: Res<ViewBusy>,
    mut pending: ResMut<PassNotice>,
    mut requests: MessageWriter<MoveRequested>,
) {
    let game = current.game();
    let human = players.is_human(game.side_to_move());
    if current.review().is_some() || !game.must_pass() || (human && !settings.auto_pass) {
        pending.pending = None;
        return;
    }
    let generation = current.generation();
    let notice = if human {
        settings.human_pass_notice
    } else {
        settings.pass_notice
    };
    let left = match pending.pending {
        Some((g, left)) if g == generation => left - time.delta_secs(),
        _ => notice.as_secs_f32(),
    };
    if left <= 0.0 && !busy.0 {
        pending.pending = None;
        requests.write(MoveRequested {
            mv: Move::Pass,
            source: if human {
                MoveSource::Human
            } else {
                MoveSource::Ai { generation }
            },
        });
    } else {
        pending.pending = Some((generation, left));
    }
}

fn handle_commands(
    mut commands: MessageReader<GameCommand>,
    mut current: ResMut<CurrentGame>,
    mut players: ResMut<Players>,
    mut notice: ResMut<Notice>,
    mut reset: MessageWriter<BoardReset>,
    mut requests: MessageWriter<MoveRequested>,
) {
    for command in commands.read() {
        match command {
            GameCommand::NewGame(setup) => {
                *players = setup.players;
                current.replace(Game::new(setup.variant));
                notice.clear();
            }
            GameCommand::PlayAgain => {
                let variant = current.game().variant();
                current.replace(Game::new(variant));
                notice.clear();
            }
            GameCommand::Undo => {
                if current.undo_to_human(&players) {
                    notice.clear();
                } else {
                    continue;
                }
            }
            GameCommand::Redo => {
                if current.redo_to_human(&players) {
                    notice.clear();
                } else {
                    continue;
                }
            }
            GameCommand::Pass => {
                let game = current.game();
                if game.must_pass() && players.is_human(game.side_to_move()) {
                    requests.write(MoveRequested {
                        mv: Move::Pass,
                        source: MoveSource::Human,
                    });
                }
                continue;
            }
            GameCommand::Review(ply) => {
                if !current.set_review(*ply) {
                    continue;
                }
            }
            GameCommand::ShowLine(line) => {
                if !current.show_line(line.clone()) {
                    continue;
                }
            }
            GameCommand::Import(text) => {
                let variant = current.game().variant();
                match notation::parse_any(text, variant) {
                    Ok(game) => {
                        let said = Said::new("notice.loaded").arg("n", game.ply());
                        current.replace(game);
                        notice.info(said);
                    }
                    Err(e) => {
                        notice.error(Said::new("notice.bad_import").arg("error", e));
                        continue;
                    }
                }
            }
        }
        reset.write(BoardReset);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::player::AiLevel;

    #[test]
    fn the_counts_lag_the_discs_until_they_land_and_turn_half_over() {
        // Black places a disc that turns two: before anything moves, Black's count is three
        // short and White's two over (the game already counts the move).
        let start = [
            (true, Side::Black, 0.0),
            (false, Side::Black, 0.0),
            (false, Side::Black, 0.0),
        ];
        assert_eq!(
            CountLag::of_discs(start),
            CountLag {
                black: -3,
                white: 2
            }
        );
        // Landed, one disc past half way, one not yet.
        let middle = [
            (true, Side::Black, 1.0),
            (false, Side::Black, 0.6),
            (false, Side::Black, 0.3),
        ];
        assert_eq!(
            CountLag::of_discs(middle),
            CountLag {
                black: -1,
                white: 1
            }
        );
        assert_eq!(CountLag::of_discs(middle).of(Side::White), 1);
        // All done: the game's counts.
        let done = [(true, Side::Black, 1.0), (false, Side::Black, 1.0)];
        assert_eq!(CountLag::of_discs(done), CountLag::default());
        // White's move lags the other way.
        assert_eq!(
            CountLag::of_discs([(false, Side::White, 0.1)]),
            CountLag {
                black: 1,
                white: -1
            }
        );
    }

    /// A line is shown only under review and only if its moves are legal in turn; the board
    /// then shows its position and its last move, the game untouched; stepping the review or
    /// playing takes it away.
    #[test]
    fn a_line_is_shown_from_a_reviewed_position_and_goes_with_the_review() {
        let mut current = CurrentGame::default();
        for mv in ["f5", "d6", "c3", "d3"] {
            current.play(mv.parse().expect("move")).expect("legal");
        }
        let moves = |text: &str| -> Vec<Move> {
            text.split(' ').map(|m| m.parse().expect("move")).collect()
        };
        // From the position after f5 d6 (ply 2): c5 f4 instead of c3 d3.
        let line = |shown| ShownLine {
            from: 2,
            moves: moves("c5 f4"),
            shown,
        };
        assert!(!current.show_line(Some(line(1))), "not under review");
        assert!(current.set_review(Some(3)));
        let generation = current.generation();
        assert!(!current.show_line(Some(ShownLine {
            from: 2,
            moves: moves("c5 a1"),
            shown: 1,
        })));
        assert!(!current.show_line(Some(line(3))), "more than the line");
        assert!(current.show_line(Some(line(2))));
        assert!(current.generation() > generation);
        let mut expected = current.game().positions()[2];
        for mv in moves("c5 f4") {
            expected = Variant::Othello.try_play(&expected, mv).expect("legal");
        }
        assert_eq!(current.shown_position(), expected);
        assert_eq!(current.shown_last_move(), Some("f4".parse().expect("move")));
        assert_eq!((current.shown_ply(), current.game().ply()), (3, 4));
        assert!(
            !current.show_line(Some(line(2))),
            "the same line is no change"
        );
        assert!(current.show_line(Some(line(1))));
        // Back to the reviewed position, then away with a step of the review.
        assert!(current.show_line(None));
        assert_eq!(current.shown_position(), current.game().positions()[3]);
        assert!(current.show_line(Some(line(1))));
        assert!(
            current.set_review(Some(3)),
            "the same ply again drops the line"
        );
        assert!(current.line().is_none());
        assert!(current.show_line(Some(line(1))));
        current.play("c5".parse().expect("move")).expect("legal");
        assert!(current.line().is_none() && current.review().is_none());
    }

    #[test]
    fn every_change_to_the_game_or_the_review_is_a_new_generation() {
        let humans = Players {
            black: Player::Human,
            white: Player::Human,
        };
        let mut current = CurrentGame::default();
        let mut last = current.generation();
        let mut bumped = |current: &CurrentGame| {
            let new = current.generation() > last;
            last = current.generation();
            new
        };
        for mv in ["f5", "d6", "c3"] {
            current.play(mv.parse().expect("move")).expect("legal");
            assert!(bumped(&current));
        }
        let illegal = current.play("a1".parse().expect("move"));
        assert!(illegal.is_err() && !bumped(&current) && current.game().ply() == 3);
        assert!(current.set_review(Some(1)) && bumped(&current));
        assert_eq!(current.shown_ply(), 1);
        assert!(!current.set_review(Some(1)), "the same ply is no change");
        assert!(current.set_review(Some(3)) && bumped(&current));
        assert_eq!(
            current.review(),
            None,
            "the last ply is the game, not a review"
        );
        assert!(current.set_review(Some(1)) && bumped(&current));
        // Playing ends the review; so do undo, redo and a new game.
        current.play("d3".parse().expect("move")).expect("legal");
        assert!(bumped(&current) && current.review().is_none());
        current.set_review(Some(0));
        assert!(current.undo_to_human(&humans) && bumped(&current));
        assert!(current.review().is_none() && current.game().ply() == 3);
        current.set_review(Some(0));
        assert!(current.redo_to_human(&humans) && bumped(&current));
        assert!(current.review().is_none() && current.game().ply() == 4);
        assert!(!current.redo_to_human(&humans) && !bumped(&current));
        current.set_review(Some(2));
        current.replace(Game::default());
        assert!(bumped(&current) && current.review().is_none());
    }

    #[test]
    fn undo_against_the_ai_goes_back_to_the_humans_turn() {
        let vs_ai = Players {
            black: Player::Human,
            white: Player::Ai(AiLevel::default()),
        };
        let mut current = CurrentGame::default();
        for mv in ["f5", "d6", "c3", "d3"] {
            current.play(mv.parse().expect("move")).expect("legal");
        }
        assert!(current.undo_to_human(&vs_ai));
        assert_eq!(
            current.game().ply(),
            2,
            "past the AI's d3 and the human's c3"
        );
        assert!(current.redo_to_human(&vs_ai));
        assert_eq!(current.game().ply(), 4, "the human's c3 and the AI's d3");
        let ai_first = Players {
            black: Player::Ai(AiLevel::default()),
            white: Player::Human,
        };
        let mut current = CurrentGame::default();
        assert!(!current.can_undo(&ai_first), "nothing to undo at the start");
        current.play("f5".parse().expect("move")).expect("legal");
        assert!(current.undo_to_human(&ai_first));
        assert_eq!(
            current.game().ply(),
            0,
            "no human turn before the AI's first move"
        );
    }

    #[test]
    fn a_notice_fades_out_after_a_few_seconds_an_error_later() {
        let mut notice = Notice::default();
        assert_eq!(notice.opacity(), 1.0, "nothing to fade");
        notice.info(Said::new("notice.loaded"));
        assert_eq!(notice.opacity(), 1.0);
        notice.age = NOTICE_SECONDS - NOTICE_FADE - 0.01;
        assert_eq!(notice.opacity(), 1.0, "fully shown until its fade");
        notice.age = NOTICE_SECONDS - NOTICE_FADE / 2.0;
        assert!((notice.opacity() - 0.5).abs() < 1e-4, "half way out");
        assert!(!notice.is_over());
        notice.age = NOTICE_SECONDS;
        assert!(notice.is_over());
        // An error shows longer; a new notice starts again.
        notice.error(Said::new("notice.loaded"));
        notice.age = NOTICE_SECONDS;
        assert!(!notice.is_over() && notice.opacity() == 1.0);
        notice.age = ERROR_NOTICE_SECONDS;
        assert!(notice.is_over());
        notice.info(Said::new("notice.loaded"));
        assert!(!notice.is_over());
    }

    #[test]
    fn the_notice_is_taken_away_when_its_time_is_up() {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins)
            .init_resource::<Notice>()
            .add_systems(Update, age_notice);
        app.world_mut()
            .resource_mut::<Notice>()
            .info(Said::new("notice.loaded"));
        app.update();
        assert!(!app.world().resource::<Notice>().is_empty());
        // Time moves on by more than its life (an app asleep in the background).
        app.world_mut()
            .resource_mut::<Notice>()
            .bypass_change_detection()
            .age = NOTICE_SECONDS;
        app.update();
        assert!(app.world().resource::<Notice>().is_empty());
    }
}
