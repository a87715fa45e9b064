"""fianchetto.Engine: analysis under each limit, MultiPV, play, options,
stop() from another thread, and bad options."""

import threading
import time

import chess
import chess.engine
import pytest

import fianchetto

MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"


@pytest.fixture(scope="module")
def engine():
    return fianchetto.Engine(hash=8)


def test_analyse_depth(engine):
    info = engine.analyse(fianchetto.Board(), depth=6)
    assert info["depth"] == 6
    assert info["nodes"] > 0 and info["nps"] >= 0 and info["time"] >= 0
    assert info["seldepth"] >= 6
    assert isinstance(info["score"], fianchetto.Score) and info["score"].cp is not None
    assert abs(info["score"].cp) < 200
    assert len(info["pv"]) >= 1
    b = fianchetto.Board()
    for m in info["pv"]:
        b.push_uci(m)  # the PV is legal
    assert info["bound"] == "exact"


def test_analyse_nodes_and_time(engine):
    info = engine.analyse(fianchetto.Board(), nodes=5000)
    assert 0 < info["nodes"] <= 5000 + 2048
    start = time.monotonic()
    info = engine.analyse(fianchetto.Board(), time=0.2)
    took = time.monotonic() - start
    assert 0.1 < took < 5.0  # time= is honoured (generously bounded: a loaded machine)
    assert info["depth"] >= 1


def test_mate_found_and_scores(engine):
    b = fianchetto.Board(MATE_IN_ONE)
    info = engine.analyse(b, depth=5)
    assert info["pv"][0] == "d1d8"
    assert info["score"].mate == 1 and info["score"].is_mate()
    assert repr(info["score"]) == "Score(mate=1)"
    b.push_uci("d1d8")
    assert b.is_checkmate()
    # Black to move and losing: mate negative for the side to move,
    # positive from white's point of view.
    b2 = fianchetto.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1")
    s = engine.analyse(b2, depth=6)["score"]
    assert s.cp is not None and s.cp < -200
    assert s.white().cp == -s.cp


def test_multipv(engine):
    lines = engine.analyse(fianchetto.Board(), depth=5, multipv=3)
    assert isinstance(lines, list) and len(lines) == 3
    assert [line["multipv"] for line in lines] == [1, 2, 3]
    firsts = [line["pv"][0] for line in lines]
    assert len(set(firsts)) == 3
    # More lines than legal moves: one a move.
    few = fianchetto.Board("7k/8/8/8/8/8/6PP/7K w - - 0 1")
    assert len(engine.analyse(few, depth=3, multipv=50)) == few.legal_move_count()
    with pytest.raises(ValueError):
        engine.analyse(fianchetto.Board(), depth=2, multipv=0)


def test_play(engine):
    b = fianchetto.Board()
    result = engine.play(b, depth=4)
    assert result.move in b.legal_moves
    if result.ponder is not None:
        b.push_uci(result.move)
        assert result.ponder in b.legal_moves
    assert result.info["depth"] == 4
    assert "PlayResult(move='" in repr(result)
    mate = engine.play(fianchetto.Board(MATE_IN_ONE), nodes=2000)
    assert mate.move == "d1d8"
    over = fianchetto.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert engine.play(over, depth=2).move is None


def test_python_chess_limit_and_history(engine):
    b = fianchetto.Board()
    info = engine.analyse(b, chess.engine.Limit(depth=3))
    assert info["depth"] == 3
    info = engine.analyse(b, chess.engine.Limit(nodes=3000))
    assert info["nodes"] <= 3000 + 2048
    info = engine.play(b, chess.engine.Limit(white_clock=1.0, black_clock=1.0)).info
    assert info["time"] < 1.0
    # The board's own history counts: a repetition is a draw.
    r = fianchetto.Board("6k1/8/8/8/8/8/1q6/7K w - - 0 1")
    for m in ["h1g1", "b2a2", "g1h1", "a2b2", "h1g1", "b2a2", "g1h1"]:
        r.push_uci(m)
    assert engine.analyse(r, depth=4)["score"].cp is not None


def test_a_python_chess_board_is_accepted(engine, tables_dir):
    c = chess.Board()
    c.push_san("e4")
    info = engine.analyse(c, depth=3)
    c.push_uci(info["pv"][0])  # a reply legal after 1. e4
    assert engine.play(chess.Board(MATE_IN_ONE), depth=3).move == "d1d8"
    kq = chess.Board("8/8/8/4k3/8/8/8/K6Q w - - 0 1")
    assert fianchetto.syzygy.Tablebase(tables_dir).probe_wdl(kq) == 2
    assert fianchetto.svg(kq).startswith("<svg")


