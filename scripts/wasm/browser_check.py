#!/usr/bin/env python3
"""The web app exported as static files (scripts/wasm/export.sh: the pages of
`fianchetto gui`, the app in Web Workers) in headless Chromium driven by
Selenium, served by `python3 -m http.server`: every check of
scripts/gui/browser_test.py (a game by clicks with the engine answering from
its worker, Stop making it move now, Analyse streaming lines, the Learn
charts, no console errors, screenshots), then the time from page load to the
app's first state and to the engine's first move (it plays White at depth 6),
and with --bench the engine's nodes per second in the page (one thread) on
fixed searches, both builds, and the native binary's on the same searches.

    python3 scripts/wasm/browser_check.py [--site DIR] [--out DIR] [--bench [--native BIN]]

Without --site the app is exported into a temporary folder first.
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


def console_errors(d):
    return [e["message"] for e in d.get_log("browser") if e["level"] == "SEVERE"]


def timings(d, url):
    """Page load to the first state, and to the engine's first move when it
    plays White at depth 6 (chosen as soon as the page is ready), in ms
    since the page's navigation started, as the page's clock reads them."""
    d.get(url)
    wait("the first state", lambda: data(d, "ready"))
    ready = d.execute_script("return performance.now()")
    d.find_element(By.CSS_SELECTOR, '#limit option[value="depth"]').click()
    box = d.find_element(By.ID, "limit-value")
    box.clear()
    box.send_keys("6\n")
    wait("the depth setting", lambda: box.get_attribute("value") == "6")
    d.find_element(By.CSS_SELECTOR, '#engine option[value="white"]').click()
    wait("the engine's first move", lambda: d.execute_script(
        "return document.querySelectorAll('#moves li span:not(.num)').length") >= 1)
    moved = d.execute_script("return performance.now()")
    return ready, moved, data(d, "wasm")


def main():
    root_target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    ap = argparse.ArgumentParser()
    ap.add_argument("--site", help="the exported app (default: exported into a temporary folder)")
    ap.add_argument("--out", default=tempfile.gettempdir(), help="folder for the screenshots")
    ap.add_argument("--bench", action="store_true", help="time the engine in the page")
    ap.add_argument("--native", default=os.path.join(root_target, "release", "fianchetto"),
                    help="with --bench: the native binary timed on the same searches")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    scratch = tempfile.mkdtemp()
    site = args.site
    if not site:
        site = os.path.join(scratch, "site")
        subprocess.run([os.path.join(HERE, "export.sh"), site], check=True, stdout=subprocess.DEVNULL)
    suite = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "gui", "browser_test.py"),
                            "--site", site, "--out", args.out])
    failures = suite.returncode != 0
    profile = os.path.join(scratch, "profile")
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
                              cwd=site, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    d = None
    try:
        d = browser(profile)
        url = f"http://127.0.0.1:{port}/index.html"
        wait("the server", lambda: serving(port))
        for _ in range(3):
            ready, moved, build = timings(d, url)
            print(f"page load to the first state: {ready:.0f} ms; to the engine's first move (depth 6): {moved:.0f} ms ({build} build)")
        errors = console_errors(d)
        if errors:
            failures = True
            print(f"console errors: {errors}")

        if args.bench:
            for simd in [True, False]:
                total_nodes = total_ms = 0
                name = "simd128" if simd else "scalar"
                for fen, depth in BENCH:
                    d.get(url)
                    r = d.execute_async_script(
                        """const [fen, depth, simd, done] = arguments;
                        import("./pkg/load.js").then((l) => l.default(simd)).then(() => import("./pkg/fianchetto_wasm.js")).then((m) => {
                          const engine = new m.Engine();
                          const board = new m.Board(fen);
                          const t = performance.now();
                          const r = engine.search(board, { depth });
                          done(JSON.stringify({ bestmove: r.bestmove, nodes: r.nodes, ms: performance.now() - t }));
                        }).catch((e) => done(JSON.stringify({ error: String(e) })));""", fen, depth, simd)
                    r = json.loads(r)
                    if "error" in r:
                        raise RuntimeError(r["error"])
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
    finally:
        if d is not None:
            d.quit()
        server.terminate()
        server.wait()
        shutil.rmtree(scratch, ignore_errors=True)
    if failures:
        print("the static app failed a check", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
