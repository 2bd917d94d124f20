//! Touches as pointers for Bevy's picking, without losing quick taps.
//!
//! Bevy's picking sends `Click` on a release only for what the pointer hovered in the frame
//! *before*, and its touch input makes a new pointer for every touch. A tap whose finger goes
//! down and up within one frame (a quick tap on a slow frame: a phone busy compiling shaders,
//! a browser drawing in software) therefore never clicks anything. This replaces Bevy's touch
//! input ([`PointerInputSettings::is_touch_enabled`] off) with the same translation, except
//! that such a release is held back to the next frame, so the pointer has hovered its target
//! for one frame when it lifts. Its pointer is removed once the release went out.

use bevy::camera::{NormalizedRenderTarget, RenderTarget};
use bevy::input::touch::TouchPhase;
use bevy::picking::PickingSystems;
use bevy::picking::input::PointerInputSettings;
use bevy::picking::pointer::{
    Location, PointerAction, PointerButton, PointerId, PointerInput, PointerLocation,
};
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy::window::{PrimaryWindow, RequestRedraw, WindowEvent, WindowRef};

pub(crate) fn plugin(app: &mut App) {
    app.insert_resource(PointerInputSettings {
        is_touch_enabled: false,
        ..default()
    })
    .init_resource::<Touches>()
    .add_systems(First, touch_pointers.in_set(PickingSystems::Input))
    .add_systems(Last, remove_lifted);
}

/// One touch's pointer input, in order.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Step {
    Press(Vec2),
    Move(Vec2, Vec2),
    Lift(Vec2, bool),
}

/// What the touches did, kept between frames.
#[derive(Resource, Default, Debug)]
struct Touches {
    /// The last position of each touch down, to send moves only when it moved.
    down: HashMap<u64, Vec2>,
    /// Lifts held back from the frame of their press, sent in the next frame.
    held: Vec<(u64, Vec2, bool)>,
    /// Each touch's pointer entity, while it is down.
    pointers: HashMap<u64, Entity>,
    /// Pointers whose lift went out this frame: they go in `Last`. By entity, not by touch id:
    /// Android reuses a finger's id, and a quick second tap may press in the frame its
    /// predecessor's held lift goes out.
    lifted: Vec<Entity>,
}

/// The pointer inputs for one frame's touch steps: a touch pressed in this frame lifts in the
/// next (returned apart), every other step goes out now.
fn plan(
    steps: &[(u64, Step)],
    held_before: Vec<(u64, Vec2, bool)>,
) -> (Vec<(u64, Step)>, Vec<(u64, Vec2, bool)>) {
    let mut now: Vec<(u64, Step)> = held_before
        .into_iter()
        .map(|(id, at, cancel)| (id, Step::Lift(at, cancel)))
        .collect();
    let mut held = Vec::new();
    let mut pressed_now = Vec::new();
    for &(id, step) in steps {
        match step {
            Step::Press(_) => {
                pressed_now.push(id);
                now.push((id, step));
            }
            Step::Lift(at, cancel) if pressed_now.contains(&id) => held.push((id, at, cancel)),
            _ if held.iter().any(|h| h.0 == id) => {}
            _ => now.push((id, step)),
        }
    }
    (now, held)
}

fn touch_pointers(
    mut window_events: MessageReader<WindowEvent>,
    primary_window: Query<Entity, With<PrimaryWindow>>,
    mut touches: ResMut<Touches>,
    mut commands: Commands,
    mut pointer_inputs: MessageWriter<PointerInput>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let mut target: Option<NormalizedRenderTarget> = None;
    let mut steps = Vec::new();
    for event in window_events.read() {
        let WindowEvent::TouchInput(touch) = event else {
            continue;
        };
        let Some(window) = RenderTarget::Window(WindowRef::Entity(touch.window))
            .normalize(primary_window.single().ok())
        else {
            continue;
        };
        target = Some(window);
        let at = touch.position;
        let step = match touch.phase {
            TouchPhase::Started => {
                touches.down.insert(touch.id, at);
                Step::Press(at)
            }
            TouchPhase::Moved => match touches.down.insert(touch.id, at) {
                Some(last) if last != at => Step::Move(at, at - last),
                _ => continue,
            },
            TouchPhase::Ended | TouchPhase::Canceled => {
                touches.down.remove(&touch.id);
                Step::Lift(at, touch.phase == TouchPhase::Canceled)
            }
        };
        steps.push((touch.id, step));
    }
    let held_before = std::mem::take(&mut touches.held);
    let (now, held) = plan(&steps, held_before);
    if !held.is_empty() {
        // A reactive app would otherwise sleep with the lift still held.
        redraw.write(RequestRedraw);
    }
    touches.held = held;
    let Some(target) = target.or_else(|| {
        RenderTarget::Window(WindowRef::Primary).normalize(primary_window.single().ok())
    }) else {
        return;
    };
    for (id, step) in now {
        let pointer = PointerId::Touch(id);
        let location = |position| Location {
            target: target.clone(),
            position,
        };
        let action = match step {
            Step::Press(at) => {
                let entity = commands
                    .spawn((pointer, PointerLocation::new(location(at))))
                    .id();
                touches.pointers.insert(id, entity);
                pointer_inputs.write(PointerInput::new(
                    pointer,
                    location(at),
                    PointerAction::Press(PointerButton::Primary),
                ));
                continue;
            }
            Step::Move(at, delta) => (at, PointerAction::Move { delta }),
            Step::Lift(at, cancel) => {
                if let Some(entity) = touches.pointers.remove(&id) {
                    touches.lifted.push(entity);
                }
                let action = if cancel {
                    PointerAction::Cancel
                } else {
                    PointerAction::Release(PointerButton::Primary)
                };
                (at, action)
            }
        };
        pointer_inputs.write(PointerInput::new(pointer, location(action.0), action.1));
    }
}

/// Removes the pointers of touches whose lift went out this frame (each touch has its own).
fn remove_lifted(mut commands: Commands, mut touches: ResMut<Touches>) {
    for entity in touches.lifted.drain(..) {
        if let Ok(mut pointer) = commands.get_entity(entity) {
            pointer.despawn();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tap_within_one_frame_lifts_in_the_next() {
        let a = Vec2::new(10.0, 20.0);
        let (now, held) = plan(
            &[(1, Step::Press(a)), (1, Step::Lift(a, false))],
            Vec::new(),
        );
        assert_eq!(now, vec![(1, Step::Press(a))]);
        assert_eq!(held, vec![(1, a, false)]);
        // The next frame sends the lift first, then what came meanwhile.
        let b = Vec2::new(50.0, 60.0);
        let (now, held) = plan(&[(2, Step::Press(b))], held);
        assert_eq!(now, vec![(1, Step::Lift(a, false)), (2, Step::Press(b))]);
        assert!(held.is_empty());
    }

    #[test]
    fn a_touch_pressed_earlier_lifts_at_once_and_moves_are_kept_in_order() {
        let (a, b) = (Vec2::new(1.0, 1.0), Vec2::new(3.0, 1.0));
        let steps = [(7, Step::Move(b, b - a)), (7, Step::Lift(b, true))];
        let (now, held) = plan(&steps, Vec::new());
        assert_eq!(now, steps.to_vec());
        assert!(held.is_empty());
    }
}
