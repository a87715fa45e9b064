#!/usr/bin/env python3
"""Checks `fianchetto svg` pictures in a real browser (headless Chromium).

For a few positions, from both sides, with arrows, marked squares, a last
move and a king in check, it renders the picture in Chromium and reads back
where the browser put every element tagged `data-square` and `data-piece`:

- the 64 squares form an 8 x 8 grid of equal squares, a1 at the bottom left
  from white's side and at the top right from black's, light and dark where
  they belong;
- every piece sits inside the square where python-chess's reading of the
  FEN has it, and no square holds two;
- what the browser hit-tests at the centre of each square is that piece (so
  the drawing really is painted there), or the square itself when it is
  empty.

Needs chromium and chromium-driver (Debian packages), `pip install selenium
chess`. Usage:

    check.py BINARY [--screenshot FILE.png]

BINARY is the `fianchetto` program. With --screenshot, the browser's view of
the first marked position is saved there. Exits 1 on the first mismatch.
"""

import argparse
import pathlib
import subprocess
import sys
import tempfile

try:
    import chess
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
except ImportError as e:  # reported after --help has had its chance
    MISSING = e
else:
    MISSING = None

SIZE = 400

# (FEN, extra arguments of `fianchetto svg`, the squares covered by arrows)
CASES = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", [], set()),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ["--arrows", "e5f7,Rd5e6,Be2a6", "--squares", "d5,Rf7", "--lastmove", "c3d5"],
        {"e5", "f7", "d5", "e6", "e2", "a6"},
    ),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ["--flip", "--arrows", "e5f7", "--squares", "Yg7"],
        {"e5", "f7"},
    ),
    # Black is mated (scholar's mate): the king is marked as in check.
    (
        "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4",
        ["--flip", "--lastmove", "h5f7", "--no-coordinates"],
        set(),
    ),
    ("8/2k5/8/3K4/8/8/8/8 w - - 0 1", ["--light", "white", "--dark", "#607080"], set()),
]

COLLECT = """
const out = {squares: [], pieces: [], hits: {}, checks: 0};
for (const el of document.querySelectorAll('[data-square]')) {
  const r = el.getBoundingClientRect();
  out.squares.push({name: el.dataset.square, x: r.left, y: r.top, w: r.width, h: r.height,
                    fill: el.getAttribute('fill')});
}
for (const el of document.querySelectorAll('[data-piece]')) {
  const r = el.getBoundingClientRect();
  out.pieces.push({piece: el.dataset.piece, cx: r.left + r.width / 2, cy: r.top + r.height / 2,
                   w: r.width, h: r.height});  // the box of the painted drawing
}
for (const s of out.squares) {
  const el = document.elementFromPoint(s.x + s.w / 2, s.y + s.h / 2);
  out.hits[s.name] = el ? (el.dataset.piece ? 'piece:' + el.dataset.piece :
                           el.dataset.square ? 'square:' + el.dataset.square :
                           'other:' + el.getAttribute('class')) : 'nothing';
}
out.checks = document.querySelectorAll('.check').length;
return out;
"""


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def piece_code(piece):
    return ("w" if piece.color == chess.WHITE else "b") + piece.symbol().upper()


def check_case(driver, binary, workdir, index, fen, extra, covered):
    flipped = "--flip" in extra
    svg = subprocess.run(
        [binary, "svg", "--fen", fen, "--size", str(SIZE), *extra],
        check=True, capture_output=True, text=True,
    ).stdout
    path = pathlib.Path(workdir) / f"case{index}.svg"
    path.write_text(svg)
    driver.get(path.as_uri())
    data = driver.execute_script(COLLECT)
    what = f"case {index} ({fen}{' flipped' if flipped else ''})"

    squares = {s["name"]: s for s in data["squares"]}
    if len(data["squares"]) != 64 or len(squares) != 64:
        fail(f"{what}: {len(data['squares'])} square elements, {len(squares)} names")
    side = SIZE / 8
    left = min(s["x"] for s in squares.values())
    top = min(s["y"] for s in squares.values())
    light_fills, dark_fills = set(), set()
    for name, s in squares.items():
        sq = chess.parse_square(name)
        file, rank = chess.square_file(sq), chess.square_rank(sq)
        column, row = (7 - file, rank) if flipped else (file, 7 - rank)
        want = (left + column * side, top + row * side)
        if abs(s["x"] - want[0]) > 0.5 or abs(s["y"] - want[1]) > 0.5:
            fail(f"{what}: square {name} at ({s['x']}, {s['y']}), expected {want}")
        if abs(s["w"] - side) > 0.5 or abs(s["h"] - side) > 0.5:
            fail(f"{what}: square {name} is {s['w']} x {s['h']}, expected {side}")
        (light_fills if (file + rank) % 2 == 1 else dark_fills).add(s["fill"])
    if len(light_fills) != 1 or len(dark_fills) != 1 or light_fills == dark_fills:
        fail(f"{what}: light squares painted {light_fills}, dark ones {dark_fills}")

    board = chess.Board(fen)
    expected = {chess.square_name(sq): piece_code(p) for sq, p in board.piece_map().items()}
    found = {}
    for p in data["pieces"]:
        inside = [name for name, s in squares.items()
                  if s["x"] <= p["cx"] < s["x"] + s["w"] and s["y"] <= p["cy"] < s["y"] + s["h"]]
        if len(inside) != 1:
            fail(f"{what}: piece {p['piece']} centred at ({p['cx']}, {p['cy']}) is on {inside}")
        if inside[0] in found:
            fail(f"{what}: two pieces on {inside[0]}")
        # The box of what is painted: inside the square, and not a speck.
        if not (side / 3 < p["w"] <= side and side / 3 < p["h"] <= side):
            fail(f"{what}: piece {p['piece']} painted {p['w']} x {p['h']}, in a square of {side}")
        found[inside[0]] = p["piece"]
    if found != expected:
        wrong = sorted(set(found.items()) ^ set(expected.items()))
        fail(f"{what}: pieces differ from the FEN: {wrong}")

    for name, hit in data["hits"].items():
        if name in covered:
            continue
        want = f"piece:{expected[name]}" if name in expected else f"square:{name}"
        # A marked empty square shows its overlay at the centre.
        if hit != want and not (name not in expected and hit.startswith("other:")):
            fail(f"{what}: at the centre of {name} the browser hits {hit}, expected {want}")

    want_checks = 1 if board.is_check() else 0
    if data["checks"] != want_checks:
        fail(f"{what}: {data['checks']} check marks, expected {want_checks}")
    print(f"ok  {what}: 64 squares, {len(found)} pieces where the FEN puts them")
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("--screenshot")
    args = parser.parse_args()
    if MISSING is not None:
        sys.exit(f"{MISSING}: this script needs {MISSING.name} (pip install chess selenium)")

    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--hide-scrollbars", f"--window-size={2 * SIZE},{2 * SIZE}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        with tempfile.TemporaryDirectory() as workdir:
            for index, (fen, extra, covered) in enumerate(CASES):
                path = check_case(driver, args.binary, workdir, index, fen, extra, covered)
                if args.screenshot and index == 1:
                    driver.get(path.as_uri())
                    driver.find_element(By.TAG_NAME, "svg").screenshot(args.screenshot)
                    print(f"screenshot of case 1 written to {args.screenshot}")
    finally:
        driver.quit()
    print(f"all {len(CASES)} pictures as the FENs say")


if __name__ == "__main__":
    main()