def test_no_limit_and_bad_limits(engine):
    b = fianchetto.Board()
    with pytest.raises(ValueError, match="no limit"):
        engine.analyse(b)
    with pytest.raises(ValueError):
        engine.analyse(b, time=-1.0)
    with pytest.raises(ValueError):
        engine.analyse(b, depth=0)
    with pytest.raises(TypeError):
        engine.analyse("not a board", depth=1)


def test_stop_from_another_thread():
    engine = fianchetto.Engine(hash=8)
    results = {}

    def think():
        results["info"] = engine.analyse(fianchetto.Board(), infinite=True)

    t = threading.Thread(target=think)
    start = time.monotonic()
    t.start()
    time.sleep(0.3)  # the main thread runs while the engine thinks: the GIL is free
    engine.stop()
    t.join(10)
    assert not t.is_alive()
    assert time.monotonic() - start < 5
    assert results["info"]["depth"] >= 1 and results["info"]["pv"]


def test_options():
    e = fianchetto.Engine(hash=4, threads=2, evaluation="classical", algorithm="pvs")
    o = e.options
    assert o["hash"] == 4 and o["threads"] == 2 and o["evaluation"] == "classical"
    assert e.analyse(fianchetto.Board(), depth=4)["depth"] == 4
    e.configure(evaluation="material", threads=1)
    assert e.options["evaluation"] == "material"
    assert "material" in repr(e)
    e.configure(algorithm="alphabeta")
    assert e.play(fianchetto.Board(MATE_IN_ONE), depth=3).move == "d1d8"
    e.configure(algorithm="mcts", evaluation="nnue")
    assert e.play(fianchetto.Board(), nodes=400).move in fianchetto.Board().legal_moves
    e.clear()


def test_elo_limits_the_nodes():
    e = fianchetto.Engine(elo=800)
    info = e.analyse(fianchetto.Board(), depth=30)
    assert info["depth"] < 30
    weak = info["nodes"]
    e.configure(elo=0)
    assert e.options["elo"] is None
    assert e.analyse(fianchetto.Board(), depth=8)["nodes"] > 0
    assert weak < 200_000


@pytest.mark.parametrize(
    "kwargs, error",
    [
        ({"evaluation": "stockfish"}, ValueError),
        ({"algorithm": "abacus"}, ValueError),
        ({"elo": 5000}, ValueError),
        ({"threads": 0}, ValueError),
        ({"hash": 0}, ValueError),
        ({"eval_file": "/nonexistent/net.nnue"}, FileNotFoundError),
        ({"syzygy_path": "/nonexistent/tables"}, FileNotFoundError),
    ],
)
def test_bad_options(kwargs, error):
    with pytest.raises(error):
        fianchetto.Engine(**kwargs)
    e = fianchetto.Engine(hash=2)
    with pytest.raises(error):
        e.configure(**kwargs)
    assert e.options["hash"] == 2  # nothing changed


def test_bad_network_file(tmp_path):
    bad = tmp_path / "bad.nnue"
    bad.write_bytes(b"not a network")
    with pytest.raises(ValueError, match="bad.nnue"):
        fianchetto.Engine(eval_file=str(bad))


def test_syzygy_in_the_engine(tables_dir):
    e = fianchetto.Engine(hash=4, syzygy_path=tables_dir)
    assert e.options["syzygy_path"] == tables_dir
    tables = fianchetto.syzygy.Tablebase(tables_dir)
    b = fianchetto.Board("8/8/8/4k3/8/8/8/K6Q w - - 0 1")
    info = e.analyse(b, depth=3)
    assert info["tbhits"] > 0
    assert info["score"].is_mate() or info["score"].cp > 300  # winning
    move = e.play(b, depth=3).move
    winning = {m.move for m in tables.root_moves(b) if m.wdl == 2}
    assert move in winning
    e.configure(syzygy_path="")
    assert e.options["syzygy_path"] is None
    assert e.analyse(b, depth=3)["tbhits"] == 0


def test_ctrl_c_stops_an_analysis():
    import _thread

    engine = fianchetto.Engine(hash=8)
    threading.Timer(0.3, _thread.interrupt_main).start()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        engine.analyse(fianchetto.Board(), infinite=True)
    assert time.monotonic() - start < 5
    assert engine.analyse(fianchetto.Board(), depth=3)["depth"] == 3  # usable after
