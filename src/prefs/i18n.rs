//! Every string the player reads, in every language Montello speaks.
//!
//! The strings live in one place: `assets/lang/<code>.txt`, one `key = text` per line, compiled
//! into the binary (so phones need no asset loading to show a word). English is the reference;
//! a missing key falls back to English, then to the key itself, so a gap shows but never
//! crashes. The unit tests below check that every language has exactly English's keys with the
//! same `{placeholders}`, that every key the code asks for exists, and that the app's font
//! has a glyph for every character of every language.
//!
//! The language is the player's choice in the settings, or the system's when they chose none.

use crate::prefs::choices::Lang;
use bevy::prelude::*;
use montello_engine::{Move, Side, Variant};
use std::collections::HashMap;
use std::fmt::Display;
use std::sync::OnceLock;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Language>()
        .init_resource::<SystemLanguage>();
}

/// The language files, in [`Lang::ALL`] order.
const SOURCES: [&str; 4] = [
    include_str!("../../assets/lang/en.txt"),
    include_str!("../../assets/lang/ja.txt"),
    include_str!("../../assets/lang/fr.txt"),
    include_str!("../../assets/lang/de.txt"),
];

/// Whether the UI font draws `c`: the font is cut to printable ASCII, Latin-1 and the
/// characters of the language files (assets/fonts/make_font.sh), so a name typed by a player
/// keeps only those.
pub fn font_has(c: char) -> bool {
    matches!(c, '\u{20}'..='\u{7e}' | '\u{a0}'..='\u{ff}')
        || (!c.is_ascii() && SOURCES.iter().any(|s| s.contains(c)))
}

/// A margin in whole discs with its sign, as the squares, the stats and the try say it ("+6",
/// "-2", "0": the same in every language).
pub fn signed_discs(value: f32) -> String {
    match value.round() as i32 {
        0 => "0".to_string(),
        v => format!("{v:+}"),
    }
}

impl Lang {
    /// The language of a locale tag such as `ja-JP`, `fr_CA.UTF-8` or `de`, if Montello has it.
    pub fn from_locale(tag: &str) -> Option<Lang> {
        let primary = tag
            .split(['-', '_', '.', '@'])
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        Lang::ALL.into_iter().find(|l| l.code() == primary)
    }

    /// The system's language if Montello speaks it, else English.
    pub fn system() -> Lang {
        // Android: the activity's configuration follows the per-app language too.
        #[cfg(target_os = "android")]
        if let Some(lang) = bevy::android::ANDROID_APP
            .get()
            .and_then(|app| app.config().language())
            .and_then(|code| Lang::from_locale(&code))
        {
            return lang;
        }
        sys_locale::get_locales()
            .find_map(|tag| Lang::from_locale(&tag))
            .unwrap_or_default()
    }

    fn index(self) -> usize {
        self as usize
    }

