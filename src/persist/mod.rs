//! What survives a restart: the save files' format, atomic writes with a backup, and when
//! the game, settings and statistics are saved and restored.

pub mod save;
pub mod save_format;
pub mod storage;
