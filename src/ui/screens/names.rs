//! Players' names: a tap on a human player's card edits its name in place ("Player 1" and
//! "Player 2" face to face, "You" against the AI until renamed). The phone's keyboard opens
//! (the window's IME switch, which winit maps to the soft keyboard on Android and iOS); Enter
//! or a tap anywhere else keeps the name, Escape drops the change, and an empty name goes back
//! to the default. In a browser, where a canvas cannot open a phone's keyboard, the tap asks
//! with the page's own prompt instead. Names are saved with the settings.

use super::hud::{HudText, PlayerCard, who_plays};
use crate::AppSystems;
use crate::game::players::Players;
use crate::platform::{self, LineEntry};
use crate::prefs::i18n::Language;
use crate::prefs::settings::{MAX_NAME_CHARS, Settings, clean_name, name_allowed, name_slot};
use crate::ui::theme::Palette;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::input::touch::Touches;
use bevy::prelude::*;
use bevy::window::{Ime, PrimaryWindow};
use montello_engine::Side;

/// What marks where the next character goes.
const CARET: char = '|';

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<NameEdit>()
        .add_observer(on_card_press)
        .add_observer(on_card_click)
        .add_systems(
            Update,
            (
                (type_name, end_on_tap_elsewhere)
                    .in_set(NameInput)
                    .in_set(AppSystems::Input),
                show_draft
                    .run_if(editing_or_just_done)
                    .after(super::hud::HudUpdate)
                    .in_set(AppSystems::View),
                open_keyboard
                    .run_if(resource_changed::<NameEdit>)
                    .in_set(AppSystems::View),
            ),
        );
}

/// The systems that read keys and taps into a name (the back key's handling runs before
/// them, and leaves a name being edited alone).
#[derive(SystemSet, Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(super) struct NameInput;

/// The name being edited, if any.
#[derive(Resource, Debug, Default)]
pub struct NameEdit {
    draft: Option<Draft>,
    /// A press landed on the card being edited: its click ends the edit, and the press is not
    /// a tap elsewhere.
    pressed_own_card: bool,
}

impl NameEdit {
    /// The side whose name is being edited.
    pub fn side(&self) -> Option<Side> {
        self.draft.as_ref().map(|d| d.side)
    }
}

/// A name as typed so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Draft {
    /// Whose name.
    pub side: Side,
    /// The text so far.
    pub text: String,
    /// Nothing typed yet: the first character replaces the shown name (as a text field that
    /// selects all on focus), and Backspace clears it.
    fresh: bool,
}

/// One key (or IME commit) while editing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keystroke<'a> {
    /// Text typed (one key's characters or an input method's commit).
    Text(&'a str),
    Backspace,
    Enter,
    Escape,
}

/// What a keystroke did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Typed {
    /// The draft changed or stays.
    Editing,
    /// Keep the draft (Enter).
    Done,
    /// Drop it (Escape).
    Cancelled,
}

impl Draft {
    /// Starts editing `side`'s name, now shown as `shown`. (A browser asks with its prompt
    /// instead: [`crate::platform::ask_line`].)
    pub fn new(side: Side, shown: &str) -> Draft {
        Draft {
            side,
            text: shown.to_string(),
            fresh: true,
        }
    }

    /// Applies one keystroke. Characters the UI font cannot draw, control characters and
    /// characters past [`MAX_NAME_CHARS`] are left out.
    pub fn apply(&mut self, key: Keystroke) -> Typed {
        match key {
            Keystroke::Enter => return Typed::Done,
            Keystroke::Escape => return Typed::Cancelled,
            Keystroke::Backspace => {
                if self.fresh {
                    self.text.clear();
                } else {
                    self.text.pop();
                }
            }
            Keystroke::Text(s) => {
                let mut chars = s.chars().filter(|&c| name_allowed(c)).peekable();
                if chars.peek().is_none() {
                    return Typed::Editing;
                }
                if self.fresh {
                    self.text.clear();
                }
                for c in chars {
                    if self.text.chars().count() < MAX_NAME_CHARS {
                        self.text.push(c);
                    }
                }
            }
        }
        self.fresh = false;
        Typed::Editing
    }

    /// The name to keep: [`clean_name`] of the text (empty: back to the default).
    pub fn result(&self) -> String {
        clean_name(&self.text)
    }
}

