//! `fianchetto genfens N seed S [book FILE|None] [margin CP]`: opening
//! positions for OpenBench's distributed data generation, one `info string
//! genfens <FEN>` line each.
//!
//! `margin CP` (ours, not OpenBench's) keeps only openings whose first search
//! scores within CP centipawns of equality (the datagen's own bound is
//! [`DatagenConfig::max_opening_score`]): a book for fixed-node matches,
//! `scripts/openings/balanced-6000.epd`, is `genfens 6000 seed 1 margin 100`.
//!
//! OpenBench starts the engine with the whole request as one argument
//! (`fianchetto "genfens 100 seed 7 book None" quit`); the binary splits
//! such an argument into words before parsing, so both spellings work.

use super::CommandError;
use crate::say;
use fianchetto_board::Board;
use fianchetto_eval::Classical;
use fianchetto_tune::datagen::{self, DatagenConfig};
use std::path::Path;

/// Arguments of `fianchetto genfens`: OpenBench's keyword form.
#[derive(Debug, clap::Args)]
pub struct GenfensArgs {
    /// `N seed S [book FILE|None] [margin CP] [extra…]` (the extra words are
    /// ignored).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 1..)]
    pub words: Vec<String>,
}

/// What `genfens` was asked for.
#[derive(Debug, PartialEq, Eq)]
struct Request {
    count: u64,
    seed: u64,
    book: Option<String>,
    /// The largest score an opening's first search may give, in centipawns.
    margin: Option<i32>,
}

fn parse(words: &[String]) -> Result<Request, CommandError> {
    let usage = |why: String| {
        CommandError::Usage(format!(
            "genfens: {why}; expected `genfens N seed S [book FILE|None] [margin CP]`"
        ))
    };
    let count = words
        .first()
        .ok_or_else(|| usage("no count".into()))?
        .parse()
        .map_err(|_| usage(format!("count `{}` is not a number", words[0])))?;
    let keyword = |key: &str| -> Option<&str> {
        let at = words.iter().position(|w| w == key)?;
        words.get(at + 1).map(String::as_str)
    };
    let seed = match keyword("seed") {
        Some(s) => s
            .parse()
            .map_err(|_| usage(format!("seed `{s}` is not a number")))?,
        None => 0,
    };
    let book = keyword("book")
        .filter(|b| !b.eq_ignore_ascii_case("none"))
        .map(str::to_string);
    let margin = keyword("margin")
        .map(|m| {
            m.parse()
                .ok()
                .filter(|&cp: &i32| cp >= 0)
                .ok_or_else(|| usage(format!("margin `{m}` is not a number of centipawns")))
        })
        .transpose()?;
    Ok(Request {
        count,
        seed,
        book,
        margin,
    })
}

/// Runs `genfens`: `count` balanced openings of `seed`, the same ones
/// `datagen --seed S` would play as its first games.
pub fn run(args: &GenfensArgs) -> Result<(), CommandError> {
    let request = parse(&args.words)?;
    let book = match &request.book {
        Some(path) => {
            datagen::read_book(Path::new(path)).map_err(|e| CommandError::Usage(e.to_string()))?
        }
        None => Vec::new(),
    };
    let default = DatagenConfig::default();
    let config = DatagenConfig {
        max_opening_score: request.margin.unwrap_or(default.max_opening_score),
        ..default
    };
    let mut searcher = config.searcher(Classical::default());
    for index in 0..request.count {
        let board = datagen::opening_position(&mut searcher, &config, &book, request.seed, index);
        say!("info string genfens {}", board.fen());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn openbench_forms() {
        assert_eq!(
            parse(&words("10 seed 42 book None")).ok(),
            Some(Request {
                count: 10,
                seed: 42,
                book: None,
                margin: None
            })
        );
        assert_eq!(
            parse(&words("3 seed 1 book books/x.epd extra")).ok(),
            Some(Request {
                count: 3,
                seed: 1,
                book: Some("books/x.epd".into()),
                margin: None
            })
        );
        assert_eq!(
            parse(&words("6000 seed 1 margin 100")).ok(),
            Some(Request {
                count: 6000,
                seed: 1,
                book: None,
                margin: Some(100)
            })
        );
        assert!(parse(&words("1 seed 1 margin -5")).is_err());
        assert!(parse(&words("1 seed 1 margin x")).is_err());
        assert!(parse(&words("ten seed 1")).is_err());
        assert!(parse(&words("1 seed x")).is_err());
        assert!(parse(&[]).is_err());
    }
}
