//! UI building blocks: buttons, switches, labels, a scrolling panel body. They know nothing
//! of the features: a button carries its screen's own action component (any `A`), and a tap
//! on it (mouse or finger: `Pointer<Click>`) becomes a [`UiAction<A>`] message that only that
//! screen reads ([`actions`] registers a screen's action type), so no affordance depends on
//! hovering and no screen sees another's actions.

use crate::prefs::i18n::Language;
use crate::ui::theme::{self, Paint, Selected, Type};
use bevy::input::mouse::{MouseScrollUnit, MouseWheel};
use bevy::prelude::*;

pub(crate) fn plugin(app: &mut App) {
    app.add_message::<ButtonTapped>()
        .add_observer(drag_to_scroll)
        .add_systems(Update, scroll_with_wheel)
        .add_systems(PostUpdate, localize.before(bevy::ui::UiSystems::Prepare));
}

/// A text shown in the player's language: the string key it comes from.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Localized(pub &'static str);

/// Fills in new localized texts, and all of them when the language changes.
fn localize(language: Res<Language>, mut texts: Query<(Ref<Localized>, &mut Text)>) {
    for (key, mut text) in &mut texts {
        if language.is_changed() || key.is_changed() {
            let value = language.t(key.0);
            if text.0 != value {
                text.0 = value.to_string();
            }
        }
    }
}

/// A screen's action type: what its buttons do.
pub trait ActionKind: Component + Copy + Send + Sync + 'static {}

impl<A: Component + Copy + Send + Sync + 'static> ActionKind for A {}

/// A button carrying an `A` was tapped.
#[derive(Message, Clone, Copy, Debug)]
pub struct UiAction<A: ActionKind>(pub A);

/// Makes taps on buttons carrying an `A` arrive as [`UiAction<A>`] messages.
pub fn actions<A: ActionKind>(app: &mut App) {
    app.add_message::<UiAction<A>>().add_observer(on_click::<A>);
}

/// Some button was tapped, whatever it does (the frame pacing wakes up for it).
#[derive(Message, Clone, Copy, Debug)]
pub struct ButtonTapped;

fn on_click<A: ActionKind>(
    click: On<Pointer<Click>>,
    actions: Query<&A>,
    mut out: MessageWriter<UiAction<A>>,
    mut tapped: MessageWriter<ButtonTapped>,
) {
    if click.button != PointerButton::Primary {
        return;
    }
    if let Ok(action) = actions.get(click.entity) {
        out.write(UiAction(*action));
        tapped.write(ButtonTapped);
    }
}

/// A button at least [`TOUCH`](crate::ui::layout::TOUCH) square, labelled with the string
/// `key`, doing `action`.
pub fn button(key: &'static str, action: impl Bundle) -> impl Bundle {
    choice(key, action, false)
}

/// A button with an icon before its label (the toolbar's icon over its label is
/// [`icon_button`]): the far player's Undo and Hint face to face.
pub fn labelled_icon_button(
    icon: &'static str,
    key: &'static str,
    action: impl Bundle,
) -> impl Bundle {
    button_frame(
        action,
        false,
        (
            Node {
                column_gap: px(6),
                align_items: AlignItems::Center,
                ..default()
            },
            Pickable::IGNORE,
            children![
                text_label(icon, Type::Title),
                label(key, theme::Type::Large)
            ],
        ),
    )
}

/// A button for one of several choices, labelled with the string `key`, coloured when it is
/// the current one.
pub fn choice(key: &'static str, action: impl Bundle, selected: bool) -> impl Bundle {
    button_frame(action, selected, label(key, theme::Type::Large))
}

/// A choice labelled with a text that is not translated (a move, a number, a name built
/// from several strings).
pub fn choice_text(text: impl Into<String>, action: impl Bundle, selected: bool) -> impl Bundle {
    button_frame(action, selected, text_label(text, theme::Type::Large))
}

fn button_frame(action: impl Bundle, selected: bool, content: impl Bundle) -> impl Bundle {
    framed(
        Node {
            min_width: px(crate::ui::layout::TOUCH),
            min_height: px(crate::ui::layout::TOUCH),
            padding: UiRect::axes(px(14), px(6)),
            justify_content: JustifyContent::Center,
            align_items: AlignItems::Center,
            border_radius: BorderRadius::all(px(10)),
            ..default()
        },
        action,
        selected,
        content,
    )
}

/// A choice button in `node`'s shape (a dense list's item): painted, highlighted when
/// `selected` and tapped like every other button.
pub fn framed(
    node: Node,
    action: impl Bundle,
    selected: bool,
    content: impl Bundle,
) -> impl Bundle {
    (
        Selected(selected),
        Button,
        action,
        node,
        BackgroundColor(Color::NONE),
        Paint::Button,
        children![content],
    )
}

