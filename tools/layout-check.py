#!/usr/bin/env python3
"""Checks the layout the player sees, on what the app drew: the screenshot tool writes
beside each PNG where the toolbar's buttons, the HUD's rows and an open panel are
(FILE.layout: `NAME LEFT TOP RIGHT BOTTOM`, pixels, and `scale S`, the picture's pixels per UI
unit) and where each square's centre is (FILE.squares). Run by .ci/smoke.sh on phones and
tablets, upright and lying down, and by web/test/run.sh on the browser's shots:

    tools/layout-check.py SHOT.png [SHOT.png ...]

For each shot: the toolbar's buttons are equally wide (upright) or tall (lying down) and at
least 44 pt each way; an open panel overlaps neither the toolbar's buttons nor the HUD's
rows; on a 390x844 phone held upright the squares are at least 44 pt (unless the move
list's sheet is open: then the board above it is smaller, for reviewing); and the move list
docked in the column lying down (`list`) shows at least 6 full moves (numbered pairs). A
panel's body with more below than it shows (`scroll` lines: box, content height, how far it
is scrolled) has its scroll cue (`cue`) drawn at its bottom, and new game's panel (`tall`)
shows all of its choices without scrolling on a 390x844 phone upright. A shot of a reviewed
game (its name has `review`) shows the move list's marks (`mark`: a move that cost discs, its
symbol and colour) in view inside the open panel. The review's next-mistake buttons
(`mistake`), the best line's moves (`line`) and the summary's actions (`action`) are at least
44 pt each way, the moves of
the list (`move`, `mark`) and the evaluation's charts (`chart`) 44 pt tall; the summary at the end of a game (a
shot whose name has `result`) is a sheet beside the final board (under it upright), over none
of its squares, Review and Rematch at least inside it; so is the daily puzzle's (a shot whose
name has `puzzle`), with its three actions. On a tall phone (the move strip, `strip`,
is drawn) the player cards (`card-black`, `card-white`) sit right above and right below the
board's squares and the strip under the lower card, 44 pt tall, clear of the toolbar.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import png  # noqa: E402

TARGET = 44.0  # points: Apple's and Google's smallest touch target
# The move list's rows of numbered pairs (src/ui/layout.rs: MOVE_ROW, MOVE_ROW_GAP,
# MOVE_PAIR_WIDTH, MOVE_COLUMN_GAP, MOVE_LIST_PADDING.y), in UI units.
MOVE_ROW, MOVE_ROW_GAP, MOVE_PAIR_WIDTH, MOVE_COLUMN_GAP, LIST_PADDING_Y = 44, 2, 108, 6, 4
DOCKED_PAIRS = 6  # three rows of two: the rows are 44 pt tall (#67)


def read(path, suffix):
    with open(path + suffix) as f:
        return [line.split() for line in f if line.strip()]


def overlap(a, b):
    return min(a[2], b[2]) - max(a[0], b[0]) > 0.5 and min(a[3], b[3]) - max(a[1], b[1]) > 0.5


def contains(outer, inner):
    return (
        inner[0] >= outer[0] - 0.5
        and inner[1] >= outer[1] - 0.5
        and inner[2] <= outer[2] + 0.5
        and inner[3] <= outer[3] + 0.5
    )


def check(path):
    width, height, _ = png.read(path)
    lines = read(path, ".layout")
    # The picture's pixels per UI unit: written by the desktop's screenshot tool; the
    # browser test's boxes are in UI units already.
    scale = next((float(rest[0]) for name, *rest in lines if name == "scale"), 1.0)
    boxes = [
        (name, tuple(float(v) for v in rest)) for name, *rest in lines if name not in ("scroll", "scale")
    ]
    scrolls = [tuple(float(v) for v in rest) for name, *rest in lines if name == "scroll"]
    squares = {name: (float(x), float(y)) for name, x, y in read(path, ".squares")}
    tools = [b for name, b in boxes if name == "tool"]
    huds = [b for name, b in boxes if name == "hud"]
    panels = [b for name, b in boxes if name in ("panel", "sheet", "tall")]
    cues = [b for name, b in boxes if name == "cue"]
    # The move list's sheet shrinks the board above it (reviewing: no moves are played).
    sheet = any(name == "sheet" for name, _ in boxes)
    failed = []
    upright = height > width
    if len(tools) != 6:
        failed.append(f"{len(tools)} toolbar buttons, not 6")
    sizes = [(b[2] - b[0], b[3] - b[1]) for b in tools]
    for w, h in sizes:
        if w < TARGET - 0.5 or h < TARGET - 0.5:
            failed.append(f"a toolbar button of {w:.0f}x{h:.0f} pt, under {TARGET:.0f} pt")
    along = [w if upright else h for w, h in sizes]
    if along and max(along) - min(along) > 1.0:
        failed.append(f"toolbar buttons of unequal size: {', '.join(f'{a:.0f}' for a in along)}")
    for panel in panels:
        for tool in tools:
            if overlap(panel, tool):
                failed.append(f"the panel {panel} covers a toolbar button {tool}")
        for hud in huds:
            if overlap(panel, hud):
                failed.append(f"the panel {panel} covers the HUD's row {hud}")
    for *body, content, scrolled in scrolls:
        inside = [p for p in panels if contains(p, body)]
        more = content - (body[3] - body[1]) - scrolled
        # (More than the padding's few pixels: src/ui/screens/mod.rs, more_below.)
        if not inside or more <= 8.0:
            continue
        # The cue's fade lies over the body's bottom, its arrow in the strip just under the
        # body (src/ui/screens/mod.rs, CUE_STRIP), never over the content: the cue ends at or
        # below the body's bottom, by less than its own height (the UI scale scales both).
        cued = any(overlap(cue, body) and -1.5 <= cue[3] - body[3] < cue[3] - cue[1] for cue in cues)
        print(f"{os.path.basename(path)}: a panel's body with {more:.0f} px more below, cue {cued}")
        if not cued:
            failed.append(f"a panel's body {tuple(body)} scrolls ({more:.0f} px more) without a cue")
        if (width, height) == (390, 844) and any(n == "tall" and contains(b, body) for n, b in boxes):
            failed.append(f"new game does not fit on a 390x844 phone: {more:.0f} px to scroll")
    if "review" in os.path.basename(path):
        # (The list scrolls: marks above or below what it shows lie outside the panel.)
        marks = [b for name, b in boxes if name == "mark"]
        shown = [m for m in marks if any(contains(p, m) for p in panels)]
        print(f"{os.path.basename(path)}: {len(marks)} marked move(s), {len(shown)} in view")
        if not shown:
            failed.append(f"a reviewed game's move list shows no marked move ({len(marks)} marked)")
    # The summary's actions and the review's next-mistake buttons: 44 pt each way at least;
    # the moves of the list 44 pt tall (three numbered pairs still fit across a phone).
    for name, b in boxes:
        w, h = b[2] - b[0], b[3] - b[1]
        if name in ("action", "mistake", "line") and (w < TARGET - 0.5 or h < TARGET - 0.5):
            failed.append(f"a {name} of {w:.0f}x{h:.0f} pt, under {TARGET:.0f} pt")
        if name == "chart" and h < TARGET - 0.5:
            failed.append(f"an evaluation chart {h:.0f} pt tall, under {TARGET:.0f} pt (a finger steps along it)")
        if name in ("move", "mark") and h < TARGET - 0.5:
            failed.append(f"a move of the list {h:.0f} pt tall, under {TARGET:.0f} pt")
    if "-line" in os.path.basename(path):
        # Stepping into the best line: its moves are on screen, and a row of the list with them.
        lines = [b for name, b in boxes if name == "line"]
        moves = [b for name, b in boxes if name in ("move", "mark")]
        if len(lines) < 2 or not moves:
            failed.append(f"the best line shows {len(lines)} move(s) beside {len(moves)} of the list")
        else:
            print(f"{os.path.basename(path)}: the best line's {len(lines)} moves, {len(moves)} moves of the list laid out")
    base = os.path.basename(path)
    if "result" in base or "puzzle" in base:
        # The summary at the end of a game, and the daily puzzle's sheet, lie beside the
        # board, never over it: a sheet over none of its squares, its actions inside it
        # (Review and Rematch; the day before, the solution, the day after).
        fewest = 3 if "puzzle" in base else 2
        sheets = [b for name, b in boxes if name == "sheet"]
        actions = [b for name, b in boxes if name == "action"]
        if not sheets:
            failed.append("the end of a game's summary is not a sheet beside the board")
        else:
            half = min(
                abs(squares["b1"][0] - squares["a1"][0]), abs(squares["a2"][1] - squares["a1"][1])
            ) / 2
            xs = [x for x, _ in squares.values()]
            ys = [y for _, y in squares.values()]
            board = (min(xs) - half, min(ys) - half, max(xs) + half, max(ys) + half)
            print(f"{os.path.basename(path)}: the board {tuple(round(v) for v in board)}, the summary {sheets[0]}")
            for sheet in sheets:
                if overlap(sheet, board):
                    failed.append(f"the summary {sheet} covers the board {board}")
            if len(actions) < fewest:
                failed.append(f"the sheet shows {len(actions)} action(s), under {fewest}")
            for a in actions:
                if not any(contains(sheet, a) for sheet in sheets):
                    failed.append(f"the summary's action {a} is cut off its sheet")
    for name, b in boxes:
        if name != "list":
            continue
        w, h = (b[2] - b[0]) / scale, (b[3] - b[1]) / scale
        rows = int((h - 2 * LIST_PADDING_Y + MOVE_ROW_GAP) // (MOVE_ROW + MOVE_ROW_GAP))
        columns = int((w + MOVE_COLUMN_GAP) // (MOVE_PAIR_WIDTH + MOVE_COLUMN_GAP))
        print(f"{os.path.basename(path)}: the docked move list shows {rows} rows of {columns}")
        if rows * columns < DOCKED_PAIRS:
            failed.append(
                f"the docked move list shows {rows}x{columns} pairs, under {DOCKED_PAIRS}"
            )
    side = min(
        abs(squares["b1"][0] - squares["a1"][0]), abs(squares["a2"][1] - squares["a1"][1])
    )
    # A tall phone (the move strip shows): the opponent's card right above the board and the
    # player's right below it (within the frame's width: less than a square from the squares),
    # the strip under the player's card, at least 44 pt tall, clear of the toolbar.
    strips = [b for name, b in boxes if name == "strip"]
    cards = sorted((b for name, b in boxes if name in ("card-black", "card-white")), key=lambda b: b[1])
    if strips and not sheet:
        top = min(y for _, y in squares.values()) - side / 2
        bottom = max(y for _, y in squares.values()) + side / 2
        strip = strips[0]
        if len(cards) != 2:
            failed.append(f"a tall phone's layout with {len(cards)} player cards, not 2")
        else:
            above, below = cards
            print(
                f"{os.path.basename(path)}: cards {top - above[3]:.0f} px above and "
                f"{below[1] - bottom:.0f} px below the squares, strip {strip[3] - strip[1]:.0f} px"
            )
            if not (0 <= top - above[3] < side) or not (0 <= below[1] - bottom < side):
                failed.append(
                    f"the cards {above}, {below} are not right around the board ({top:.0f}-{bottom:.0f})"
                )
            if strip[1] < below[3] - 0.5:
                failed.append(f"the move strip {strip} is not under the player's card {below}")
        if strip[3] - strip[1] < TARGET - 0.5:
            failed.append(f"a move strip {strip[3] - strip[1]:.0f} px tall, under {TARGET:.0f}")
        for tool in tools:
            if overlap(strip, tool):
                failed.append(f"the move strip {strip} covers a toolbar button {tool}")
    if (width, height) == (390, 844) and not sheet and side < TARGET:
        failed.append(f"squares of {side:.1f} pt at 390x844, under {TARGET:.0f}")
    print(
        f"{os.path.basename(path)}: {width}x{height}, squares {side:.1f} pt, "
        f"toolbar buttons {', '.join(f'{a:.0f}' for a in along)} pt, "
        f"{len(panels)} panel(s), {len(huds)} HUD rows"
    )
    return [f"{os.path.basename(path)}: {f}" for f in failed]


def main():
    failed = [f for path in sys.argv[1:] for f in check(path)]
    if failed:
        print("\n".join(failed), file=sys.stderr)
        sys.exit(1)
    print("layout-check: OK")


if __name__ == "__main__":
    main()