/// Keeps a finished draft's name in the settings (which saves them).
fn keep(draft: &Draft, settings: &mut Settings) {
    let name = draft.result();
    let slot = &mut settings.names[name_slot(draft.side)];
    if *slot != name {
        *slot = name;
    }
}

fn on_card_press(press: On<Pointer<Press>>, cards: Query<&PlayerCard>, mut edit: ResMut<NameEdit>) {
    if let Ok(card) = cards.get(press.entity)
        && edit.side() == Some(card.0)
    {
        edit.pressed_own_card = true;
    }
}

/// A tap on a human player's card starts editing its name, or ends the edit under way there.
fn on_card_click(
    click: On<Pointer<Click>>,
    cards: Query<&PlayerCard>,
    players: Res<Players>,
    language: Res<Language>,
    mut settings: ResMut<Settings>,
    mut edit: ResMut<NameEdit>,
) {
    let Ok(&PlayerCard(side)) = cards.get(click.entity) else {
        return;
    };
    if click.button != PointerButton::Primary || !players.is_human(side) {
        return;
    }
    if let Some(draft) = edit.draft.take() {
        edit.pressed_own_card = false;
        keep(&draft, &mut settings);
        if draft.side == side {
            return;
        }
    }
    let shown = who_plays(&players, &settings.names, side, language.0);
    match platform::ask_line(language.0.t("names.prompt"), &shown) {
        LineEntry::InApp => edit.draft = Some(Draft::new(side, &shown)),
        LineEntry::Typed(Some(typed)) => settings.names[name_slot(side)] = clean_name(&typed),
        LineEntry::Typed(None) => {}
    }
}

/// Keys and input-method text into the draft.
fn type_name(
    mut keys: MessageReader<KeyboardInput>,
    mut ime: MessageReader<Ime>,
    mut edit: ResMut<NameEdit>,
    mut settings: ResMut<Settings>,
) {
    let Some(draft) = edit.draft.as_mut() else {
        keys.clear();
        ime.clear();
        return;
    };
    let mut strokes: Vec<Keystroke> = Vec::new();
    for key in keys.read() {
        if !key.state.is_pressed() {
            continue;
        }
        match &key.logical_key {
            // Android's back key (also what hides its keyboard) keeps the name; Escape drops it.
            Key::Enter | Key::BrowserBack | Key::GoBack => strokes.push(Keystroke::Enter),
            Key::Escape => strokes.push(Keystroke::Escape),
            Key::Backspace => strokes.push(Keystroke::Backspace),
            _ => {
                if let Some(text) = &key.text {
                    strokes.push(Keystroke::Text(text.as_str()));
                }
            }
        }
    }
    for event in ime.read() {
        if let Ime::Commit { value, .. } = event {
            strokes.push(Keystroke::Text(value.as_str()));
        }
    }
    let mut outcome = Typed::Editing;
    for stroke in strokes {
        outcome = draft.apply(stroke);
        if outcome != Typed::Editing {
            break;
        }
    }
    match outcome {
        Typed::Editing => {}
        Typed::Done => {
            if let Some(draft) = edit.draft.take() {
                keep(&draft, &mut settings);
            }
        }
        Typed::Cancelled => edit.draft = None,
    }
}

/// A press anywhere but the card being edited keeps the name and ends the edit (the press then
/// does what it does: a move, a button).
fn end_on_tap_elsewhere(
    mouse: Res<ButtonInput<MouseButton>>,
    touches: Res<Touches>,
    mut edit: ResMut<NameEdit>,
    mut settings: ResMut<Settings>,
) {
    if edit.draft.is_none() {
        return;
    }
    let pressed = mouse.just_pressed(MouseButton::Left) || touches.any_just_pressed();
    if !pressed {
        return;
    }
    if edit.pressed_own_card {
        edit.pressed_own_card = false;
        return;
    }
    if let Some(draft) = edit.draft.take() {
        keep(&draft, &mut settings);
    }
}

/// While a name is edited, and the frame its edit ends.
fn editing_or_just_done(edit: Res<NameEdit>) -> bool {
    edit.draft.is_some() || edit.is_changed()
}

