#!/usr/bin/env python3
"""Measures, on screenshots of what the player sees, the contrast of the board's marks and
discs against what they sit on, and fails under 3:1 (WCAG 1.4.11, non-text contrast). The
discs are lit 3D objects, so their colour on screen is not their palette colour: only a
picture tells. Run by .ci/smoke.sh on one screenshot per theme:

    montello --window 540x960 --theme THEME --position f5d6c3d3c4f4f6f3e6e7 --screenshot T.png
    tools/contrast-check.py classic=classic.png wood=wood.png dark=dark.png contrast=contrast.png

The samples are taken where the app says the squares are (the screenshot's `.squares` file,
written beside it: `a1 X Y` per line), in that position (Black to move: black discs at c3
and c4, white at d3, legal moves at c2..g2, the last move e7 on a white disc, b1 empty), and
the coordinate "a" on the frame above a1 (text: at least 4.5:1). A black disc counts by its
centre or by the ring at its edge, whichever stands out more (High contrast draws a light
ring). The high-contrast theme must reach 4.5:1 on every measure and be the best theme on each.

A hint's numbers, on a screenshot taken with `--hint` (`hint:THEME=PATH`): each pill is where
the screenshot's `.layout` file says (`hint-best`, `hint`); its ground is the commonest colour
inside it and its number the pixel that stands out most from that ground (text: 4.5:1).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import png  # noqa: E402

# Squares of the position above.
FELT, BLACK, WHITE, LEGAL, LAST = "b1", "c3", "d3", "c2", "e7"


def squares(path):
    """Square name -> (x, y) centre in the picture, from the app's PATH.squares."""
    at = {}
    with open(path + ".squares") as f:
        for line in f:
            name, x, y = line.split()
            at[name] = (round(float(x)), round(float(y)))
    return at


def around(centre, half):
    x, y = centre
    return (x - half, y - half, x + half, y + half)


MIN = 3.0
TEXT_MIN = 4.5


def pill_ratios(path):
    """(name, ratio) for each hint pill in PATH: its number against its ground."""
    _, _, px = png.read(path)
    with open(path + ".layout") as f:
        boxes = [(w[0], [round(float(v)) for v in w[1:5]]) for w in (line.split() for line in f)
                 if w and w[0] in ("hint", "hint-best")]
    out = []
    for name, (left, top, right, bottom) in boxes:
        # Inside the pill's rounded ends: the middle half of its width, most of its height.
        inset_x, inset_y = (right - left) // 4, (bottom - top) // 8
        pixels = [px[y][x] for y in range(top + inset_y, bottom - inset_y)
                  for x in range(left + inset_x, right - inset_x)]
        if not pixels:
            continue
        counts = {}
        for c in pixels:
            counts[c] = counts.get(c, 0) + 1
        ground = max(counts, key=counts.get)
        number = max(pixels, key=lambda c: png.contrast(c, ground))
        out.append((name, png.contrast(number, ground)))
    return out


def check_hints(theme, path, failed):
    ratios = pill_ratios(path)
    if not any(name == "hint-best" for name, _ in ratios):
        failed.append(f"{theme}: no best hint's pill in {path} (no hint shown?)")
    for name, ratio in ratios:
        what = "best hint" if name == "hint-best" else "hint"
        print(f"{theme}: {what}'s number on its pill {ratio:.2f}:1")
        if ratio < TEXT_MIN:
            failed.append(f"{theme}: a {what}'s number on its pill {ratio:.2f}:1, under {TEXT_MIN}:1")


def main():
    results = {}
    failed = []
    for arg in sys.argv[1:]:
        theme, path = arg.split("=", 1)
        if theme.startswith("hint:"):
            check_hints(theme[len("hint:"):], path, failed)
            continue
        _, _, px = png.read(path)
        where = squares(path)
        # A square's side in pixels, for boxes around its marks.
        side = abs(where["b1"][0] - where["a1"][0])
        at = lambda name: px[where[name][1]][where[name][0]]  # noqa: E731
        felt = at(FELT)
        lf = png.luminance(felt)

        def extreme(box, pick):
            best = None
            for y in range(box[1], box[3]):
                for x in range(box[0], box[2]):
                    c = px[y][x]
                    if best is None or pick(c, best):
                        best = c
            return best

        dot = extreme(around(where[LEGAL], side // 4), lambda c, b: abs(png.luminance(c) - lf) > abs(png.luminance(b) - lf))
        last = extreme(around(where[LAST], side // 6), lambda c, b: png.luminance(c) < png.luminance(b))
        black, white = at(BLACK), at(WHITE)
        # A black disc's edge: the ring at the rim of its face (light in High contrast, the
        # disc's own colour elsewhere), sampled at 92% of the disc's radius (0.41 of a
        # square) on four sides; the median of the four.
        bx, by = where[BLACK]
        reach = round(0.92 * 0.41 * side)
        rim = sorted(
            (px[by + dy][bx + dx] for dx, dy in ((reach, 0), (-reach, 0), (0, reach), (0, -reach))),
            key=lambda c: png.contrast(c, felt),
        )[1:3]
        rim_ratio = min(png.contrast(c, felt) for c in rim)
        # The letter "a" on the frame above a1 (text: 4.5:1), against the frame between the
        # letters "a" and "b".
        ax, ay = where["a1"]
        label_y = ay - side // 2 - 8
        frame = px[label_y][ax + side // 2]
        lfr = png.luminance(frame)
        letter = extreme((ax - 6, label_y - 6, ax + 6, label_y + 6), lambda c, b: abs(png.luminance(c) - lfr) > abs(png.luminance(b) - lfr))
        ratios = {
            "black discs on the felt": max(png.contrast(black, felt), rim_ratio),
            "white discs on the felt": png.contrast(white, felt),
            "legal-move dots on the felt": png.contrast(dot, felt),
            "last-move dot on a white disc": png.contrast(last, white),
            "coordinates on the frame": png.contrast(letter, frame),
        }
        if png.luminance(black) > png.luminance(felt) or png.luminance(white) < png.luminance(felt):
            failed.append(f"{theme}: the samples missed the discs (layout changed?)")
        results[theme] = ratios
        print(f"{theme}: " + ", ".join(f"{k} {v:.2f}:1" for k, v in ratios.items()))
        for what, ratio in ratios.items():
            least = TEXT_MIN if what.startswith("coordinates") else MIN
            if ratio < least:
                failed.append(f"{theme}: {what} {ratio:.2f}:1, under {least}:1")
    if "contrast" in results:
        best = results["contrast"]
        for what, ratio in best.items():
            # High contrast: every measure at least 4.5:1, and the best of all themes.
            if ratio < TEXT_MIN:
                failed.append(f"high contrast: {what} {ratio:.2f}:1, under {TEXT_MIN}:1")
            for theme, r in results.items():
                if r[what] > ratio + 1e-9:
                    failed.append(
                        f"high contrast shows {what} less well ({ratio:.2f}:1) than {theme} ({r[what]:.2f}:1)"
                    )
    if failed:
        print("\n".join(failed), file=sys.stderr)
        sys.exit(1)
    print("contrast-check: OK")


if __name__ == "__main__":
    main()
