#!/usr/bin/env python3
"""`fianchetto gui` in a real browser: headless Chromium driven by Selenium.

Starts the app on a free port, then checks what a user sees:

- the page loads without console errors (the board is the board
  library's picture: 64 squares with data-square, 32 pieces with data-piece);
- flip turns the board;
- a game played by clicks (e2, then e4): the engine answers with a legal
  move, and the board shows the position python-chess reaches;
- an illegal click (e2, then e5) changes nothing;
- a move by drag and drop (g1 to f3);
- Stop while the engine thinks (a minute a move) makes it move at once;
- a pasted malformed FEN shows an error and changes nothing;
- the analysis shows lines;
- the Learn chart appears for the start position.

Screenshots of the three views are saved in --out. Prints how long the app
took to answer its first request, and a closing `N passed, N failed` line.

    python3 scripts/gui/browser_test.py --exe target/release/fianchetto --out /tmp/gui

With --site DIR, the same checks run on the app exported as static files
(scripts/wasm/export.sh DIR: the same pages, the app in Web Workers),
served by `python3 -m http.server`; it prints the time from loading the
page to its first state instead.

Needs Debian's chromium and chromium-driver (/usr/bin/chromium,
/usr/bin/chromedriver) and `pip install selenium chess`.
"""

import argparse
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.request

import chess
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

# What Chromium logs for a request the server refused on purpose (the
# malformed FEN gets a 400): expected, not an error of the page.
EXPECTED_REFUSAL = re.compile(r"Failed to load resource: the server responded with a status of 4\d\d")


