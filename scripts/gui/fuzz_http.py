#!/usr/bin/env python3
"""Random and hostile HTTP requests against `fianchetto gui`: the app must
answer each (or drop the connection) and stay up.

Starts the app on a free port, opens a session, then sends --requests
requests: the app's own requests with random parameters (moves, FENs, PGNs,
settings, numbers out of range, broken percent-encoding), and raw byte
strings (a head that never ends, a body of 100 GB declared and three bytes
sent, a negative length, a chunked body, an unknown method, binary noise).
Every 50 requests it checks that `/api/options` still answers 200. At the
end it checks that the process is alive and never panicked, and prints
`N requests, N failures`; the exit status is 1 on any failure.

    python3 scripts/gui/fuzz_http.py --exe target/release/fianchetto --requests 2000

The app's HTTP was tiny_http until this found that one request declaring a
huge body killed it (docs/gui.md, "Transport"). Only the standard library
is needed (and measure.py beside it, for starting the app).
"""

import argparse
import random
import socket
import subprocess
import sys
import time
import urllib.parse

from measure import call, start_app

KEYS = ["session", "fen", "pgn", "move", "engine", "algo", "eval", "limit", "value",
        "multipv", "learn_depth", "ablation_depth"]
VALUES = ["e2e4", "e7e8q", "a", "", "%", "%zz", "%00", "999999999999999999999", "-1", "0", "1",
          "3", "depth", "time", "elo", "both", "white", "none", "pvs", "mcts", "minimax", "nnue",
          "classical", "material", "8/8/8/8/8/8/8/K6k w - - 0 1", "1. e4 e5 2. Nf3 *",
          "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "\xff\xfe", "(((("]
PATHS = ["/api/new", "/api/move", "/api/undo", "/api/settings", "/api/go", "/api/analyse",
         "/api/stop", "/api/learn", "/api/flip", "/api/state", "/api/pgn", "/", "/api/options",
         "/x", "/api/", "//api/move"]
GETS = {"/api/state", "/api/pgn", "/", "/api/options"}


def exchange(port, data, timeout=5.0):
    """Sends `data`, returns what comes back until the app closes (or the
    timeout); b"" when the connection fails."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            try:
                s.sendall(data)
            except OSError:
                pass  # the app may refuse before reading everything
            reply = b""
            while len(reply) < 4_000_000:
                try:
                    chunk = s.recv(65536)
                except OSError:
                    break
                if not chunk:
                    break
                reply += chunk
            return reply
    except OSError:
        return b""


def request(port, method, path, body=b"", query=""):
    target = path + ("?" + query if query else "")
    head = f"{method} {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n"
    if method == "POST":
        head += ("Content-Type: application/x-www-form-urlencoded\r\n"
                 f"Content-Length: {len(body)}\r\n")
    return exchange(port, (head + "\r\n").encode("latin-1") + body)


def hostile(rng, port):
    host = f"Host: 127.0.0.1:{port}\r\n".encode()
    return rng.choice([
        b"GET / HTTP/1.1\r\n" + host + b"X: " + b"a" * rng.randint(0, 300_000) + b"\r\n\r\n",
        b"\x00\x01\x02" * rng.randint(1, 3000),
        b"POST /api/move HTTP/1.1\r\n" + host + b"Content-Length: 99999999999\r\n\r\nabc",
        b"POST /api/move HTTP/1.1\r\nContent-Length: 99999999999\r\n\r\nabc",
        b"POST /api/move HTTP/1.1\r\n" + host + b"Content-Length: -5\r\n\r\n",
        b"POST /api/new HTTP/1.1\r\n" + host + b"Transfer-Encoding: chunked\r\n\r\n5\r\nfen=x\r\n0\r\n\r\n",
        b"GET " + b"/a" * rng.randint(1, 50_000) + b" HTTP/1.1\r\n" + host + b"\r\n",
        b"BREW /api/go HTTP/1.1\r\n" + host + b"\r\n",
        b"GET / HTTP/1.1\r\n",
        b"POST /api/new HTTP/1.1\r\n" + host + b"Content-Length: 10\r\n\r\nfen=%",
        b"GET / HTTP/1.1\r\n" + b"".join(b"X-%d: 1\r\n" % i for i in range(200)) + b"\r\n",
    ])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--exe", required=True)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    app, url, _ = start_app(args.exe, stderr=subprocess.PIPE)
    port = int(urllib.parse.urlsplit(url).port)
    session = call(url, "/api/session")["session"]
    failures = 0
    sent = 0
    for sent in range(1, args.requests + 1):
        if rng.random() < 0.75:
            pairs = [(rng.choice(KEYS), rng.choice(VALUES)) for _ in range(rng.randint(0, 4))]
            if rng.random() < 0.8:
                pairs.insert(0, ("session", session))
            form = "&".join(f"{k}={urllib.parse.quote(v) if rng.random() < 0.7 else v}"
                            for k, v in pairs)
            path = rng.choice(PATHS)
            if path in GETS:
                request(port, "GET", path, query=form.encode("utf-8", "replace").decode("latin-1"))
            else:
                request(port, "POST", path, body=form.encode("utf-8", "replace"))
        else:
            exchange(port, hostile(rng, port), timeout=3.0)
        if app.poll() is not None:
            print(f"the app died after request {sent}")
            failures += 1
            break
        if sent % 50 == 0:
            status = request(port, "GET", "/api/options").split(b"\r\n", 1)[0]
            if b" 200 " not in status:
                print(f"after request {sent}: /api/options answered {status!r}")
                failures += 1
    request(port, "POST", "/api/stop", body=f"session={session}".encode())
    time.sleep(0.5)
    alive = app.poll() is None
    app.terminate()
    _, err = app.communicate(timeout=30)
    if not alive and failures == 0:
        failures += 1
    if "panicked" in err:
        print(err[-2000:])
        failures += 1
    print(f"{sent} requests, {failures} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
