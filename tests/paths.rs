//! The paths a user of the facade writes compile: the modules, the prelude,
//! and the crates under their own names, which is how rustc names an item
//! that is out of scope (`fianchetto::fianchetto_eval::Evaluator`).
#![cfg(feature = "search")]

#[test]
fn prelude_brings_the_traits_and_types() {
    use fianchetto::prelude::*;
    let board = Bitboards::startpos();
    assert_eq!(board.legal_moves().len(), 20);
    assert_eq!(Material::classic().evaluate(&board), Score::cp(0));
    let game = Game::new(board);
    let result: SearchResult =
        Pvs::new(Material::classic()).search(&game, &Limits::depth(2), &mut |_| {});
    assert!(result.best_move.is_some_and(|m| game.board().is_legal(m)));
}

#[test]
fn the_paths_rustc_suggests_compile() {
    use fianchetto::fianchetto_board::Board;
    use fianchetto::fianchetto_eval::Evaluator;
    use fianchetto::fianchetto_movegen::MoveGen;
    use fianchetto::fianchetto_search::Search;
    let board = fianchetto::board::Bitboards::startpos();
    let mv = board.legal_moves()[0];
    assert!(board.is_legal(mv));
    let score = fianchetto::eval::Material::classic().evaluate(&board);
    assert_eq!(score, fianchetto::eval::Score::cp(0));
    let game = fianchetto::movegen::Game::new(board);
    let mut minimax =
        fianchetto::search::minimax::Minimax::new(fianchetto::eval::Material::classic());
    let limits = fianchetto::search::Limits::depth(1);
    assert!(minimax
        .search(&game, &limits, &mut |_| {})
        .best_move
        .is_some());
}