def start_app(exe):
    """Starts `fianchetto gui` on a free port; returns the process, its
    URL and the seconds until the page answered."""
    started = time.monotonic()
    proc = subprocess.Popen(
        [exe, "gui", "--port", "0", "--no-open"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    line = proc.stdout.readline()
    match = re.search(r"(http://\S+/)", line)
    if not match:
        proc.kill()
        raise RuntimeError(f"no address in the app's first line: {line!r}")
    url = match.group(1)
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as reply:
                if reply.status == 200 and b"<svg" in reply.read():
                    break
        except OSError:
            pass
        if time.monotonic() - started > 60:
            proc.kill()
            raise RuntimeError("the page did not answer within 60 s")
        time.sleep(0.005)
    return proc, url, time.monotonic() - started


def serve_site(site):
    """Serves the static export in `site` on a free port; returns the
    process, its URL and 0 (the first state is timed in the page)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "http.server", "-b", "127.0.0.1", "-d", site, str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/"
    started = time.monotonic()
    while True:
        try:
            urllib.request.urlopen(url, timeout=5).close()
            break
        except OSError:
            if time.monotonic() - started > 30:
                proc.kill()
                raise RuntimeError(f"the static server for {site} did not answer within 30 s")
            time.sleep(0.05)
    return proc, url, 0.0


def browser(profile):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        f"--user-data-dir={profile}",
        "--window-size=1400,1000",
    ]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


class Page:
    def __init__(self, driver, url):
        self.d = driver
        self.url = url
        self.errors = []

    def wait(self, what, predicate, timeout=60):
        try:
            return WebDriverWait(self.d, timeout, poll_frequency=0.05).until(lambda d: predicate())
        except TimeoutException:
            raise AssertionError(f"timed out waiting for {what}") from None

    def square(self, name):
        return self.d.find_element(By.CSS_SELECTOR, f'rect[data-square="{name}"]')

    def click(self, name):
        # The board is redrawn on every update: find the square again if
        # it was replaced under the click.
        for _ in range(10):
            try:
                self.square(name).click()
                return
            except StaleElementReferenceException:
                time.sleep(0.05)
        raise AssertionError(f"could not click {name}")

    def pieces(self):
        """The board as drawn: {square: "wP", ...}."""
        return self.d.execute_script(
            "const out = {};"
            "for (const p of document.querySelectorAll('#board [data-piece]'))"
            "  out[p.dataset.at] = p.dataset.piece;"
            "return out;"
        )

    def revision(self):
        return int(self.d.find_element(By.TAG_NAME, "body").get_attribute("data-revision") or -1)

    def moves(self):
        """The move list as shown (read in one go: the page redraws it on
        every update)."""
        return self.d.execute_script(
            "return Array.from(document.querySelectorAll('#moves li span:not(.num)'))"
            "  .map((s) => s.textContent).filter((t) => t !== '…');"
        )

    def text(self, id):
        return self.d.execute_script(f"return document.getElementById('{id}').textContent;")

    def status(self):
        return self.text("status")

    def count(self, selector):
        return self.d.execute_script(f"return document.querySelectorAll('{selector}').length;")

    def message(self):
        return self.d.execute_script(
            "const m = document.getElementById('message'); return m.hidden ? '' : m.textContent;"
        )

    def view(self, name):
        self.d.find_element(By.CSS_SELECTOR, f'#views button[data-view="{name}"]').click()

    def console_errors(self):
        """Console errors logged since the last call, less expected refusals."""
        found = []
        for entry in self.d.get_log("browser"):
            if entry["level"] == "SEVERE" and not EXPECTED_REFUSAL.search(entry["message"]):
                found.append(entry["message"])
        return found


def board_of(pieces):
    """python-chess's piece map from the page's {square: "wP"}."""
    out = {}
    for sq, code in pieces.items():
        symbol = code[1] if code[0] == "w" else code[1].lower()
        out[chess.parse_square(sq)] = chess.Piece.from_symbol(symbol)
    return out


def test_loads(p):
    p.d.get(p.url)
    p.wait("the first state", lambda: p.d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")
    assert len(p.d.find_elements(By.CSS_SELECTOR, "rect[data-square]")) == 64
    pieces = p.pieces()
    assert len(pieces) == 32 and pieces["e1"] == "wK" and pieces["d8"] == "bQ", pieces
    test_no_console_errors(p)


def test_no_console_errors(p):
    errors = p.console_errors()
    assert not errors, f"console errors: {errors}"


def test_flip(p):
    a1 = lambda: p.d.execute_script(
        "return document.querySelector('#board rect[data-square=\"a1\"]').getAttribute('y');")
    assert a1() == "700"
    p.d.find_element(By.ID, "flip").click()
    p.wait("a1 at the top", lambda: a1() == "0")
    assert p.pieces()["e1"] == "wK", "the pieces keep their squares"
    p.d.find_element(By.ID, "flip").click()
    p.wait("a1 at the bottom", lambda: a1() == "700")


def test_illegal_click_changes_nothing(p):
    before, revision = p.pieces(), p.revision()
    p.click("e2")
    p.wait("the targets of e2", lambda: p.count("#board [data-target]") == 2)
    p.click("e5")  # not a legal target of e2
    time.sleep(0.3)
    assert p.pieces() == before, "an illegal click moved a piece"
    assert p.revision() == revision, "an illegal click reached the server"
    p.click("e7")  # the opponent's pawn: nothing to select
    assert p.count("#board [data-target]") == 0
    assert p.pieces() == before


def test_play_by_clicks(p):
    # Quick replies: depth 3.
    p.d.find_element(By.CSS_SELECTOR, '#limit option[value="depth"]').click()
    value = p.d.find_element(By.ID, "limit-value")
    value.clear()
    value.send_keys("3\n")
    p.wait("the depth setting", lambda: "3" == value.get_attribute("value"))
    p.click("e2")
    p.click("e4")
    p.wait("the engine's reply", lambda: len(p.moves()) == 2 and "thinking" not in p.status())
    moves = p.moves()
    assert moves[0] == "e4", moves
    board = chess.Board()
    for san in moves:
        board.push_san(san)  # raises on an illegal move
    shown = board_of(p.pieces())
    assert shown == board.piece_map(), f"the board shows {p.pieces()} after {moves}"
    return moves


def test_drag_and_drop(p):
    ActionChains(p.d).drag_and_drop(p.square("g1"), p.square("f3")).perform()
    p.wait("the knight on f3", lambda: p.pieces().get("f3") == "wN")
    p.wait("the engine's reply", lambda: len(p.moves()) == 4 and "thinking" not in p.status())


def set_limit(p, kind, value):
    p.d.find_element(By.CSS_SELECTOR, f'#limit option[value="{kind}"]').click()
    box = p.d.find_element(By.ID, "limit-value")
    box.clear()
    box.send_keys(f"{value}\n")
    p.wait(f"the {kind} setting", lambda: str(value) == box.get_attribute("value"))


def test_stop_makes_the_engine_move_now(p):
    # A minute per move, cut short by Stop: the engine plays what it has.
    set_limit(p, "time", 60000)
    plies = len(p.moves())
    p.click("b2")
    p.click("b3")
    p.wait("the engine thinking", lambda: len(p.moves()) == plies + 1 and "thinking" in p.status())
    time.sleep(1.0)
    started = time.monotonic()
    p.d.find_element(By.ID, "stop").click()
    p.wait("the engine's move", lambda: len(p.moves()) == plies + 2, 10)
    assert time.monotonic() - started < 10
    set_limit(p, "depth", 3)


def test_malformed_fen(p):
    p.view("play")
    before, moves = p.pieces(), p.moves()
    box = p.d.find_element(By.ID, "load-text")
    box.clear()
    box.send_keys("rnbqkbnr/pppppppp/8/8 w KQkq")
    p.d.find_element(By.ID, "load-fen").click()
    p.wait("the error message", lambda: "invalid FEN" in p.message())
    assert p.pieces() == before and p.moves() == moves


def analysis_depth(p):
    found = re.search(r"depth (\d+)", p.text("analysis-summary"))
    return int(found.group(1)) if found else 0


def test_analyse(p, out):
    p.view("analyse")
    p.d.find_element(By.ID, "analyse-start").click()
    p.wait("three analysis lines", lambda: p.count("#lines li") >= 3)
    p.wait("depth 8", lambda: analysis_depth(p) >= 8)
    p.d.save_screenshot(os.path.join(out, "analyse.png"))
    p.d.find_element(By.ID, "analyse-stop").click()
    p.wait("the analysis to stop", lambda: "(running)" not in p.text("analysis-summary"))


def test_learn(p, out):
    p.view("play")
    p.d.find_element(By.ID, "new-game").click()
    p.wait("the start position", lambda: len(p.moves()) == 0)
    p.view("learn")
    for field, value in [("learn-depth", "4"), ("ablation-depth", "6")]:
        box = p.d.find_element(By.ID, field)
        box.clear()
        box.send_keys(value)
    p.d.find_element(By.ID, "learn-run").click()
    p.wait("the first bar", lambda: p.count("#learn-chart .row .bar.nodes") > 0)
    p.wait("every algorithm's bar", lambda: p.count("#learn-chart .row") == 9, 120)
    p.wait("the ablation's bars", lambda: p.count("#ablation-chart .row") == 17, 300)
    names = p.d.execute_script(
        "return Array.from(document.querySelectorAll('#learn-chart .row')).map((r) => r.dataset.name);"
    )
    assert names[0] == "minimax" and "Scout" in names, names
    summary = p.text("learn-summary")
    assert "position on the board" in summary, summary
    # The whole chart in the picture.
    p.d.set_window_size(1400, 2400)
    p.d.save_screenshot(os.path.join(out, "learn.png"))
    p.d.set_window_size(1400, 1000)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--exe", default="target/release/fianchetto")
    ap.add_argument("--site", help="a static export of the app (scripts/wasm/export.sh) to test instead")
    ap.add_argument("--out", default=tempfile.gettempdir(), help="folder for the screenshots")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if args.site:
        proc, url, _ = serve_site(args.site)
        print(f"the static app is served at {url}")
    else:
        proc, url, answered = start_app(args.exe)
        print(f"the app answered at {url} {answered * 1000:.0f} ms after it was started")
    passed = failed = 0
    profile = tempfile.TemporaryDirectory(prefix="fianchetto-chromium-")
    driver = None
    try:
        driver = browser(profile.name)
        p = Page(driver, url)
        tests = [
            ("the page loads without console errors", lambda: test_loads(p)),
            ("flip turns the board", lambda: test_flip(p)),
            ("an illegal click changes nothing", lambda: test_illegal_click_changes_nothing(p)),
            ("a game by clicks: e2, e4, and a legal reply on the board", lambda: test_play_by_clicks(p)),
            ("a move by drag and drop", lambda: test_drag_and_drop(p)),
            ("Stop makes the engine move now", lambda: test_stop_makes_the_engine_move_now(p)),
            ("a screenshot of Play", lambda: driver.save_screenshot(os.path.join(args.out, "play.png"))),
            ("a malformed FEN shows an error", lambda: test_malformed_fen(p)),
            ("the analysis shows lines", lambda: test_analyse(p, args.out)),
            ("the Learn chart for the start position", lambda: test_learn(p, args.out)),
            ("no console errors at the end", lambda: test_no_console_errors(p)),
        ]
        for name, test in tests:
            started = time.monotonic()
            try:
                test()
                passed += 1
                print(f"ok      {name} ({time.monotonic() - started:.1f} s)")
            except Exception:  # every failure is reported, then the next test runs
                failed += 1
                print(f"FAILED  {name}")
                traceback.print_exc(file=sys.stdout)
                driver.save_screenshot(os.path.join(args.out, "failure.png"))
    finally:
        if driver:
            driver.quit()
        proc.kill()
        proc.wait()
        profile.cleanup()
    print(f"screenshots in {args.out}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
