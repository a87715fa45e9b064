"""fianchetto.pgn: reading from paths and file objects, annotations, errors
per game, the writer, and the same games as python-chess reads them."""

import io
import os
import random
import re
import threading
import time

import chess
import chess.engine
import chess.pgn
import pytest

import fianchetto
from fianchetto import pgn
from conftest import MOVEGEN_DATA

PGN_DIR = MOVEGEN_DATA / "pgn"


def test_read_a_path_and_file_objects_alike():
    path = PGN_DIR / "commands.pgn"
    text = path.read_text()
    by_path = [g.moves for g in pgn.read(path)]
    by_str = [g.moves for g in pgn.read(str(path))]
    by_text = [g.moves for g in pgn.read(io.StringIO(text))]
    by_bytes = [g.moves for g in pgn.read(io.BytesIO(text.encode()))]
    with open(path, "rb") as f:
        by_file = [g.moves for g in pgn.read(f)]
    assert len(by_path) == 3
    assert by_path == by_str == by_text == by_bytes == by_file


def test_headers_moves_comments_clocks_evals():
    games = list(pgn.read(PGN_DIR / "commands.pgn"))
    g = games[0]
    assert g.error is None
    assert g.headers["Event"] == "lichess clocks and evals"
    assert g.headers["TimeControl"] == "300+3"
    assert g.result == "1-0"
    assert g.san_moves[:4] == ["e4", "e5", "Nf3", "Nc6"]
    assert g.moves[:2] == ["e2e4", "e7e5"]
    assert g.clocks[:3] == [300.0, 300.0, 298.0]
    assert g.clocks[-1] is None
    assert g.evals[0] == g.evals[0] and g.evals[0].cp == 17 and g.evals[0].mate is None
    assert g.evals[5].mate == 3 and g.evals[5].cp is None
    assert g.evals[6].mate == 2 and g.evals[6].depth == 12
    assert g.evals[-1].cp == 531 and g.evals[-1].depth == 30
    assert g.comments[5] == ["Blunder. d6 was best."]
    assert g.nags[5] == [4]
    assert g.end().fen() == chess.pgn.read_game(io.StringIO((PGN_DIR / "commands.pgn").read_text())).end().board().fen()
    assert g.board().fen() == fianchetto.STARTING_FEN
    assert "vs" in repr(g)
    third = games[2]
    assert third.comments == [["+0.35/20 1.2s"], ["-0.20/18 0.9s"], ["book"]]
    assert third.result == "*"


def test_variations():
    g = pgn.parse("1. e4 e5 (1... c5 2. Nf3 (2. c3 d5) 2... d6) (1... e6) 2. Nf3 *")
    alts = g.variations(1)
    assert [v.san_moves for v in alts] == [["c5", "Nf3", "d6"], ["e6"]]
    assert alts[0].moves == ["c7c5", "g1f3", "d7d6"]
    assert alts[0].board().fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert [v.san_moves for v in alts[0].variations(1)] == [["c3", "d5"]]
    assert g.variations(0) == []
    with pytest.raises(IndexError):
        g.variations(9)
    no_vars = next(pgn.read(io.StringIO("1. e4 e5 (1... c5) 2. Nf3 *"), variations=False))
    assert no_vars.variations(1) == [] and no_vars.san_moves == ["e4", "e5", "Nf3"]
    no_comments = next(pgn.read(io.StringIO("1. e4 {hi} e5 *"), comments=False))
    assert no_comments.comments == [[], []]


def test_errors_per_game_do_not_stop_the_stream():
    text = "1. e4 e5 *\n\n1. e4 Ke7 *\n\n[White \"x\"]\n\n1. d4 d5 *\n\n1. Nf3 {open *\n\n[White \"y\"]\n\n1. c4 *\n"
    games = list(pgn.read(io.StringIO(text)))
    assert [g.error is None for g in games] == [True, False, True, False, True]
    bad = games[1].error
    assert isinstance(bad, fianchetto.PgnError) and isinstance(bad, ValueError)
    assert "game 2" in str(bad) and "Ke7" in str(bad)
    assert "not closed" in str(games[3].error)
    with pytest.raises(fianchetto.PgnError):
        games[1].moves
    assert games[4].headers["White"] == "y"
    reader = pgn.read(io.StringIO(text), raise_errors=True)
    assert next(reader).moves == ["e2e4", "e7e5"]
    with pytest.raises(fianchetto.PgnError, match="Ke7"):
        next(reader)
    assert next(reader).headers["White"] == "x"  # reading goes on
    assert reader.games_read >= 3 and reader.errors == 1
    with pytest.raises(fianchetto.PgnError):
        pgn.parse("1. e4 e4 *")


def test_bad_sources():
    with pytest.raises(FileNotFoundError):
        pgn.read("/nonexistent/games.pgn")
    with pytest.raises(TypeError):
        pgn.read(42)

    class Broken:
        def read(self, n):
            raise RuntimeError("disk on fire")

    with pytest.raises(OSError, match="disk on fire"):
        next(pgn.read(Broken()))

    class Weird:
        def read(self, n):
            return 3

    with pytest.raises(OSError, match="neither bytes nor str"):
        next(pgn.read(Weird()))
    assert list(pgn.read(io.StringIO(""))) == []


