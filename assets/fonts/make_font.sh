#!/usr/bin/env bash
# Makes assets/fonts/montello-ui.otf, the one font of the app's UI: Noto Sans CJK JP Regular
# (SIL Open Font License 1.1, see OFL.txt) cut down to the characters Montello shows: printable
# ASCII, Latin-1, the punctuation below, and every character of every language file in
# assets/lang/. Run it again after adding text in a new script (the i18n tests say when:
# `font_covers_every_language` fails and names the missing characters).
#
# Needs Debian's fonts-noto-cjk and fontTools (pyftsubset); installs them if missing.
set -euo pipefail
cd "$(dirname "$0")/../.."

src=/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
if [ ! -e "$src" ]; then
    apt-get update -qq && apt-get install -y -qq fonts-noto-cjk
fi
python3 -c 'import fontTools' 2>/dev/null || pip install -q fonttools

text=$(mktemp)
trap 'rm -f "$text"' EXIT
cat assets/lang/*.txt >"$text"
# Punctuation and symbols the UI uses outside the language files.
# The icons of the toolbar and the move list (src/ui/screens/toolbar.rs, move_list.rs).
printf '%s' '…–—‘’“”•·×÷±→←↑↓▶◀●○◆◇■□★☆✓✗♪✚⇦⇨◎≡⋯‹›◐' >>"$text"

# Face 0 of the collection is Noto Sans CJK JP.
python3 -m fontTools.subset "$src" --font-number=0 \
    --text-file="$text" \
    --unicodes='U+0020-007E,U+00A0-00FF' \
    --layout-features='kern,liga,palt' \
    --name-IDs='*' --name-languages='*' \
    --output-file=assets/fonts/montello-ui.otf
ls -l assets/fonts/montello-ui.otf