/// The node of a dense button (a sheet's action, a mistake button, a move of the best line):
/// 44 pt each way at least (`layout::DENSE_TOUCH`), its content centred, `padding` around it.
pub fn dense_node(padding: UiRect) -> Node {
    Node {
        min_width: px(crate::ui::layout::DENSE_TOUCH),
        min_height: px(crate::ui::layout::DENSE_TOUCH),
        padding,
        justify_content: JustifyContent::Center,
        align_items: AlignItems::Center,
        border_radius: BorderRadius::all(px(10)),
        ..default()
    }
}

/// One of a sheet's actions (the summary's, the try's): a button that grows to share its row
/// with the others, 44 pt each way at least, marked for the layout check (`action`).
pub fn row_action(action: impl Bundle, selected: bool, content: impl Bundle) -> impl Bundle {
    (
        framed(
            Node {
                flex_grow: 1.0,
                ..dense_node(UiRect::axes(px(12), px(4)))
            },
            action,
            selected,
            content,
        ),
        crate::ui::layout::LayoutProbe("action"),
    )
}

/// The button a screen leads to (Start), the only one in the accent colour, as wide as its
/// panel.
pub fn primary_button(key: &'static str, action: impl Bundle) -> impl Bundle {
    (
        Selected(false),
        Button,
        action,
        Node {
            min_height: px(crate::ui::layout::TOUCH),
            width: percent(100),
            padding: UiRect::axes(px(18), px(8)),
            justify_content: JustifyContent::Center,
            align_items: AlignItems::Center,
            border_radius: BorderRadius::all(px(12)),
            ..default()
        },
        BackgroundColor(Color::NONE),
        Paint::Primary,
        children![(
            coloured_label("", Type::Title, Color::BLACK),
            Paint::OnPrimary,
            Localized(key)
        )],
    )
}

/// An on/off setting: its name, and a switch that shows the state (a knob on a track, in
/// the accent colour when on). The whole row takes the tap.
pub fn switch(key: &'static str, action: impl Bundle, on: bool) -> impl Bundle {
    (
        Selected(false),
        Button,
        action,
        Node {
            min_height: px(crate::ui::layout::TOUCH),
            width: percent(100),
            padding: UiRect::axes(px(14), px(4)),
            column_gap: px(12),
            align_items: AlignItems::Center,
            border_radius: BorderRadius::all(px(10)),
            ..default()
        },
        BackgroundColor(Color::NONE),
        Paint::Button,
        children![
            (
                label(key, theme::Type::Large),
                Node {
                    flex_grow: 1.0,
                    ..default()
                }
            ),
            (
                layout(Node {
                    width: px(SWITCH.x),
                    height: px(SWITCH.y),
                    padding: UiRect::all(px(3)),
                    border_radius: BorderRadius::all(px(SWITCH.y / 2.0)),
                    justify_content: if on {
                        JustifyContent::FlexEnd
                    } else {
                        JustifyContent::FlexStart
                    },
                    ..default()
                }),
                BackgroundColor(Color::NONE),
                if on { Paint::Primary } else { Paint::Panel },
                children![(
                    layout(Node {
                        width: px(SWITCH.y - 6.0),
                        height: px(SWITCH.y - 6.0),
                        border_radius: BorderRadius::all(px(SWITCH.y)),
                        ..default()
                    }),
                    BackgroundColor(Color::NONE),
                    if on { Paint::OnPrimary } else { Paint::TextDim },
                )],
            ),
        ],
    )
}

/// A switch's track size.
pub const SWITCH: Vec2 = Vec2::new(52.0, 30.0);

/// The text of the string `key` in the player's language; it does not catch taps.
pub fn label(key: &'static str, size: Type) -> impl Bundle {
    (text_label("", size), Localized(key))
}

/// A text that is not translated (or already is); it does not catch taps.
pub fn text_label(text: impl Into<String>, size: Type) -> impl Bundle {
    (coloured_label(text, size, Color::WHITE), Paint::Text)
}

/// Text in a colour that does not catch taps.
pub fn coloured_label(text: impl Into<String>, size: Type, color: Color) -> impl Bundle {
    (
        Text::new(text),
        TextFont::from_font_size(size.points()),
        TextColor(color),
        Pickable::IGNORE,
    )
}

/// Draws `button` and its texts (`children`) able or disabled (at [`theme::DIMMED_OPACITY`]),
/// when that changed from how it is `drawn`.
pub fn set_enabled(
    commands: &mut Commands,
    button: Entity,
    children: &Children,
    drawn: Option<&theme::Opacity>,
    can: bool,
) {
    let now = theme::Opacity(if can { 1.0 } else { theme::DIMMED_OPACITY });
    if drawn == Some(&now) {
        return;
    }
    commands.entity(button).insert(now);
    for child in children.iter() {
        commands.entity(child).insert(now);
    }
}

/// A layout node that lets taps through to what is below it.
pub fn layout(node: Node) -> impl Bundle {
    (node, Pickable::IGNORE)
}

