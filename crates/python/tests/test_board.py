"""fianchetto.Board: FEN, moves, notation, rules, keys, perft, copies, errors."""

import copy

import chess
import chess.polyglot
import pytest

import fianchetto
from conftest import epd_positions

START = fianchetto.STARTING_FEN


def test_start_position_and_fen_round_trip():
    b = fianchetto.Board()
    assert b.fen() == START
    assert b.turn is True
    assert len(b.legal_moves) == 20 and b.legal_move_count() == 20
    assert b.piece_at("e1") == "K" and b.piece_at("e8") == "k" and b.piece_at("e4") is None
    fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    assert fianchetto.Board(fen).fen() == fen
    assert repr(fianchetto.Board(fen)) == f"Board('{fen}')"
    assert "a b c d e f g h" in str(b)


@pytest.mark.parametrize(
    "fen, words",
    [
        ("", "field"),
        ("xx", "field"),
        ("8/8/8/8/8/8/8/8 w - - 0 1", "no king"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "x"),
        ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "digit 1-8"),
        ("4k3/8/8/8/8/8/8/4K2R w Qk - 0 1", "castl"),
    ],
)
def test_bad_fens_raise_invalid_fen_error_with_the_library_message(fen, words):
    with pytest.raises(fianchetto.InvalidFenError) as e:
        fianchetto.Board(fen)
    assert isinstance(e.value, ValueError)
    assert words.lower() in str(e.value).lower()
    with pytest.raises(fianchetto.InvalidFenError):
        fianchetto.perft_fen(fen, 1)


def test_chess960_xfen_and_shredder():
    shredder = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"
    b = fianchetto.Board(shredder, chess960=True)
    assert b.chess960
    assert b.shredder_fen() == shredder
    assert b.fen() == "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
    assert b.perft(3) == 9006  # as python-chess counts it
    # Castling written king takes rook.
    b = fianchetto.Board("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", chess960=True)
    assert "e1h1" in b.legal_moves and "e1g1" not in b.legal_moves
    assert b.san("e1h1") == "O-O"
    b2 = fianchetto.Board("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1")
    assert "e1g1" in b2.legal_moves and b2.san("e1g1") == "O-O"


def test_push_pop_peek_and_move_stack():
    b = fianchetto.Board()
    assert b.push_san("e4") == "e2e4"
    assert b.push_uci("e7e5") == "e7e5"
    assert b.push(chess.Move.from_uci("g1f3")) == "g1f3"
    assert b.push("b8c6") == "b8c6"
    assert b.move_stack == ["e2e4", "e7e5", "g1f3", "b8c6"]
    assert b.peek() == "b8c6"
    assert b.pop() == "b8c6"
    assert b.fen() == "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    assert b.root_fen() == START
    for _ in range(3):
        b.pop()
    assert b.fen() == START
    with pytest.raises(IndexError):
        b.pop()
    with pytest.raises(IndexError):
        b.peek()


def test_null_move():
    b = fianchetto.Board()
    b.push_null()
    assert b.turn is False and b.pop() == "0000"
    checked = fianchetto.Board("4k3/8/8/8/8/8/8/4K2r w - - 0 1")
    with pytest.raises(fianchetto.IllegalMoveError):
        checked.push_null()


def test_san_parse_and_write():
    b = fianchetto.Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    assert b.san("e1g1") == "O-O"
    assert b.san("e1c1") == "O-O-O"
    assert b.san("e5f7") == "Nxf7"
    assert b.parse_san("Nxf7") == "e5f7"
    assert b.parse_san("O-O") == "e1g1"
    assert b.parse_uci("e1g1") == "e1g1"
    assert fianchetto.Board("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1").san("f1f8") == "Qf8#"


@pytest.mark.parametrize(
    "san, words",
    [("Nf6", "not a legal move"), ("Zz9", "not a SAN move"), ("e5", "not a legal move"), ("", "SAN")],
)
def test_bad_san_raises_invalid_san_error(san, words):
    b = fianchetto.Board()
    with pytest.raises(fianchetto.InvalidSanError) as e:
        b.push_san(san)
    assert words in str(e.value)
    assert isinstance(e.value, ValueError)
    assert b.fen() == START  # nothing changed


def test_ambiguous_san():
    b = fianchetto.Board("4k3/8/8/8/8/8/8/N1N1K3 w - - 0 1")
    with pytest.raises(fianchetto.InvalidSanError, match="ambiguous"):
        b.push_san("Nb3")
    assert b.push_san("Nab3") == "a1b3"


@pytest.mark.parametrize("uci", ["e2e5", "e2", "e7e8Q", "0000", "z9z9", " e2e4"])
def test_bad_uci_raises_invalid_uci_error(uci):
    b = fianchetto.Board()
    with pytest.raises(fianchetto.InvalidUciError):
        b.push_uci(uci)
    with pytest.raises(fianchetto.InvalidUciError):
        b.san(uci)
    assert not b.is_legal(uci)
    assert b.fen() == START