def test_writer_round_trip(tmp_path):
    b = fianchetto.Board()
    for san in ["f3", "e5", "g4", "Qh4#"]:
        b.push_san(san)
    game = pgn.Game.from_board(b, {"White": "Fool", "Black": "Mate"})
    game.set_header("Event", "test")
    text = game.to_pgn()
    assert '[White "Fool"]' in text and "1. f3 e5 2. g4 Qh4# 0-1" in text
    out = tmp_path / "out.pgn"
    with pgn.Writer(out) as w:
        w.write(game)
        w.write(pgn.parse(text))
    again = list(pgn.read(out))
    assert len(again) == 2 and all(g.moves == b.move_stack for g in again)
    assert again[0].headers["Event"] == "test" and again[0].result == "0-1"
    buf = io.StringIO()
    w = pgn.Writer(buf)
    w.write(game)
    w.close()
    assert buf.getvalue() == text + "\n"
    closed = pgn.Writer(str(tmp_path / "y.pgn"))
    closed.close()
    with pytest.raises(ValueError, match="closed"):
        closed.write(game)
    with pytest.raises(fianchetto.PgnError):
        pgn.Writer(buf).write(pgn.read(io.StringIO("1. e4 Ke7 *")).__next__())
    with pytest.raises(OSError):
        pgn.Writer("/nonexistent/dir/x.pgn")
    c960 = fianchetto.Board("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", chess960=True)
    c960.push_san("O-O")
    g960 = pgn.parse(pgn.Game.from_board(c960).to_pgn())
    assert g960.moves == ["e1h1"] and g960.san_moves == ["O-O"]


def random_database(n, seed):
    """A PGN text of `n` random games written by python-chess, with clocks,
    evaluations, comments, NAGs and variations."""
    rng = random.Random(seed)
    out = io.StringIO()
    for i in range(n):
        game = chess.pgn.Game()
        game.headers["Event"] = f"random {i}"
        game.headers["White"] = rng.choice(["Ann", "Bob", "Zwölf, Jürgen"])
        node = game
        board = chess.Board()
        for ply in range(rng.randrange(5, 80)):
            if board.is_game_over():
                break
            moves = list(board.legal_moves)
            move = rng.choice(moves)
            child = node.add_main_variation(move)
            if ply > 2 and rng.random() < 0.1 and len(moves) > 1:
                alt = node.add_variation(rng.choice([m for m in moves if m != move]))
                alt.comment = "another try"
            node = child
            board.push(move)
            if rng.random() < 0.5:
                node.set_clock(rng.randrange(0, 600))
            if rng.random() < 0.3:
                node.set_eval(chess.engine.PovScore(chess.engine.Cp(rng.randrange(-500, 500)), chess.WHITE))
            if rng.random() < 0.1:
                node.comment = (node.comment + " a remark").strip()
            if rng.random() < 0.05:
                node.nags.add(rng.choice([1, 2, 3, 4, 5, 6]))
        game.headers["Result"] = board.result(claim_draw=True)
        print(game, file=out, end="\n\n")
    return out.getvalue()


def their_comment(node):
    """python-chess's comment text with its commands taken out."""
    text = node.comment
    return re.sub(r"\s*\[%(clk|eval)[^\]]*\]\s*", " ", text).strip()


def test_a_database_read_alike_by_both(tmp_path):
    text = random_database(150, seed=7)
    path = tmp_path / "random.pgn"
    path.write_text(text)
    ours = list(pgn.read(path))
    theirs = []
    with open(path) as f:
        while (g := chess.pgn.read_game(f)) is not None:
            theirs.append(g)
    assert len(ours) == len(theirs) == 150
    for o, t in zip(ours, theirs):
        assert o.error is None
        assert o.headers == dict(t.headers)
        main = list(t.mainline())
        assert o.moves == [n.move.uci() for n in main]
        assert o.san_moves == [n.san() for n in main]
        assert o.end().fen() == t.end().board().fen()
        assert o.clocks == [n.clock() for n in main]
        for e, n in zip(o.evals, main):
            te = n.eval()
            assert (e is None) == (te is None)
            if te is not None:
                assert e.cp == te.white().score()
        assert [" ".join(c) for c in o.comments] == [their_comment(n) for n in main]
        assert o.nags == [sorted(n.nags) for n in main]
        for i, n in enumerate(main):
            alts = [v.san_moves for v in o.variations(i)]
            want = [[v.san()] + [m.san() for m in v.mainline()] for v in n.parent.variations[1:]]
            assert alts == want


def test_reading_in_threads():
    text = random_database(40, seed=3)
    want = [g.moves for g in pgn.read(io.StringIO(text))]
    results = [None] * 4

    def work(i):
        results[i] = [g.moves for g in pgn.read(io.BytesIO(text.encode()))]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r == want for r in results)


def test_the_projects_pgn_files_alike():
    for name in ["commands.pgn", "escapes.pgn", "blank-lines.pgn", "chess960.pgn", "brackets.pgn"]:
        path = PGN_DIR / name
        ours = [g for g in pgn.read(path) if g.error is None]
        theirs = []
        with open(path, encoding="utf-8-sig") as f:
            while (g := chess.pgn.read_game(f)) is not None:
                if not g.errors:
                    theirs.append(g)
        assert len(ours) == len(theirs), name
        for o, t in zip(ours, theirs):
            assert o.san_moves == [n.san() for n in t.mainline()], name
            assert o.end().fen() == t.end().board().fen(), name


def test_reading_a_pipe_while_it_is_written():
    r, w = os.pipe()
    reader = os.fdopen(r, "rb", buffering=0)
    writer = os.fdopen(w, "wb", buffering=0)

    def produce():
        for i in range(3):
            writer.write(f'[Round "{i}"]\n\n1. e4 e5 *\n\n'.encode())
            time.sleep(0.05)
        writer.close()

    t = threading.Thread(target=produce)
    t.start()
    rounds = [g.headers["Round"] for g in pgn.read(reader)]
    t.join()
    assert rounds == ["0", "1", "2"]