    fn table(self) -> &'static HashMap<&'static str, &'static str> {
        static TABLES: OnceLock<Vec<HashMap<&'static str, &'static str>>> = OnceLock::new();
        let tables = TABLES.get_or_init(|| {
            SOURCES
                .iter()
                .map(|source| match parse(source) {
                    Ok(table) => table,
                    Err(e) => {
                        // The tests refuse such a file; a release build still shows English.
                        error!("a language file is malformed: {e}");
                        HashMap::new()
                    }
                })
                .collect()
        });
        &tables[self.index()]
    }

    /// The text for `key`: this language's, else English's, else the key itself.
    pub fn t(self, key: &'static str) -> &'static str {
        self.table()
            .get(key)
            .or_else(|| Lang::En.table().get(key))
            .copied()
            .unwrap_or(key)
    }

    /// The name of a side ("Black", "黒", ...).
    pub fn side(self, side: Side) -> &'static str {
        match side {
            Side::Black => self.t("side.black"),
            Side::White => self.t("side.white"),
        }
    }

    /// The name of a rule variant.
    pub fn variant(self, variant: Variant) -> &'static str {
        self.t(match variant {
            Variant::Othello => "variant.othello",
            Variant::NoMoveEndsGame => "variant.no_move_ends_game",
            Variant::FreeOpening => "variant.free_opening",
        })
    }

    /// What `variant`'s rules mean, in a sentence.
    pub fn variant_about(self, variant: Variant) -> &'static str {
        self.t(match variant {
            Variant::Othello => "variant.othello.about",
            Variant::NoMoveEndsGame => "variant.no_move_ends_game.about",
            Variant::FreeOpening => "variant.free_opening.about",
        })
    }

    /// A move as a player reads it: its square ("f5"), or "pass" in this language (never the
    /// file formats' "PA").
    pub fn move_name(self, mv: Move) -> String {
        match mv {
            Move::Pass => self.t("moves.pass").to_string(),
            Move::Play(square) => square.to_string(),
        }
    }

    /// `x` with `places` decimals and this language's decimal sign: 3.5 in English and
    /// Japanese, 3,5 in French and German.
    pub fn decimal(self, x: f32, places: usize) -> String {
        let text = format!("{x:.places$}");
        match self {
            Lang::Fr | Lang::De => text.replace('.', ","),
            Lang::En | Lang::Ja => text,
        }
    }

    /// A loss in discs as the review writes it: whole discs when `exact` (the solver's
    /// figures are whole), to a tenth from the search (an estimate).
    pub fn discs(self, loss: f32, exact: bool) -> String {
        self.decimal(loss, if exact { 0 } else { 1 })
    }

    /// The text for `key` with each `{name}` replaced by its value.
    pub fn f(self, key: &'static str, args: &[(&str, &dyn Display)]) -> String {
        let mut text = self.t(key).to_string();
        for (name, value) in args {
            text = text.replace(&format!("{{{name}}}"), &value.to_string());
        }
        text
    }

    /// A whole number written the way this language groups digits: 1,234,567 in English and
    /// Japanese, 1 234 567 in French (no-break spaces), 1.234.567 in German.
    pub fn number(self, n: u64) -> String {
        let separator = match self {
            Lang::En | Lang::Ja => ",",
            Lang::Fr => "\u{a0}",
            Lang::De => ".",
        };
        let digits = n.to_string();
        let mut out = String::with_capacity(digits.len() + digits.len() / 3 * 2);
        for (i, digit) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push_str(separator);
            }
            out.push(digit);
        }
        out
    }

    /// Whether `n` takes the singular form (CLDR's cardinal "one" for whole numbers): 1 in
    /// English and German, 0 and 1 in French; Japanese has no plural forms, so always the
    /// other one.
    pub fn is_singular(self, n: u64) -> bool {
        match self {
            Lang::En | Lang::De => n == 1,
            Lang::Fr => n <= 1,
            Lang::Ja => false,
        }
    }

    /// `one` or `other` (the language's singular and plural texts), whichever `n` takes, with
    /// `{n}` written by [`Lang::number`].
    pub fn count(self, one: &'static str, other: &'static str, n: u64) -> String {
        let key = if self.is_singular(n) { one } else { other };
        self.f(key, &[("n", &self.number(n))])
    }
}

/// Something to tell the player, kept as a string key with its arguments and translated
/// where it is shown, so it follows a change of language (a finished string would stay in
/// the language it was made in).
#[derive(Clone, Debug, PartialEq)]
pub struct Said {
    key: &'static str,
    args: Vec<(&'static str, Arg)>,
    then: Option<Box<Said>>,
}

/// An argument of a [`Said`].
#[derive(Clone, Debug, PartialEq)]
enum Arg {
    /// Text that is the same in every language (a number, a file name, an engine message).
    Text(String),
    /// Another string key, translated with the rest.
    Key(&'static str),
}

impl Said {
    /// The text of `key`.
    pub fn new(key: &'static str) -> Said {
        Said {
            key,
            args: Vec::new(),
            then: None,
        }
    }

    /// Fills `{name}` with `value`, the same in every language.
    pub fn arg(mut self, name: &'static str, value: impl Display) -> Said {
        self.args.push((name, Arg::Text(value.to_string())));
        self
    }

    /// Fills `{name}` with the text of `key`, in the language it is shown in.
    pub fn key_arg(mut self, name: &'static str, key: &'static str) -> Said {
        self.args.push((name, Arg::Key(key)));
        self
    }

    /// Adds `next` after this, as a second sentence.
    pub fn then(mut self, next: Said) -> Said {
        self.then = Some(Box::new(next));
        self
    }

    /// The text in `lang`.
    pub fn in_lang(&self, lang: Lang) -> String {
        let args: Vec<(&str, String)> = self
            .args
            .iter()
            .map(|(name, arg)| {
                let value = match arg {
                    Arg::Text(text) => text.clone(),
                    Arg::Key(key) => lang.t(key).to_string(),
                };
                (*name, value)
            })
            .collect();
        let refs: Vec<(&str, &dyn Display)> = args
            .iter()
            .map(|(name, value)| (*name, value as &dyn Display))
            .collect();
        let mut text = lang.f(self.key, &refs);
        if let Some(next) = &self.then {
            text.push(' ');
            text.push_str(&next.in_lang(lang));
        }
        text
    }
}

/// The system's language, when Montello speaks it (English otherwise). The app reads it at
/// start; headless tests keep the default, English.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SystemLanguage(pub Lang);

/// The language the app speaks now: the settings' choice or the system's.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq, Deref)]
pub struct Language(pub Lang);

/// Reads a language file: `key = text` lines; blank lines and lines starting with `#` are
/// skipped; `\n` in a text is a line break. An error names the line and what is wrong.
pub fn parse(source: &'static str) -> Result<HashMap<&'static str, &'static str>, String> {
    let mut table = HashMap::new();
    for (n, line) in source.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((key, text)) = line.split_once('=') else {
            return Err(format!("line {}: no `=` in {line:?}", n + 1));
        };
        let (key, text) = (key.trim(), text.trim());
        if key.is_empty()
            || !key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._".contains(c))
        {
            return Err(format!("line {}: bad key {key:?}", n + 1));
        }
        if text.is_empty() {
            return Err(format!("line {}: {key} has no text", n + 1));
        }
        // Line breaks are written `\n`: unescape those texts once and keep them for the life
        // of the program (a few kilobytes, like the `include_str!` they came from).
        let text: &'static str = if text.contains("\\n") {
            Box::leak(text.replace("\\n", "\n").into_boxed_str())
        } else {
            text
        };
        if table.insert(key, text).is_some() {
            return Err(format!("line {}: {key} is given twice", n + 1));
        }
    }
    Ok(table)
}