def test_bad_arguments_are_python_errors():
    b = fianchetto.Board()
    with pytest.raises(TypeError):
        b.push(42)
    with pytest.raises(ValueError):
        b.piece_at("z9")


def test_checkmate_stalemate_and_outcome():
    b = fianchetto.Board()
    for san in ["f3", "e5", "g4", "Qh4#"]:
        b.push_san(san)
    assert b.is_check() and b.is_checkmate() and not b.is_stalemate()
    assert b.is_game_over()
    o = b.outcome()
    assert o.winner is False and o.termination == "checkmate"
    assert o.result() == "0-1" and o.reason == "Black wins by checkmate"
    assert "checkmate" in repr(o)

    s = fianchetto.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert s.is_stalemate() and not s.is_check()
    assert s.outcome().termination == "stalemate" and s.outcome().winner is None
    assert s.outcome().result() == "1/2-1/2"

    kk = fianchetto.Board("8/8/4k3/8/8/3K4/8/8 w - - 0 1")
    assert kk.is_insufficient_material()
    assert kk.outcome().termination == "insufficient_material"
    assert fianchetto.Board().outcome() is None


def test_repetitions_and_claims():
    b = fianchetto.Board()
    for _ in range(2):
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"]:
            b.push(m)
    assert b.can_claim_draw()
    assert b.outcome() is None
    assert b.outcome(claim_draw=True).termination == "threefold_repetition"
    assert b.is_game_over(claim_draw=True) and not b.is_game_over()
    for _ in range(2):
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"]:
            b.push(m)
    assert b.outcome().termination == "fivefold_repetition"
    fifty = fianchetto.Board("4k3/8/8/8/8/8/8/R3K3 w - - 100 80")
    assert fifty.outcome() is None
    assert fifty.outcome(claim_draw=True).termination == "fifty_moves"
    assert fianchetto.Board("4k3/8/8/8/8/8/8/R3K3 w - - 150 80").outcome().termination == "seventyfive_moves"


def test_zobrist_and_polyglot_keys():
    b = fianchetto.Board()
    start = b.zobrist
    for m in ["g1f3", "g8f6", "f3g1"]:
        b.push(m)
        assert b.zobrist != start
    b.push("f6g8")
    assert b.zobrist == start
    with pytest.raises(TypeError):
        hash(b)  # a board changes: its key is `zobrist`
    c = chess.Board()
    for m in ["e2e4", "d7d5", "e4e5", "f7f5", "e1e2", "e8f7"]:
        b2 = fianchetto.Board(c.fen())
        assert b2.polyglot_key() == chess.polyglot.zobrist_hash(c)
        c.push_uci(m)


def test_perft_on_the_projects_positions():
    for fen, counts in epd_positions("perft-standard.epd"):
        b = fianchetto.Board(fen)
        for depth, count in counts.items():
            if count <= 5_000_000:
                assert b.perft(depth) == count, (fen, depth)
                assert fianchetto.perft_fen(fen, depth) == count
    assert fianchetto.Board().perft(5, threads=2) == 4_865_609
    assert fianchetto.Board().perft(0) == 1


def test_copy_is_independent_and_equal():
    b = fianchetto.Board()
    b.push_san("d4")
    for c in [b.copy(), copy.copy(b), copy.deepcopy(b)]:
        assert c == b and c.move_stack == b.move_stack
        c.push_san("d5")
        assert c != b and b.move_stack == ["d2d4"]
    assert b != "not a board"


def test_python_chess_round_trip():
    b = fianchetto.Board()
    for san in ["e4", "c5", "Nf3", "d6", "d4", "cxd4"]:
        b.push_san(san)
    c = b.to_chess()
    assert isinstance(c, chess.Board)
    assert c.fen() == b.fen()
    assert [m.uci() for m in c.move_stack] == b.move_stack
    assert c.root().fen() == START
    back = fianchetto.Board.from_chess(c)
    assert back.fen() == b.fen() and back.move_stack == b.move_stack

    c960 = chess.Board("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", chess960=True)
    c960.push_san("O-O")
    f960 = fianchetto.Board.from_chess(c960)
    assert f960.chess960 and f960.move_stack == ["e1h1"]
    assert f960.fen() == c960.fen()
    assert f960.to_chess().fen() == c960.fen()


def test_ctrl_c_stops_a_perft():
    import _thread
    import signal
    import threading
    import time

    # Ctrl-C every 0.3 s until the perft has stopped, so that one interrupt
    # lost to a scheduling race does not leave a perft of hours running.
    stopped = threading.Event()

    def press_ctrl_c():
        while not stopped.wait(0.3):
            _thread.interrupt_main()

    # Python turns SIGINT into KeyboardInterrupt only where it was not
    # ignored when the process started (a job started in the background).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    threading.Thread(target=press_ctrl_c, daemon=True).start()
    start = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            fianchetto.Board().perft(10)
    finally:
        stopped.set()
        signal.signal(signal.SIGINT, previous)
    assert time.monotonic() - start < 5
