//! Sharing on desktop: copy the transcript or GGF to the system clipboard, and start a game
//! from pasted text. (Phones: the system clipboard is not wired up yet.)

use crate::AppSystems;
use crate::game::flow::{CurrentGame, GameCommand, Notice};
use crate::prefs::i18n::Said;
use crate::ui::screens::Overlay;
use crate::ui::screens::ShareAction;
use crate::ui::widgets::UiAction;
use bevy::clipboard::{Clipboard, ClipboardRead};
use bevy::prelude::*;
use montello_engine::notation::{ggf, transcript};

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<PendingPaste>().add_systems(
        Update,
        (handle_actions, finish_paste)
            .chain()
            .in_set(AppSystems::Input),
    );
}

#[derive(Resource, Default)]
struct PendingPaste(Option<ClipboardRead>);

fn handle_actions(
    mut actions: MessageReader<UiAction<ShareAction>>,
    current: Res<CurrentGame>,
    mut clipboard: ResMut<Clipboard>,
    mut notice: ResMut<Notice>,
    mut pending: ResMut<PendingPaste>,
) {
    for UiAction(action) in actions.read() {
        let text = match action {
            ShareAction::CopyTranscript => transcript::to_transcript(current.game().history()),
            ShareAction::CopyGgf => ggf::game_to_ggf(current.game()),
            ShareAction::Paste => {
                pending.0 = Some(clipboard.fetch_text());
                continue;
            }
        };
        match clipboard.set_text(text) {
            Ok(()) => notice.info(Said::new("notice.copied")),
            Err(e) => notice.error(Said::new("notice.copy_failed").arg("error", e)),
        }
    }
}

fn finish_paste(
    mut pending: ResMut<PendingPaste>,
    mut notice: ResMut<Notice>,
    mut commands: MessageWriter<GameCommand>,
    mut next: ResMut<NextState<Overlay>>,
) {
    let Some(read) = pending.0.as_mut() else {
        return;
    };
    let Some(result) = read.poll_result() else {
        return;
    };
    pending.0 = None;
    match result {
        Ok(text) if !text.trim().is_empty() => {
            commands.write(GameCommand::Import(text));
            next.set(Overlay::None);
        }
        Ok(_) => notice.error(Said::new("notice.clipboard_empty")),
        Err(e) => notice.error(Said::new("notice.clipboard_failed").arg("error", e)),
    }
}
