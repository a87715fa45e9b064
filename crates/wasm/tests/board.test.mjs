// The package's rules, PGN and SVG, and its errors, over the built package.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fianchetto } from "./package.mjs";

const { Board, readPgn, Engine } = fianchetto;
const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

test("a new board is the start position", () => {
  const b = new Board();
  assert.equal(b.fen(), START);
  assert.equal(b.turn(), "w");
  assert.equal(b.legalMoves().length, 20);
  assert.ok(b.legalMovesSan().includes("Nf3"));
  assert.equal(b.pieceAt("e1"), "K");
  assert.equal(b.pieceAt("e8"), "k");
  assert.equal(b.pieceAt("e4"), undefined);
});

test("the legal moves in SAN are san() of the UCI ones, in the same order", () => {
  const positions = [
    START,
    KIWIPETE,
    // Promotions (with capture and check), castling with check.
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1",
    // Three queens reach d3: by file, by rank, by both; a mate in one.
    "7k/8/8/8/2Q1Q3/8/2Q5/6K1 w - - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3",
  ];
  for (const fen of positions) {
    const b = new Board(fen);
    assert.deepEqual(b.legalMovesSan(), b.legalMoves().map((m) => b.san(m)), fen);
  }
  const queens = new Board(positions[4]).legalMovesSan();
  for (const san of ["Qc4d3", "Q2d3", "Qed3"]) assert.ok(queens.includes(san), san);
  assert.ok(new Board(positions[5]).legalMovesSan().includes("Qxf7#"));
  assert.ok(new Board(positions[3]).legalMovesSan().includes("O-O-O+"));
  // Mated: no moves, an empty list (not [""]).
  const mated = new Board("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
  assert.deepEqual(mated.legalMoves(), []);
  assert.deepEqual(mated.legalMovesSan(), []);
});

test("perft and divide count the classic numbers", () => {
  assert.equal(new Board().perft(4), 197281);
  const kiwi = new Board(KIWIPETE);
  assert.equal(kiwi.perft(3), 97862);
  const d = kiwi.divide(1);
  assert.equal(Object.keys(d).length, 48);
  assert.equal(d["e1g1"], 1);
  const split = new Board().divide(3);
  assert.equal(split["e2e4"], 600);
  assert.equal(Object.values(split).reduce((a, b) => a + b, 0), 8902);
});

test("moves in SAN or UCI, push and undo", () => {
  const b = new Board();
  assert.equal(b.push("e4"), "e2e4");
  assert.equal(b.push("e7e5"), "e7e5");
  assert.equal(b.san("g1f3"), "Nf3");
  assert.equal(b.toUci("Nf3"), "g1f3");
  assert.equal(b.isLegal("Ke2"), true);
  assert.equal(b.isLegal("Ke3"), false);
  b.push("Nf3");
  assert.deepEqual(b.history(), ["e2e4", "e7e5", "g1f3"]);
  assert.deepEqual(b.historySan(), ["e4", "e5", "Nf3"]);
  assert.equal(b.undo(), "g1f3");
  assert.equal(b.undo(), "e7e5");
  assert.equal(b.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  assert.equal(b.undo(), "e2e4");
  assert.equal(b.undo(), undefined);
  const c = b.clone();
  c.push("d4");
  assert.equal(b.fen(), START, "a clone plays on its own");
});

test("castling, promotion and en passant in both notations", () => {
  const b = new Board("r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1");
  assert.equal(b.san("e1g1"), "O-O");
  assert.equal(b.toUci("O-O-O"), "e1c1");
  assert.equal(b.san("e5d6"), "exd6");
  assert.equal(b.san("b7a8q"), "bxa8=Q+");
  assert.equal(b.push("b8=N"), "b7b8n");
});

test("outcomes: mate, stalemate, insufficient material, repetition", () => {
  const mate = new Board();
  for (const m of ["f3", "e5", "g4", "Qh4#"]) mate.push(m);
  assert.equal(mate.isCheckmate(), true);
  assert.equal(mate.inCheck(), true);
  assert.deepEqual(mate.outcome(), { winner: "b", termination: "checkmate", result: "0-1", text: "Black wins by checkmate" });
  const stale = new Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
  assert.equal(stale.isStalemate(), true);
  assert.equal(stale.outcome().result, "1/2-1/2");
  assert.equal(new Board("8/8/4k3/8/8/3K4/8/8 w - - 0 1").outcome().termination, "insufficient material");
  const rep = new Board();
  for (let i = 0; i < 2; i++) for (const m of ["Nf3", "Nf6", "Ng1", "Ng8"]) rep.push(m);
  assert.equal(rep.outcome(), undefined, "threefold is only claimable");
  assert.equal(rep.outcome(true).termination, "threefold repetition");
});

test("PGN: read every game, write one back, read it again", () => {
  const text = `[Event "Paris Opera"]
[White "Paul Morphy"]
[Black "Duke Karl / Count Isouard"]
[Result "1-0"]

1. e4 e5 2. Nf3 d6 3. d4 Bg4 {This is a weak move already.} 4. dxe5 Bxf3
5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5
11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7
16. Qb8+ Nxb8 17. Rd8# 1-0

[Event "second"]

1. d4 (1. c4) d5 *
`;
  const games = readPgn(text);
  assert.equal(games.length, 2);
  const [morphy, second] = games;
  assert.equal(morphy.tags.White, "Paul Morphy");
  assert.equal(morphy.moves.length, 33);
  assert.equal(morphy.moves[32], "Rd8#");
  assert.equal(morphy.uci[22], "e1c1");
  assert.deepEqual(morphy.comments[5], ["This is a weak move already."]);
  assert.equal(morphy.result, "1-0");
  assert.deepEqual(second.moves, ["d4", "d5"]);
  assert.equal(second.result, "*");

  const board = Board.fromPgn(text);
  assert.equal(board.isCheckmate(), true);
  const written = board.pgn({ White: "Paul Morphy", Event: "Paris Opera" });
  assert.match(written, /\[White "Paul Morphy"\]/);
  assert.match(written, /\[Result "1-0"\]/);
  assert.match(written, /17\. Rd8# 1-0/);
  const again = readPgn(written)[0];
  assert.deepEqual(again.moves, morphy.moves);
  assert.equal(again.fen, morphy.fen);
});

test("PGN from a FEN start", () => {
  const b = new Board("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
  b.push("e4");
  const game = readPgn(b.pgn())[0];
  assert.equal(game.startFen, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
  assert.deepEqual(game.moves, ["e4"]);
});

test("SVG: squares, pieces, marks, orientation", () => {
  const b = new Board();
  b.push("e4");
  const svg = b.svg({ size: 240, arrows: ["Gg1f3"], squares: ["Rd4"] });
  assert.match(svg, /^<svg /);
  assert.match(svg, /width="240"/);
  assert.equal((svg.match(/data-square="/g) || []).length, 64);
  assert.equal((svg.match(/data-piece="/g) || []).length, 32);
  assert.match(svg, /data-piece="wP"/);
  assert.notEqual(b.svg({ flip: true }), b.svg());
  assert.notEqual(b.svg({ lastMove: false }), b.svg(), "the last move is marked by default");
  const check = new Board("rnbqkbnr/ppp2ppp/4p3/1B1p4/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3");
  assert.match(check.svg(), /class="check"/);
  assert.match(b.toString(), /^8 /);
});

test("bad input throws an Error with the library's message", () => {
  const throwsError = (f, pattern) =>
    assert.throws(f, (e) => e instanceof Error && pattern.test(e.message), String(pattern));
  throwsError(() => new Board("nonsense"), /FEN has 1 field/);
  throwsError(() => new Board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1"), /rank/i);
  throwsError(() => new Board("8/8/8/8/8/8/8/8 w - - 0 1"), /king/i);
  const b = new Board();
  throwsError(() => b.push("Ke3"), /not a legal move/);
  throwsError(() => b.push("e2e5"), /e2e5/);
  throwsError(() => b.push("Zz9"), /not a SAN move/);
  throwsError(() => b.san(""), /./);
  assert.equal(b.fen(), START, "a refused move changes nothing");
  throwsError(() => b.pieceAt("z9"), /z9/);
  throwsError(() => b.perft(11), /beyond the limit of 10/);
  throwsError(() => b.svg({ size: "big" }), /options.size must be a whole number/);
  throwsError(() => b.svg({ arrows: ["e2"] }), /options.arrows/);
  throwsError(() => b.svg(7), /options must be an object/);
  throwsError(() => b.pgn({ White: 3 }), /tags.White must be a string/);
  throwsError(() => readPgn("1. e4 e5 2. Kf9"), /game 1, line 1, at `Kf9`/);
  throwsError(() => Board.fromPgn(""), /./);
  throwsError(() => new Engine({ algorithm: "abacus" }), /unknown algorithm "abacus"/);
  throwsError(() => new Engine({ evaluation: "vibes" }), /unknown evaluation "vibes"/);
  throwsError(() => new Engine({ hash: 0 }), /options.hash must be a whole number from 1 to 256/);
  const engine = new Engine({ evaluation: "material" });
  throwsError(() => engine.loadNetwork(new TextEncoder().encode("FIANNUE\x1a but not much else")), /^network: /);
  throwsError(() => engine.search(new Board(), { depth: -1 }), /limits.depth must be a whole number/);
  throwsError(() => engine.search(new Board(), { nodes: 1.5 }), /limits.nodes/);
});