/// The card's second line shows the draft and a caret while editing, in the accent colour
/// (over what the HUD's update wrote this frame); the edit over, the name again.
fn show_draft(
    edit: Res<NameEdit>,
    players: Res<Players>,
    settings: Res<Settings>,
    language: Res<Language>,
    palette: Res<Palette>,
    mut texts: Query<(&HudText, &mut Text, &mut TextColor)>,
) {
    for (which, mut text, mut colour) in &mut texts {
        let HudText::Who(side) = *which else {
            continue;
        };
        let (value, tint) = match &edit.draft {
            Some(d) if d.side == side => (format!("{}{CARET}", d.text), palette.hint),
            _ => (
                who_plays(&players, &settings.names, side, language.0),
                palette.text_dim,
            ),
        };
        if text.0 != value {
            text.0 = value;
        }
        if colour.0 != tint {
            colour.0 = tint;
        }
    }
}

/// The phone's keyboard is open exactly while a name is being edited.
fn open_keyboard(edit: Res<NameEdit>, mut windows: Query<&mut Window, With<PrimaryWindow>>) {
    let Ok(mut window) = windows.single_mut() else {
        return;
    };
    let on = edit.draft.is_some();
    if window.ime_enabled != on {
        window.ime_enabled = on;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(draft: &mut Draft, keys: &[Keystroke]) -> Typed {
        let mut last = Typed::Editing;
        for &k in keys {
            last = draft.apply(k);
        }
        last
    }

    #[test]
    fn the_first_key_replaces_the_shown_name() {
        let mut d = Draft::new(Side::Black, "Player 1");
        typed(
            &mut d,
            &[
                Keystroke::Text("A"),
                Keystroke::Text("n"),
                Keystroke::Text("n"),
            ],
        );
        assert_eq!(d.text, "Ann");
        assert_eq!(typed(&mut d, &[Keystroke::Enter]), Typed::Done);
        assert_eq!(d.result(), "Ann");
    }

    #[test]
    fn backspace_clears_a_fresh_name_then_deletes_one_character() {
        let mut d = Draft::new(Side::White, "Player 2");
        typed(&mut d, &[Keystroke::Backspace]);
        assert_eq!(d.text, "");
        typed(
            &mut d,
            &[
                Keystroke::Text("Bo"),
                Keystroke::Text("b"),
                Keystroke::Backspace,
            ],
        );
        assert_eq!(d.text, "Bo");
        // Empty: back to the default.
        let mut e = Draft::new(Side::White, "Player 2");
        typed(&mut e, &[Keystroke::Backspace, Keystroke::Enter]);
        assert_eq!(e.result(), "");
    }

    #[test]
    fn escape_cancels() {
        let mut d = Draft::new(Side::Black, "You");
        assert_eq!(
            typed(&mut d, &[Keystroke::Text("x"), Keystroke::Escape]),
            Typed::Cancelled
        );
    }

    #[test]
    fn names_stay_short_and_drawable() {
        let mut d = Draft::new(Side::Black, "");
        typed(&mut d, &[Keystroke::Text("Bartholomew the Great")]);
        assert_eq!(d.text.chars().count(), MAX_NAME_CHARS);
        // Control characters and characters the UI font lacks are left out (a lone emoji
        // changes nothing, not even the fresh name).
        let mut e = Draft::new(Side::Black, "You");
        typed(
            &mut e,
            &[Keystroke::Text("\u{1F600}"), Keystroke::Text("\t")],
        );
        assert_eq!(e.text, "You");
        typed(
            &mut e,
            &[Keystroke::Text("Zoë"), Keystroke::Text("\u{1F600}")],
        );
        assert_eq!(e.text, "Zoë");
        // Japanese the UI already shows is drawable.
        let mut j = Draft::new(Side::White, "");
        typed(&mut j, &[Keystroke::Text("黒")]);
        assert_eq!(j.text, "黒");
    }

    #[test]
    fn clean_names_are_trimmed_and_single_spaced() {
        assert_eq!(clean_name("  Ann   Lee  "), "Ann Lee");
        assert_eq!(clean_name("a\tb\nc"), "a b c");
        assert_eq!(clean_name("\u{1F600}"), "");
        assert_eq!(
            clean_name("Bartholomew the Great").chars().count(),
            MAX_NAME_CHARS
        );
        // Cut after a space: no space left at the end.
        assert_eq!(clean_name("abcdefghijklm nop"), "abcdefghijklm");
    }
}
