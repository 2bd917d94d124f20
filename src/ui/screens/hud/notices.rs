//! Notices: on a tall phone a toast over the player's card, fading with the notice.

use super::*;
use crate::ui::theme::Type;

/// A notice's toast (a tall phone's): a pill centred in its place, over the player's card,
/// which taps pass through. Placed by `crate::ui::placement`, shown by [`show_toast`].
pub(super) fn toast(seat: Seat) -> impl Bundle {
    (
        layout(Node {
            display: Display::None,
            position_type: PositionType::Absolute,
            justify_content: JustifyContent::Center,
            align_items: AlignItems::Center,
            ..default()
        }),
        Toast,
        Placed::Toast,
        Visibility::Hidden,
        seat,
        children![(
            layout(Node {
                padding: UiRect::axes(px(16), px(8)),
                border_radius: BorderRadius::all(px(20)),
                max_width: percent(100),
                ..default()
            }),
            BackgroundColor(Color::NONE),
            ToastPill,
            children![(
                coloured_label("", Type::Body, Palette::CLASSIC.text_dim),
                TextLayout::justify(Justify::Center),
                HudText::Toast,
                seat,
            )],
        )],
    )
}

/// A notice fades out over its last moment ([`Notice::opacity`]), in its row or its toast.
pub(super) fn fade_notice(
    notice: Res<Notice>,
    palette: Res<Palette>,
    mut texts: Query<(&HudText, &mut TextColor)>,
    mut pills: Query<&mut BackgroundColor, With<ToastPill>>,
) {
    if notice.is_empty() {
        return;
    }
    let opacity = notice.opacity();
    for (text, mut color) in &mut texts {
        if matches!(text, HudText::Notice | HudText::Toast) && color.0.alpha() != opacity {
            color.0.set_alpha(opacity);
        }
    }
    // (The pill's ground is the theme's button colour, faded with the text.)
    let ground = palette.button.with_alpha(palette.button.alpha() * opacity);
    for mut pill in &mut pills {
        if pill.0 != ground {
            pill.0 = ground;
        }
    }
}

/// The toast shows while there is a notice (on a tall phone; elsewhere it is not laid out).
pub(super) fn show_toast(notice: Res<Notice>, mut toasts: Query<&mut Visibility, With<Toast>>) {
    let shown = if notice.is_empty() {
        Visibility::Hidden
    } else {
        Visibility::Inherited
    };
    for mut visibility in &mut toasts {
        visibility.set_if_neq(shown);
    }
}