/// The UI font (see `assets/fonts/make_font.sh`): Latin and Japanese in one face, so every
/// language reads alike.
pub const UI_FONT: &[u8] = include_bytes!("../../assets/fonts/montello-ui.otf");

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn table(lang: Lang) -> HashMap<&'static str, &'static str> {
        parse(SOURCES[lang.index()]).unwrap_or_else(|e| panic!("{}.txt: {e}", lang.code()))
    }

    fn placeholders(text: &str) -> BTreeSet<String> {
        text.split('{')
            .skip(1)
            .filter_map(|rest| rest.split_once('}').map(|(name, _)| name.to_string()))
            .collect()
    }

    #[test]
    fn every_language_has_exactly_the_english_keys_and_placeholders() {
        let english = table(Lang::En);
        assert!(english.len() > 50, "{} keys", english.len());
        for lang in Lang::ALL {
            let other = table(lang);
            let mut missing: Vec<_> = english.keys().filter(|k| !other.contains_key(*k)).collect();
            let mut extra: Vec<_> = other.keys().filter(|k| !english.contains_key(*k)).collect();
            missing.sort();
            extra.sort();
            assert!(missing.is_empty(), "{}.txt lacks {missing:?}", lang.code());
            assert!(
                extra.is_empty(),
                "{}.txt has unknown keys {extra:?}",
                lang.code()
            );
            for (key, text) in &english {
                assert_eq!(
                    placeholders(text),
                    placeholders(other[key]),
                    "{}.txt: {key} has other placeholders than English",
                    lang.code()
                );
            }
        }
    }

    /// Every string literal in the app's source that looks like a key of a known group
    /// (`"hud.pass"`, `"variant.othello"`, ...) is a key English has, so a typo cannot show a
    /// raw key to the player.
    #[test]
    fn said_texts_are_translated_where_they_are_shown() {
        let said = Said::new("notice.restored_backup")
            .key_arg("what", "save.game")
            .arg("error", "damaged")
            .then(Said::new("notice.kept_as").arg("file", "game.ron.bad-1"));
        let en = said.in_lang(Lang::En);
        let fr = said.in_lang(Lang::Fr);
        assert!(en.contains("saved game") && en.contains("damaged"), "{en}");
        assert!(en.ends_with(&Lang::En.f("notice.kept_as", &[("file", &"game.ron.bad-1")])));
        assert!(
            fr.contains("la partie enregistrée") && fr.contains("game.ron.bad-1"),
            "{fr}"
        );
        assert_ne!(en, fr);
    }

    #[test]
    fn numbers_are_grouped_and_counted_the_way_each_language_writes_them() {
        assert_eq!(Lang::En.number(0), "0");
        assert_eq!(Lang::En.number(999), "999");
        assert_eq!(Lang::En.number(1234), "1,234");
        assert_eq!(Lang::Ja.number(1_234_567), "1,234,567");
        assert_eq!(Lang::Fr.number(1_234_567), "1\u{a0}234\u{a0}567");
        assert_eq!(Lang::De.number(1_234_567), "1.234.567");
        assert_eq!(Lang::De.number(123_456), "123.456");
        // Singular and plural: French counts 0 as singular, Japanese has one form.
        let discs = |lang: Lang, n| lang.count("search.discs_one", "search.discs_other", n);
        assert_eq!(discs(Lang::En, 1), "1 disc");
        assert_eq!(discs(Lang::En, 0), "0 discs");
        assert_eq!(discs(Lang::En, 2), "2 discs");
        assert_eq!(discs(Lang::Fr, 0), "0 pion");
        assert_eq!(discs(Lang::Fr, 1), "1 pion");
        assert_eq!(discs(Lang::Fr, 2), "2 pions");
        assert_eq!(discs(Lang::De, 1), "1 Stein");
        assert_eq!(discs(Lang::De, 4), "4 Steine");
        assert_eq!(discs(Lang::Ja, 1), "1石");
        assert_eq!(discs(Lang::Ja, 4), "4石");
        assert_eq!(
            Lang::De.count("search.positions_one", "search.positions_other", 12_345),
            "12.345 Stellungen"
        );
    }

    #[test]
    fn every_key_the_code_uses_exists() {
        let english = table(Lang::En);
        let groups: BTreeSet<&str> = english.keys().filter_map(|k| k.split('.').next()).collect();
        let mut used = 0;
        let mut stack = vec![std::path::PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src"
        ))];
        while let Some(path) = stack.pop() {
            if path.is_dir() {
                for entry in std::fs::read_dir(&path).unwrap() {
                    stack.push(entry.unwrap().path());
                }
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            // Drop escaped quotes and the quote character literal so quotes pair up.
            let source = std::fs::read_to_string(&path)
                .unwrap()
                .replace("\\\"", "")
                .replace("'\"'", "");
            for literal in source.split('"').skip(1).step_by(2) {
                let looks_like_key = literal.contains('.')
                    && literal
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "._".contains(c));
                let group = literal.split('.').next().unwrap_or("");
                // File names ("stats.ron") are not keys.
                let file_name = [".ron", ".txt", ".png", ".tmp", ".bak"]
                    .iter()
                    .any(|ext| literal.ends_with(ext));
                if looks_like_key && groups.contains(group) && !literal.ends_with('.') && !file_name
                {
                    used += 1;
                    assert!(
                        english.contains_key(literal),
                        "{}: unknown string key {literal:?}",
                        path.display()
                    );
                }
            }
        }
        assert!(used > 50, "found only {used} string keys in the source");
    }

    #[test]
    fn font_covers_every_language() {
        use skrifa::MetadataProvider;
        let font = skrifa::FontRef::new(UI_FONT).expect("the UI font parses");
        let charmap = font.charmap();
        for lang in Lang::ALL {
            let mut missing = BTreeSet::new();
            let texts = table(lang).into_values().chain([lang.native_name()]);
            for ch in texts.flat_map(str::chars) {
                if !ch.is_control() && charmap.map(ch).is_none() {
                    missing.insert(ch);
                }
            }
            assert!(
                missing.is_empty(),
                "{}.txt uses characters the UI font lacks (run assets/fonts/make_font.sh): {missing:?}",
                lang.code()
            );
        }
    }

    #[test]
    fn the_font_draws_every_character_a_name_may_hold() {
        use skrifa::MetadataProvider;
        let font = skrifa::FontRef::new(UI_FONT).expect("the UI font parses");
        let charmap = font.charmap();
        let candidates = ('\u{20}'..='\u{ff}').chain(SOURCES.iter().flat_map(|s| s.chars()));
        let missing: BTreeSet<char> = candidates
            .filter(|&c| !c.is_control() && font_has(c) && charmap.map(c).is_none())
            .collect();
        assert!(missing.is_empty(), "font_has accepts {missing:?}");
        assert!(font_has('é') && font_has('黒') && !font_has('\u{1F600}') && !font_has('Ω'));
    }

    #[test]
    fn lookups_fall_back_and_fill_placeholders() {
        assert_eq!(Lang::Ja.t("side.black"), "黒");
        assert_eq!(Lang::De.t("no.such.key"), "no.such.key");
        assert_eq!(
            Lang::En.f("hud.review", &[("ply", &3), ("total", &10)]),
            "Move 3 of 10"
        );
        assert_eq!(Lang::Fr.f("hud.to_move", &[("side", &"Noir")]), "Noir joue");
    }

    #[test]
    fn malformed_files_are_refused_with_the_line() {
        assert!(
            parse("a = b\nno equals here")
                .unwrap_err()
                .contains("line 2")
        );
        assert!(parse("a = b\na = c").unwrap_err().contains("twice"));
        assert!(parse("bad key! = x").unwrap_err().contains("bad key"));
        assert!(parse("a =   ").unwrap_err().contains("no text"));
        assert_eq!(parse("# c\n\nx.y = 1\\n2").unwrap()["x.y"], "1\n2");
    }

    #[test]
    fn locales_map_to_languages() {
        assert_eq!(Lang::from_locale("ja-JP"), Some(Lang::Ja));
        assert_eq!(Lang::from_locale("fr_CA.UTF-8"), Some(Lang::Fr));
        assert_eq!(Lang::from_locale("DE"), Some(Lang::De));
        assert_eq!(Lang::from_locale("en-GB"), Some(Lang::En));
        assert_eq!(Lang::from_locale("pt-BR"), None);
        assert_eq!(Lang::from_locale(""), None);
        for lang in Lang::ALL {
            assert_eq!(Lang::from_code(lang.code()), Some(lang));
        }
    }
}
