#!/usr/bin/env python3
"""The package in a real browser: the static page of scripts/wasm/page with the
package built by scripts/wasm/build.sh, served by `python3 -m http.server`, in
headless Chromium driven by Selenium. A game by clicks with the engine
answering from its Web Worker, Analyse streaming lines and Stop ending it,
Learn comparing the algorithms, no console errors, screenshots; it prints the time from page load to the
engine being ready and to its first move, and with --bench the engine's
nodes per second in the page (one thread) on fixed searches, both builds,
and the native binary's on the same searches.

    python3 scripts/wasm/browser_check.py [--pkg target/wasm-pkg] [--out DIR] [--bench [--native BIN]]
"""
import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# The searches --bench times, as scripts/wasm/bench.mjs does in Node.js.
BENCH = [
    ("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", 16),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 13),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 22),
]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serving(port):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def browser(profile):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-dev-shm-usage",
                 f"--user-data-dir={profile}", "--window-size=1300,900"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def wait(what, predicate, timeout=60):
    end = time.time() + timeout
    while time.time() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def data(d, name):
    return d.execute_script(f"return document.body.dataset.{name} || null")


def click(d, square):
    rect = d.find_element(By.CSS_SELECTOR, f'#board [data-square="{square}"]')
    webdriver.ActionChains(d).move_to_element(rect).click().perform()