/// A compact button: an icon (a glyph of the UI font) over a small label, for bars of equal
/// buttons.
pub fn icon_button(icon: &'static str, key: &'static str, action: impl Bundle) -> impl Bundle {
    (
        Selected(false),
        Button,
        action,
        Node {
            flex_grow: 1.0,
            flex_basis: px(0),
            // 44 points wide at least (Apple's and Google's touch target), so five fit in the
            // narrow column lying down.
            min_width: px(44),
            min_height: px(crate::ui::layout::TOUCH),
            flex_direction: FlexDirection::Column,
            justify_content: JustifyContent::Center,
            align_items: AlignItems::Center,
            row_gap: px(1),
            border_radius: BorderRadius::all(px(10)),
            ..default()
        },
        BackgroundColor(Color::NONE),
        Paint::Button,
        children![text_label(icon, Type::Title), label(key, Type::Caption)],
    )
}

/// The scrolling body of a panel (see `screens::open_panel`).
pub fn panel() -> impl Bundle {
    (
        Node {
            flex_direction: FlexDirection::Column,
            row_gap: px(10),
            padding: UiRect {
                left: px(18),
                right: px(18),
                top: px(4),
                bottom: px(18),
            },
            flex_grow: 1.0,
            flex_shrink: 1.0,
            min_height: px(0),
            overflow: Overflow::scroll_y(),
            ..default()
        },
        Scrolls,
        ScrollPosition::default(),
    )
}

/// A panel that scrolls when its content is taller than the screen: by dragging it with a
/// finger (or the mouse), or with the mouse wheel.
#[derive(Component, Debug, Default)]
pub struct Scrolls;

/// Drags bubble up from whatever was touched to the innermost scrolling node, which takes
/// them.
fn drag_to_scroll(
    mut drag: On<Pointer<Drag>>,
    mut panels: Query<(&mut ScrollPosition, &ComputedNode), With<Scrolls>>,
) {
    if let Ok((mut scroll, node)) = panels.get_mut(drag.entity) {
        scroll.y = (scroll.y - drag.delta.y).clamp(0.0, max_scroll(node));
        drag.propagate(false);
    }
}

fn scroll_with_wheel(
    mut wheel: MessageReader<MouseWheel>,
    mut panels: Query<(&mut ScrollPosition, &ComputedNode), With<Scrolls>>,
) {
    for event in wheel.read() {
        let dy = match event.unit {
            MouseScrollUnit::Line => event.y * 40.0,
            MouseScrollUnit::Pixel => event.y,
        };
        for (mut scroll, node) in &mut panels {
            scroll.y = (scroll.y - dy).clamp(0.0, max_scroll(node));
        }
    }
}

/// How far (logical pixels) a scrolling node can scroll down: its content's height less its
/// own. Scrolling is kept within it, so a drag back up moves the content at once.
pub fn max_scroll(node: &ComputedNode) -> f32 {
    ((node.content_size().y - node.size().y) * node.inverse_scale_factor()).max(0.0)
}

/// A row of buttons that wraps on narrow screens.
pub fn row() -> impl Bundle {
    layout(Node {
        flex_direction: FlexDirection::Row,
        flex_wrap: FlexWrap::Wrap,
        column_gap: px(8),
        row_gap: px(8),
        align_items: AlignItems::Center,
        ..default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::camera::NormalizedRenderTarget;
    use bevy::picking::backend::HitData;
    use bevy::picking::pointer::{Location, PointerId};

    #[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
    enum First {
        Go,
    }

    #[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
    enum Second {
        Stop,
    }

    fn click(app: &mut App, on: Entity, button: PointerButton) {
        let location = Location {
            target: NormalizedRenderTarget::None {
                width: 1,
                height: 1,
            },
            position: Vec2::ZERO,
        };
        let hit = HitData::new(Entity::PLACEHOLDER, 0.0, None, None);
        let event = Click {
            button,
            hit,
            duration: std::time::Duration::ZERO,
            count: 1,
        };
        app.world_mut()
            .trigger(Pointer::new(PointerId::Mouse, location, event, on));
        app.update();
    }

    fn read<A: ActionKind>(app: &mut App) -> Vec<A> {
        let mut messages = app.world_mut().resource_mut::<Messages<UiAction<A>>>();
        messages.drain().map(|UiAction(a)| a).collect()
    }

    /// A tap on a button reaches only the screen whose action it carries, and only with the
    /// primary button; any tap wakes the frame pacing.
    #[test]
    fn a_tap_reaches_only_its_own_screen() {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins)
            .add_message::<ButtonTapped>();
        actions::<First>(&mut app);
        actions::<Second>(&mut app);
        let go = app.world_mut().spawn(First::Go).id();
        let stop = app.world_mut().spawn(Second::Stop).id();
        click(&mut app, go, PointerButton::Primary);
        assert_eq!(read::<First>(&mut app), [First::Go]);
        assert_eq!(read::<Second>(&mut app), []);
        click(&mut app, stop, PointerButton::Primary);
        assert_eq!(read::<First>(&mut app), []);
        assert_eq!(read::<Second>(&mut app), [Second::Stop]);
        click(&mut app, go, PointerButton::Secondary);
        assert_eq!(read::<First>(&mut app), []);
        let tapped = app.world().resource::<Messages<ButtonTapped>>().len();
        assert!(tapped >= 1, "the taps were announced");
    }
}
