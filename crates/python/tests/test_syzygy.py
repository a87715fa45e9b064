"""fianchetto.syzygy against python-chess's prober on the repository's 3- and
4-piece tables, and its errors."""

import random

import chess
import chess.syzygy
import pytest

import fianchetto
from fianchetto import syzygy


def random_positions(pieces, n, seed):
    """`n` legal positions with kings and `pieces` (FEN letters), no castling."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        b = chess.Board(None)
        squares = rng.sample(range(64), 2 + len(pieces))
        b.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        b.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for sq, p in zip(squares[2:], pieces):
            b.set_piece_at(sq, chess.Piece.from_symbol(p))
        b.turn = rng.random() < 0.5
        if b.is_valid():
            out.append(b.fen())
    return out


def test_wdl_dtz_and_best_move_agree_with_python_chess(tables_dir):
    tb = syzygy.Tablebase(tables_dir)
    assert tb.max_pieces == 4
    with chess.syzygy.open_tablebase(tables_dir) as theirs:
        for pieces in ["Q", "R", "P", "QR", "Rr", "Pp", "Bn", "NN"]:
            for fen in random_positions(pieces, 25, seed=len(pieces) * 31 + ord(pieces[0])):
                b = fianchetto.Board(fen)
                c = chess.Board(fen)
                assert tb.probe_wdl(b) == theirs.probe_wdl(c), fen
                assert tb.probe_dtz(b) == theirs.probe_dtz(c), fen
                best = tb.best_move(b)
                if c.is_game_over():
                    assert best is None
                    continue
                assert best in b.legal_moves
                moves = tb.root_moves(b)
                assert moves[0].move == best
                assert sorted(m.move for m in moves) == sorted(b.legal_moves)
                # The best move keeps the result: the reply position is the
                # negation of the root's WDL.
                after = chess.Board(fen)
                after.push_uci(best)
                if theirs.probe_wdl(c) == 2:
                    assert theirs.probe_wdl(after) == -2
    assert "RootMove(move=" in repr(tb.root_moves(fianchetto.Board("8/8/8/4k3/8/8/8/K6Q w - - 0 1"))[0])


def test_errors(tables_dir):
    tb = syzygy.Tablebase(tables_dir)
    five = fianchetto.Board("k7/8/8/8/8/8/8/1NNNK3 w - - 0 1")
    with pytest.raises(syzygy.TablebaseError, match="pieces"):
        tb.probe_wdl(five)
    castling = fianchetto.Board("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")
    with pytest.raises(syzygy.TablebaseError, match="castling"):
        tb.probe_dtz(castling)
    with pytest.raises(FileNotFoundError):
        syzygy.Tablebase("/nonexistent/tables")
    with pytest.raises(syzygy.MissingTableError):
        syzygy.Tablebase("/nonexistent/tables")


def test_a_missing_table(tmp_path, tables_dir):
    import shutil

    for name in ["KQvK.rtbw", "KQvK.rtbz"]:
        shutil.copy(f"{tables_dir}/{name}", tmp_path / name)
    tb = syzygy.Tablebase(str(tmp_path))
    assert tb.probe_wdl(fianchetto.Board("8/8/8/4k3/8/8/8/K6Q w - - 0 1")) == 2
    with pytest.raises(syzygy.MissingTableError, match="KRvK") as e:
        tb.probe_wdl(fianchetto.Board("8/8/8/4k3/8/8/8/K6R w - - 0 1"))
    assert isinstance(e.value, FileNotFoundError)
    (tmp_path / "KRvK.rtbw").write_bytes(b"\0" * 100)
    tb2 = syzygy.Tablebase(str(tmp_path))
    with pytest.raises(syzygy.TablebaseError, match="KRvK"):
        tb2.probe_wdl(fianchetto.Board("8/8/8/4k3/8/8/8/K6R w - - 0 1"))
