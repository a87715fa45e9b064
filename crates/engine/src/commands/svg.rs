//! `fianchetto svg --fen FEN [--arrows e2e4,…] [--flip] [--size N]
//! [--lastmove e2e4] [--squares d4,e5] > board.svg`: a picture of a position.

use super::CommandError;
use crate::say;
use fianchetto_board::svg::{parse_move_squares, Arrow, BoardSvg, Colors, Paint, SquareMark};
use fianchetto_board::{Bitboards, Board, CastlingMode, Color, Square, START_FEN};

/// Arguments of `fianchetto svg`.
#[derive(Debug, clap::Args)]
pub struct SvgArgs {
    /// The position (default: the start position).
    #[arg(long, default_value = START_FEN)]
    pub fen: String,
    /// Read the FEN's castling field as X-FEN or Shredder-FEN (Chess960).
    #[arg(long)]
    pub chess960: bool,
    /// Arrows, comma-separated: `e2e4,g1f3`; a colour letter first picks
    /// Lichess's colours (`Ge2e4`, `Rd1d8`, `Yc1g5`, `Bb1c3`).
    #[arg(long, value_delimiter = ',')]
    pub arrows: Vec<Arrow>,
    /// Highlighted squares, comma-separated: `d4,e5` (or `Rd4`, … with a
    /// colour letter).
    #[arg(long, value_delimiter = ',')]
    pub squares: Vec<SquareMark>,
    /// The last move, whose two squares are marked: `e2e4`.
    #[arg(long, value_parser = last_move)]
    pub lastmove: Option<(Square, Square)>,
    /// Draw the board from black's side.
    #[arg(long)]
    pub flip: bool,
    /// Width and height in pixels.
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u32).range(16..=10_000))]
    pub size: u32,
    /// Leave out the files and ranks.
    #[arg(long)]
    pub no_coordinates: bool,
    /// The light squares' colour (`#f0d9b5`, `white`, …).
    #[arg(long)]
    pub light: Option<Paint>,
    /// The dark squares' colour (`#b58863`, …).
    #[arg(long)]
    pub dark: Option<Paint>,
}

fn last_move(text: &str) -> Result<(Square, Square), String> {
    parse_move_squares(text)
        .ok_or_else(|| format!("not a move: `{text}` (write two squares, e.g. e2e4)"))
}

/// The picture `svg` prints.
pub fn picture(args: &SvgArgs) -> Result<String, CommandError> {
    let mode = if args.chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let board = Bitboards::from_fen_with(&args.fen, mode)?;
    let defaults = Colors::default();
    let colors = Colors {
        light: args.light.clone().unwrap_or_else(|| defaults.light.clone()),
        dark: args.dark.clone().unwrap_or_else(|| defaults.dark.clone()),
        ..defaults
    };
    let mut svg = BoardSvg::from_board(&board)
        .orientation(if args.flip {
            Color::Black
        } else {
            Color::White
        })
        .coordinates(!args.no_coordinates)
        .size(Some(args.size))
        .colors(colors);
    if let Some((from, to)) = args.lastmove {
        svg = svg.last_move_squares(from, to);
    }
    for mark in &args.squares {
        svg = svg.mark(mark.clone());
    }
    for arrow in &args.arrows {
        svg = svg.arrow(arrow.clone());
    }
    Ok(svg.to_svg())
}

/// Runs `svg`: writes the picture to standard output.
pub fn run(args: &SvgArgs) -> Result<(), CommandError> {
    let picture = picture(args)?;
    say!("{}", picture.trim_end());
    Ok(())
}