def console_errors(d):
    return [e["message"] for e in d.get_log("browser") if e["level"] == "SEVERE"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pkg", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "wasm-pkg"))
    ap.add_argument("--out", default=tempfile.gettempdir(), help="folder for the screenshot")
    ap.add_argument("--bench", action="store_true", help="time the engine in the page")
    ap.add_argument("--native", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release", "fianchetto"),
                    help="with --bench: the native binary timed on the same searches")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    site = tempfile.mkdtemp()
    profile = tempfile.mkdtemp()
    shutil.copytree(os.path.join(HERE, "page"), site, dirs_exist_ok=True)
    shutil.copytree(args.pkg, os.path.join(site, "pkg"))
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
                              cwd=site, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    d = None
    failures = 0
    try:
        d = browser(profile)
        url = f"http://127.0.0.1:{port}/index.html"
        wait("the server", lambda: serving(port))

        # The engine plays white: page load to its first move.
        d.get(url + "?engine=w&depth=6")
        wait("the engine's first move", lambda: data(d, "firstMoveMs"))
        build = "simd128" if data(d, "simd") == "true" else "scalar"
        print(f"page load to engine ready: {data(d, 'readyMs')} ms; to its first move (depth 6): {data(d, 'firstMoveMs')} ms ({build} build)")

        checks = []

        def check(name, f):
            nonlocal failures
            try:
                f()
                checks.append(f"ok   {name}")
            except Exception as e:  # a failed check is reported, the others still run
                failures += 1
                checks.append(f"FAIL {name}: {e}")

        d.get(url)
        wait("the page", lambda: data(d, "ready"))

        def play_by_clicks():
            for frm, to, plies in [("e2", "e4", 2), ("g1", "f3", 4), ("f1", "c4", 6)]:
                click(d, frm)
                click(d, to)
                wait(f"the engine's answer to {frm}{to}", lambda: data(d, "plies") == str(plies), 60)
            fen = data(d, "fen")
            assert " w " in fen, fen
            moves = d.find_element(By.ID, "moves").text
            assert moves.startswith("1. e4 ") and " 2. Nf3 " in moves and " 3. Bc4 " in moves, moves

        check("a game by clicks, the engine answering from its worker", play_by_clicks)

        def illegal_click():
            before = data(d, "fen")
            click(d, "e4")
            click(d, "e6")
            time.sleep(0.3)
            assert data(d, "fen") == before

        check("an illegal move by clicks changes nothing", illegal_click)

        def analyse_and_stop():
            before = int(data(d, "infos") or 0)
            d.find_element(By.ID, "analyse").click()
            wait("Analyse streaming lines", lambda: int(data(d, "infos") or 0) >= before + 5, 60)
            assert data(d, "analysing") == "1"
            time.sleep(1.0)
            d.find_element(By.ID, "stop").click()
            wait("Stop ending the analysis", lambda: data(d, "analysing") == "0", 30)
            lines = d.find_elements(By.CSS_SELECTOR, "#lines li")
            assert len(lines) >= 5, len(lines)
            d.save_screenshot(os.path.join(args.out, "wasm-page.png"))

        check("Analyse streams lines, Stop ends it", analyse_and_stop)

        def learn():
            d.find_element(By.ID, "learn-depth").clear()
            d.find_element(By.ID, "learn-depth").send_keys("3")
            d.find_element(By.ID, "learn").click()
            wait("the Learn table", lambda: data(d, "learned"), 120)
            rows = {}
            for tr in d.find_elements(By.CSS_SELECTOR, "#learn-table tbody tr"):
                cells = [td.text for td in tr.find_elements(By.TAG_NAME, "td")]
                rows[cells[0]] = int(cells[1].replace(",", ""))
            assert set(rows) == {"pvs", "alphabeta", "scout", "minimax"}, rows
            assert rows["minimax"] > rows["alphabeta"] > 0 and rows["pvs"] > 0, rows
            d.save_screenshot(os.path.join(args.out, "wasm-learn.png"))

        check("Learn: every algorithm's nodes to the same depth", learn)

        def no_console_errors():
            errors = console_errors(d)
            assert not errors, errors

        check("no console errors", no_console_errors)
        print("\n".join(checks))

        if args.bench:
            for build in ["1", "0"]:
                d.get(url + f"?engine=none&simd={build}")
                wait("the page", lambda: data(d, "ready"))
                name = "simd128" if data(d, "simd") == "true" else "scalar"
                assert (name == "simd128") == (build == "1"), name
                total_nodes = total_ms = 0
                for fen, depth in BENCH:
                    r = d.execute_async_script(
                        """const [fen, depth, done] = arguments;
                        import("./pkg/fianchetto_wasm.js").then((m) => {
                          const engine = new m.Engine();
                          const board = new m.Board(fen);
                          const t = performance.now();
                          const r = engine.search(board, { depth });
                          done(JSON.stringify({ bestmove: r.bestmove, nodes: r.nodes, ms: performance.now() - t }));
                        }).catch((e) => done(JSON.stringify({ error: String(e) })));""", fen, depth)
                    r = json.loads(r)
                    nps = r["nodes"] / r["ms"] * 1000
                    print(f"chromium {name} depth {depth} {fen}: {r['bestmove']} {r['nodes']} nodes {r['ms']:.0f} ms {nps:,.0f} nodes/s")
                    total_nodes += r["nodes"]
                    total_ms += r["ms"]
                print(f"chromium {name} total: {total_nodes:,} nodes, {total_nodes / total_ms * 1000:,.0f} nodes/s")
            if os.path.exists(args.native):
                total_nodes = total_s = 0
                for fen, depth in BENCH:
                    out = subprocess.run([args.native, "analyse", "--fen", fen, "--depth", str(depth), "--hash", "16"],
                                         capture_output=True, text=True, check=True).stdout
                    m = re.search(r"info string (\d+) nodes \d+ evals \d+ nps in ([\d.]+) s", out)
                    total_nodes += int(m.group(1))
                    total_s += float(m.group(2))
                print(f"native total: {total_nodes:,} nodes, {total_nodes / total_s:,.0f} nodes/s")
        print(f"screenshot: {os.path.join(args.out, 'wasm-page.png')}")
    finally:
        if d is not None:
            d.quit()
        server.terminate()
        server.wait()
        shutil.rmtree(site, ignore_errors=True)
        shutil.rmtree(profile, ignore_errors=True)
    if failures:
        print(f"{failures} check(s) failed", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
