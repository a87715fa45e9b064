"""python-chess agrees: the same legal moves, SAN, checks and outcomes on the
project's perft positions and on a few hundred positions of random games."""

import random

import chess
import pytest

import fianchetto
from conftest import epd_positions


def same_position(fen, chess960=False):
    """Legal moves (UCI), the SAN of each, check and mate as python-chess says."""
    ours = fianchetto.Board(fen, chess960=chess960)
    theirs = chess.Board(fen, chess960=chess960)
    assert sorted(ours.legal_moves) == sorted(m.uci() for m in theirs.legal_moves), fen
    for m in theirs.legal_moves:
        assert ours.san(m.uci()) == theirs.san(m), (fen, m.uci())
        assert ours.parse_san(theirs.san(m)) == m.uci()
    assert ours.is_check() == theirs.is_check()
    assert ours.is_checkmate() == theirs.is_checkmate()
    assert ours.is_stalemate() == theirs.is_stalemate()
    return ours, theirs


@pytest.mark.parametrize("name", ["perft-standard.epd", "perft-random.epd"])
def test_perft_positions(name):
    positions = epd_positions(name)
    assert len(positions) >= 5
    for fen, counts in positions:
        ours, _ = same_position(fen)
        assert ours.perft(1) == counts.get(1, ours.legal_move_count())


def test_chess960_positions():
    # Every 16th line of the Chess960 file (Shredder-FEN castling).
    positions = epd_positions("perft-chess960.epd")[::16]
    assert len(positions) >= 50
    for fen, _ in positions:
        same_position(fen, chess960=True)


def test_random_playouts():
    rng = random.Random(71)
    checked = 0
    outcomes = 0
    while checked < 400:
        theirs = chess.Board()
        ours = fianchetto.Board()
        for _ in range(rng.randrange(20, 200)):
            if theirs.is_game_over(claim_draw=True):
                break
            ours2, _ = same_position(theirs.fen())
            assert ours2.fen() == theirs.fen()
            checked += 1
            move = rng.choice(list(theirs.legal_moves))
            san = theirs.san(move)
            assert ours.push_san(san) == move.uci()
            theirs.push(move)
            assert ours.fen() == theirs.fen()
        o, t = ours.outcome(claim_draw=True), theirs.outcome(claim_draw=True)
        assert (o is None) == (t is None), theirs.fen()
        if o is not None:
            outcomes += 1
            assert o.result() == t.result()
            assert o.termination == t.termination.name.lower()
        back = fianchetto.Board.from_chess(theirs)
        assert back.move_stack == ours.move_stack and back.fen() == theirs.fen()
    assert outcomes > 0
