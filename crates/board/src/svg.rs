//! Pictures of the board: a position drawn as an SVG image.
//!
//! [`BoardSvg`] draws the 64 squares, the pieces (drawings of this crate's
//! own, simple vector shapes), and optionally the coordinates, the last move,
//! a king in check, highlighted squares and arrows, from either side, at any
//! size and in any colours. The result is plain text with no dependency:
//! write it to a `.svg` file, or put it inline in an HTML page.
//!
//! Every square is a `rect` carrying `data-square="e4"` and every piece a
//! `use` element carrying `data-piece="wP"` (colour `w`/`b`, then the piece
//! letter), so that a script or a test can find them in a browser.
//!
//! ```
//! use fianchetto_board::svg::{Arrow, BoardSvg};
//! use fianchetto_board::{Bitboards, Board, Color, Square};
//!
//! // Black to move, in check from the bishop on b5.
//! let board = Bitboards::from_fen("rnbqkbnr/ppp2ppp/4p3/1B1p4/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3")?;
//! let svg = BoardSvg::from_board(&board)
//!     .last_move_squares(Square::F1, Square::B5)
//!     .arrow("Rb5e8".parse()?)
//!     .arrow(Arrow::new(Square::C7, Square::C6))
//!     .orientation(Color::Black)
//!     .size(Some(320))
//!     .to_svg();
//! assert!(svg.starts_with("<svg "));
//! assert!(svg.contains(r#"data-square="e4""#));
//! assert!(svg.contains(r#"data-piece="bK""#));
//! assert!(svg.contains(r#"class="check""#));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::{Board, Color, Piece, Role, Setup, Square};
use alloc::borrow::Cow;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::{self, Write as _};
use core::str::FromStr;
use thiserror::Error;

/// The side of a square in the drawing's own units; the `viewBox` is eight
/// of them wide, and `size` only scales it.
const UNIT: i32 = 100;

/// A colour as SVG and CSS write it: `#rgb`, `#rgba`, `#rrggbb`,
/// `#rrggbbaa`, or a colour name (`green`, `rebeccapurple`).
///
/// Only these forms are accepted, so that whatever a user gives can be
/// written into the picture as it is.
///
/// ```
/// use fianchetto_board::svg::Paint;
///
/// assert_eq!("#f0d9b5".parse::<Paint>()?.as_str(), "#f0d9b5");
/// assert!("red".parse::<Paint>().is_ok());
/// assert!("#12345".parse::<Paint>().is_err());
/// assert!(r#"red" onload="x"#.parse::<Paint>().is_err());
/// # Ok::<(), fianchetto_board::svg::ParsePaintError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Paint(Cow<'static, str>);

impl Paint {
    /// A colour known to be valid, for constants. (Not checked: use
    /// [`str::parse`] for text from elsewhere.)
    const fn fixed(text: &'static str) -> Paint {
        Paint(Cow::Borrowed(text))
    }

    /// The colour as it is written into the picture.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Paint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A colour that [`Paint`] does not accept.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("not a colour: `{0}` (write #rgb, #rrggbb, #rrggbbaa or a colour name such as `green`)")]
pub struct ParsePaintError(pub String);

impl FromStr for Paint {
    type Err = ParsePaintError;

    fn from_str(s: &str) -> Result<Paint, ParsePaintError> {
        let valid = match s.strip_prefix('#') {
            Some(hex) => {
                matches!(hex.len(), 3 | 4 | 6 | 8) && hex.bytes().all(|b| b.is_ascii_hexdigit())
            }
            None => (1..=32).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_alphabetic()),
        };
        if valid {
            Ok(Paint(Cow::Owned(s.to_string())))
        } else {
            Err(ParsePaintError(s.to_string()))
        }
    }
}

/// The colours of a picture. `Default` is a brown wooden board with green
/// marks.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Colors {
    /// The light squares.
    pub light: Paint,
    /// The dark squares.
    pub dark: Paint,
    /// The overlay on the two squares of the last move (drawn half
    /// transparent).
    pub last_move: Paint,
    /// The glow around a king in check.
    pub check: Paint,
    /// The overlay on highlighted squares that name no colour of their own
    /// (drawn half transparent).
    pub highlight: Paint,
    /// Arrows that name no colour of their own.
    pub arrow: Paint,
}

impl Default for Colors {
    fn default() -> Colors {
        Colors {
            light: Paint::fixed("#f0d9b5"),
            dark: Paint::fixed("#b58863"),
            last_move: Paint::fixed("#cdd26a"),
            check: Paint::fixed("#e0281b"),
            highlight: Paint::fixed("#15781b"),
            arrow: Paint::fixed("#15781b"),
        }
    }
}

/// The four colours that Lichess and ChessBase write in PGN comments
/// (`[%cal Ge2e4]`, `[%csl Rd4]`), by their letter.
fn letter_paint(letter: char) -> Option<Paint> {
    Some(Paint::fixed(match letter {
        'G' => "#15781b",
        'R' => "#882020",
        'Y' => "#e68f00",
        'B' => "#003088",
        _ => return None,
    }))
}

/// Text that is not an arrow or a square mark.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseMarkError {
    /// Not `[GRYB]` followed by two squares (`e2e4`, `Ge2e4`).
    #[error("not an arrow: `{0}` (write two squares, e.g. e2e4, optionally after a colour letter G, R, Y or B)")]
    Arrow(String),
    /// Not `[GRYB]` followed by a square (`d4`, `Rd4`).
    #[error("not a square: `{0}` (write a square, e.g. d4, optionally after a colour letter G, R, Y or B)")]
    Square(String),
}

/// Splits an optional leading colour letter off `text`.
fn split_letter(text: &str) -> (Option<Paint>, &str) {
    let mut chars = text.chars();
    match chars.next().and_then(letter_paint) {
        Some(paint) => (Some(paint), chars.as_str()),
        None => (None, text),
    }
}

/// An arrow from one square to another. An arrow from a square to itself is
/// drawn as a ring around it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Arrow {
    /// Where the arrow starts.
    pub from: Square,
    /// Where it points.
    pub to: Square,
    /// Its colour; `None` takes [`Colors::arrow`].
    pub paint: Option<Paint>,
}

impl Arrow {
    /// An arrow in the picture's arrow colour.
    pub fn new(from: Square, to: Square) -> Arrow {
        Arrow {
            from,
            to,
            paint: None,
        }
    }
}

impl FromStr for Arrow {
    type Err = ParseMarkError;

    /// Reads `e2e4`, or with one of Lichess's colour letters first,
    /// `Ge2e4`, `Rd1d8`, `Ye7e5`, `Bb1c3`. A promotion letter after the
    /// squares (`e7e8q`, UCI style) is allowed and ignored.
    fn from_str(s: &str) -> Result<Arrow, ParseMarkError> {
        let error = || ParseMarkError::Arrow(s.to_string());
        let (paint, rest) = split_letter(s);
        let (from, to) = parse_two_squares(rest).ok_or_else(error)?;
        Ok(Arrow { from, to, paint })
    }
}

/// Reads two squares, `e2e4`, with an optional promotion letter after them.
fn parse_two_squares(text: &str) -> Option<(Square, Square)> {
    let squares = match text.len() {
        4 => text,
        5 if text.ends_with(['q', 'r', 'b', 'n']) => text.get(..4)?,
        _ => return None,
    };
    let from = squares.get(..2)?.parse().ok()?;
    let to = squares.get(2..)?.parse().ok()?;
    Some((from, to))
}

/// A highlighted square.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SquareMark {
    /// The square.
    pub square: Square,
    /// Its colour; `None` takes [`Colors::highlight`].
    pub paint: Option<Paint>,
}

impl SquareMark {
    /// A square in the picture's highlight colour.
    pub fn new(square: Square) -> SquareMark {
        SquareMark {
            square,
            paint: None,
        }
    }
}

impl FromStr for SquareMark {
    type Err = ParseMarkError;

    /// Reads `d4`, or `Gd4`, `Rd4`, `Yd4`, `Bd4` with a colour letter.
    fn from_str(s: &str) -> Result<SquareMark, ParseMarkError> {
        let (paint, rest) = split_letter(s);
        let square = rest
            .parse()
            .map_err(|_| ParseMarkError::Square(s.to_string()))?;
        Ok(SquareMark { square, paint })
    }
}

/// Reads the last move from UCI text (`e2e4`, `e7e8q`; castling as the
/// king's two squares or king takes rook), for [`BoardSvg::last_move_squares`].
///
/// ```
/// use fianchetto_board::svg::parse_move_squares;
/// use fianchetto_board::Square;
///
/// assert_eq!(parse_move_squares("g1f3"), Some((Square::G1, Square::F3)));
/// assert_eq!(parse_move_squares("e4"), None);
/// ```
pub fn parse_move_squares(text: &str) -> Option<(Square, Square)> {
    parse_two_squares(text)
}

/// A position drawn as SVG: see the [module documentation](self).
///
/// Built from a board (which also finds a king in check) or from a
/// [`Setup`], then adjusted with the builder methods; [`BoardSvg::to_svg`]
/// (or `Display`) writes the picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardSvg {
    pieces: [Option<Piece>; 64],
    orientation: Color,
    coordinates: bool,
    last_move: Option<(Square, Square)>,
    check: Option<Square>,
    marks: Vec<SquareMark>,
    arrows: Vec<Arrow>,
    size: Option<u32>,
    colors: Colors,
}

impl BoardSvg {
    /// The pieces of `setup`, seen from white, with coordinates, 400 pixels
    /// wide, nothing marked. (A setup is not validated, so no check is
    /// found: see [`BoardSvg::check`].)
    pub fn new(setup: &Setup) -> BoardSvg {
        BoardSvg {
            pieces: setup.board,
            orientation: Color::White,
            coordinates: true,
            last_move: None,
            check: None,
            marks: Vec::new(),
            arrows: Vec::new(),
            size: Some(400),
            colors: Colors::default(),
        }
    }

    /// The position of `board`, with its king marked if it is in check.
    pub fn from_board<B: Board>(board: &B) -> BoardSvg {
        let check = board.in_check().then(|| board.king(board.turn()));
        BoardSvg {
            check,
            ..BoardSvg::new(&board.to_setup())
        }
    }

    /// Draws the board from `color`'s side (its first rank at the bottom).
    pub fn orientation(mut self, color: Color) -> BoardSvg {
        self.orientation = color;
        self
    }

    /// Writes the files and ranks in the corner of the edge squares (on by
    /// default).
    pub fn coordinates(mut self, on: bool) -> BoardSvg {
        self.coordinates = on;
        self
    }

    /// Marks the two squares of the last move.
    pub fn last_move_squares(mut self, from: Square, to: Square) -> BoardSvg {
        self.last_move = Some((from, to));
        self
    }

    /// Marks a king in check on `square` (or none), instead of what
    /// [`BoardSvg::from_board`] found.
    pub fn check(mut self, square: Option<Square>) -> BoardSvg {
        self.check = square;
        self
    }

    /// Highlights a square (on top of the marks before it).
    pub fn mark(mut self, mark: SquareMark) -> BoardSvg {
        self.marks.push(mark);
        self
    }

    /// Draws an arrow (on top of the arrows before it).
    pub fn arrow(mut self, arrow: Arrow) -> BoardSvg {
        self.arrows.push(arrow);
        self
    }

    /// The width and height in pixels; `None` leaves them out, so that the
    /// picture fills its container (on a web page).
    pub fn size(mut self, pixels: Option<u32>) -> BoardSvg {
        self.size = pixels;
        self
    }

    /// The colours.
    pub fn colors(mut self, colors: Colors) -> BoardSvg {
        self.colors = colors;
        self
    }

    /// The picture, as the text of an SVG file.
    pub fn to_svg(&self) -> String {
        self.to_string()
    }

    /// The top-left corner of `square` in the drawing's units.
    fn corner(&self, square: Square) -> (i32, i32) {
        let file = square.file().index() as i32;
        let rank = square.rank().index() as i32;
        let (column, row) = match self.orientation {
            Color::White => (file, 7 - rank),
            Color::Black => (7 - file, rank),
        };
        (column * UNIT, row * UNIT)
    }

    /// The centre of `square` in the drawing's units.
    fn centre(&self, square: Square) -> (i32, i32) {
        let (x, y) = self.corner(square);
        (x + UNIT / 2, y + UNIT / 2)
    }

    fn write_squares(&self, f: &mut impl fmt::Write) -> fmt::Result {
        f.write_str("<g class=\"squares\">")?;
        for square in Square::all() {
            let (x, y) = self.corner(square);
            let (class, paint) = if square.is_light() {
                ("light", &self.colors.light)
            } else {
                ("dark", &self.colors.dark)
            };
            write!(
                f,
                "<rect class=\"square {class}\" data-square=\"{square}\" x=\"{x}\" y=\"{y}\" width=\"{UNIT}\" height=\"{UNIT}\" fill=\"{paint}\"/>"
            )?;
        }
        f.write_str("</g>\n")
    }

    fn write_overlays(&self, f: &mut impl fmt::Write) -> fmt::Result {
        let overlay = |f: &mut dyn fmt::Write, class: &str, square: Square, paint: &Paint| {
            let (x, y) = self.corner(square);
            write!(
                f,
                "<rect class=\"{class}\" x=\"{x}\" y=\"{y}\" width=\"{UNIT}\" height=\"{UNIT}\" fill=\"{paint}\" fill-opacity=\"0.5\"/>"
            )
        };
        if let Some((from, to)) = self.last_move {
            overlay(f, "lastmove", from, &self.colors.last_move)?;
            if to != from {
                overlay(f, "lastmove", to, &self.colors.last_move)?;
            }
        }
        for mark in &self.marks {
            let paint = mark.paint.as_ref().unwrap_or(&self.colors.highlight);
            overlay(f, "highlight", mark.square, paint)?;
        }
        if let Some(square) = self.check {
            let (x, y) = self.corner(square);
            write!(
                f,
                "<rect class=\"check\" x=\"{x}\" y=\"{y}\" width=\"{UNIT}\" height=\"{UNIT}\" fill=\"url(#check-glow)\"/>"
            )?;
        }
        Ok(())
    }

    fn write_coordinates(&self, f: &mut impl fmt::Write) -> fmt::Result {
        if !self.coordinates {
            return Ok(());
        }
        f.write_str("<g class=\"coordinates\" font-family=\"sans-serif\" font-size=\"20\" font-weight=\"bold\">")?;
        // Files along the bottom edge, ranks along the left edge, each in the
        // colour of the other kind of square so that it reads on both.
        let (bottom_rank, left_file) = match self.orientation {
            Color::White => (0, 0),
            Color::Black => (7, 7),
        };
        for i in 0..8u8 {
            let on_bottom = Square::from_index_wrapping(bottom_rank * 8 + i as usize);
            let (x, y) = self.corner(on_bottom);
            let paint = self.opposite_paint(on_bottom);
            let letter = on_bottom.file().char();
            write!(
                f,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"{paint}\">{letter}</text>",
                x + UNIT - 6,
                y + UNIT - 6
            )?;
            let on_left = Square::from_index_wrapping(i as usize * 8 + left_file);
            let (x, y) = self.corner(on_left);
            let paint = self.opposite_paint(on_left);
            let digit = on_left.rank().char();
            write!(
                f,
                "<text x=\"{}\" y=\"{}\" fill=\"{paint}\">{digit}</text>",
                x + 5,
                y + 21
            )?;
        }
        f.write_str("</g>\n")
    }

    fn opposite_paint(&self, square: Square) -> &Paint {
        if square.is_light() {
            &self.colors.dark
        } else {
            &self.colors.light
        }
    }

    fn write_pieces(&self, f: &mut impl fmt::Write) -> fmt::Result {
        f.write_str("<g class=\"pieces\">")?;
        for square in Square::all() {
            if let Some(piece) = self.pieces[square.index()] {
                let (x, y) = self.corner(square);
                let id = piece_id(piece);
                write!(
                    f,
                    "<use data-piece=\"{id}\" xlink:href=\"#{id}\" href=\"#{id}\" x=\"{x}\" y=\"{y}\" width=\"{UNIT}\" height=\"{UNIT}\"/>"
                )?;
            }
        }
        f.write_str("</g>\n")
    }

    fn write_arrows(&self, f: &mut impl fmt::Write) -> fmt::Result {
        if self.arrows.is_empty() {
            return Ok(());
        }
        f.write_str("<g class=\"arrows\" fill-opacity=\"0.8\" stroke-opacity=\"0.8\">")?;
        for arrow in &self.arrows {
            let paint = arrow.paint.as_ref().unwrap_or(&self.colors.arrow);
            let (x0, y0) = self.centre(arrow.from);
            let (x1, y1) = self.centre(arrow.to);
            if arrow.from == arrow.to {
                write!(
                    f,
                    "<circle class=\"arrow\" cx=\"{x0}\" cy=\"{y0}\" r=\"{}\" fill=\"none\" stroke=\"{paint}\" stroke-width=\"8\"/>",
                    UNIT / 2 - 6
                )?;
                continue;
            }
            write!(
                f,
                "<polygon class=\"arrow\" points=\"{}\" fill=\"{paint}\"/>",
                arrow_outline(x0, y0, x1, y1)
            )?;
        }
        f.write_str("</g>\n")
    }

    /// The piece drawings this picture uses, each once.
    fn write_defs(&self, f: &mut impl fmt::Write) -> fmt::Result {
        f.write_str("<defs>")?;
        let mut used = [false; 12];
        for piece in self.pieces.iter().flatten() {
            used[piece.index()] = true;
        }
        for (index, _) in used.iter().enumerate().filter(|(_, &u)| u) {
            if let Some(piece) = Piece::from_index(index) {
                write_piece_symbol(f, piece)?;
            }
        }
        if self.check.is_some() {
            let paint = &self.colors.check;
            write!(
                f,
                "<radialGradient id=\"check-glow\"><stop offset=\"0%\" stop-color=\"{paint}\"/><stop offset=\"25%\" stop-color=\"{paint}\"/><stop offset=\"90%\" stop-color=\"{paint}\" stop-opacity=\"0\"/></radialGradient>"
            )?;
        }
        f.write_str("</defs>\n")
    }
}

impl fmt::Display for BoardSvg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = 8 * UNIT;
        write!(
            f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.1\" viewBox=\"0 0 {side} {side}\""
        )?;
        if let Some(size) = self.size {
            write!(f, " width=\"{size}\" height=\"{size}\"")?;
        }
        f.write_str(">\n")?;
        self.write_defs(f)?;
        self.write_squares(f)?;
        self.write_overlays(f)?;
        self.write_coordinates(f)?;
        self.write_pieces(f)?;
        self.write_arrows(f)?;
        f.write_str("</svg>\n")
    }
}

/// `wP`, `bN`, ...: the colour letter, then the piece's upper-case letter.
fn piece_id(piece: Piece) -> String {
    let mut id = String::with_capacity(2);
    id.push(piece.color.char());
    id.push(piece.role.upper_char());
    id
}

/// √x by Newton's method (`f64::sqrt` needs the standard library), for the
/// lengths of arrows: x is at most 2 · 700², so 30 steps from x reach the
/// root to the last bit.
fn square_root(x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    let mut root = x.max(1.0);
    for _ in 0..30 {
        root = 0.5 * (root + x / root);
    }
    root
}

/// The outline of an arrow from centre `(x0, y0)` to centre `(x1, y1)`:
/// a shaft and a head, as the seven corners of one polygon, the tip a little
/// short of the target square's centre.
fn arrow_outline(x0: i32, y0: i32, x1: i32, y1: i32) -> String {
    let (dx, dy) = ((x1 - x0) as f64, (y1 - y0) as f64);
    let length = square_root(dx * dx + dy * dy);
    // Unit vectors along the arrow and across it.
    let (ux, uy) = (dx / length, dy / length);
    let (nx, ny) = (-uy, ux);
    let shaft = 8.0; // half the shaft's width
    let head = 22.0; // half the head's width
    let head_length = 38.0;
    let tip = length - 12.0;
    let base = tip - head_length;
    let at = |along: f64, across: f64| {
        (
            x0 as f64 + ux * along + nx * across,
            y0 as f64 + uy * along + ny * across,
        )
    };
    let corners = [
        at(0.0, shaft),
        at(base, shaft),
        at(base, head),
        at(tip, 0.0),
        at(base, -head),
        at(base, -shaft),
        at(0.0, -shaft),
    ];
    let mut points = String::new();
    for (i, (x, y)) in corners.iter().enumerate() {
        let sep = if i == 0 { "" } else { " " };
        // Writing to a String cannot fail.
        let _ = write!(points, "{sep}{x:.1},{y:.1}");
    }
    points
}

/// Writes the drawing of `piece` as a `symbol` whose id is [`piece_id`].
///
/// Each part is its own path, drawn in order, so that a later part's outline
/// shows over an earlier one's (the bishop's collar over its foot) and
/// overlapping parts never cancel out.
fn write_piece_symbol(f: &mut impl fmt::Write, piece: Piece) -> fmt::Result {
    let shape = shape(piece.role);
    let (fill, detail) = match piece.color {
        Color::White => ("#ffffff", "#000000"),
        Color::Black => ("#222222", "#ffffff"),
    };
    write!(
        f,
        "<symbol id=\"{}\" viewBox=\"0 0 100 100\"><g fill=\"{fill}\" stroke=\"#000000\" stroke-width=\"3\" stroke-linejoin=\"round\" stroke-linecap=\"round\">",
        piece_id(piece)
    )?;
    for part in shape.parts {
        write!(f, "<path d=\"{part}\"/>")?;
    }
    if !shape.details.is_empty() {
        write!(
            f,
            "<path d=\"{}\" fill=\"none\" stroke=\"{detail}\" stroke-width=\"2.5\"/>",
            shape.details
        )?;
    }
    f.write_str("</g></symbol>")
}

/// The drawing of one kind of piece in a 100 × 100 box: the parts, filled
/// with the piece's colour and outlined in black, then the detail lines,
/// drawn in the other colour so that they show on black pieces too.
struct Shape {
    parts: &'static [&'static str],
    details: &'static str,
}

/// The plinth every piece but the pawn stands on.
const BASE: &str =
    "M24 88 L76 88 Q80 88 80 84 L80 80 Q80 76 76 76 L24 76 Q20 76 20 80 L20 84 Q20 88 24 88 Z";

/// The drawings: simple shapes of this crate's own.
fn shape(role: Role) -> Shape {
    match role {
        Role::Pawn => Shape {
            parts: &[
                "M36 77 Q38 58 45 47 L55 47 Q62 58 64 77 Z",
                "M40 41 L60 41 Q63 41 63 44.5 Q63 48 60 48 L40 48 Q37 48 37 44.5 Q37 41 40 41 Z",
                "M50 17 A12 12 0 1 1 49.99 17 Z",
                "M28 88 L72 88 Q75 88 75 85 L75 80 Q75 77 72 77 L28 77 Q25 77 25 80 L25 85 Q25 88 28 88 Z",
            ],
            details: "",
        },
        Role::Knight => Shape {
            parts: &[
                "M33 77 C30 66 37 58 45 50 C40 53 35 55 30 58 C26 60 21 59 19 55 L18 50 C22 40 28 30 37 24 L41 12 L48 21 C60 21 69 31 72 45 C75 58 73 68 70 77 Z",
                BASE,
            ],
            details: "M38 31 A2.5 2.5 0 1 1 37.99 31 Z M23 52 L27 50 M61 29 C67 41 68 57 64 72",
        },
        Role::Bishop => Shape {
            parts: &[
                "M40 69 L60 69 L66 77 L34 77 Z",
                "M50 8 A5.5 5.5 0 1 1 49.99 8 Z",
                "M50 19 C65 31 69 48 59 62 L41 62 C31 48 35 31 50 19 Z",
                "M39 62 L61 62 Q64 62 64 65.5 Q64 69 61 69 L39 69 Q36 69 36 65.5 Q36 62 39 62 Z",
                BASE,
            ],
            details: "M56 32 L46 45",
        },
        Role::Rook => Shape {
            parts: &[
                "M34 42 L66 42 L69 77 L31 77 Z",
                "M27 19 L36 19 L36 27 L45 27 L45 19 L55 19 L55 27 L64 27 L64 19 L73 19 L73 37 L66 42 L34 42 L27 37 Z",
                BASE,
            ],
            details: "M31 37 L69 37 M33 69 L67 69",
        },
        Role::Queen => Shape {
            parts: &[
                "M21 26 A4.5 4.5 0 1 1 20.99 26 Z",
                "M37 17 A4.5 4.5 0 1 1 36.99 17 Z",
                "M50 12 A4.5 4.5 0 1 1 49.99 12 Z",
                "M63 17 A4.5 4.5 0 1 1 62.99 17 Z",
                "M79 26 A4.5 4.5 0 1 1 78.99 26 Z",
                "M28 77 L21 35 L35 56 L37 26 L46 53 L50 21 L54 53 L63 26 L65 56 L79 35 L72 77 Z",
                BASE,
            ],
            details: "M29 68 L71 68",
        },
        Role::King => Shape {
            parts: &[
                "M47 8 L53 8 L53 15 L60 15 L60 21 L53 21 L53 33 L47 33 L47 21 L40 21 L40 15 L47 15 Z",
                "M43 42 Q50 27 57 42 L50 55 Z",
                "M30 77 C19 63 21 44 36 43 C43 43 47 48 50 55 C53 48 57 43 64 43 C79 44 81 63 70 77 Z",
                BASE,
            ],
            details: "M31 68 L69 68 M50 55 L50 68",
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Bitboards;

    fn count(svg: &str, needle: &str) -> usize {
        svg.matches(needle).count()
    }

    #[test]
    fn every_square_and_piece_is_tagged_once() {
        let svg = BoardSvg::new(&Setup::start()).to_svg();
        assert_eq!(count(&svg, "data-square="), 64);
        assert_eq!(count(&svg, "data-piece="), 32);
        assert_eq!(count(&svg, r#"data-piece="wP""#), 8);
        assert_eq!(count(&svg, r#"data-piece="bK""#), 1);
        // Each drawing is defined once, however many pieces use it.
        assert_eq!(count(&svg, "<symbol "), 12);
        assert_eq!(count(&svg, r#"data-square="h8""#), 1);
    }

    /// The `x`/`y` of the element tagged `tag`.
    fn position(svg: &str, tag: &str) -> (i32, i32) {
        let start = svg.find(tag).unwrap_or_else(|| panic!("no {tag}"));
        let element = &svg[start..svg[start..].find("/>").map_or(svg.len(), |e| start + e)];
        let attribute = |name: &str| -> i32 {
            let from = element.find(&format!(" {name}=\"")).expect("attribute") + name.len() + 3;
            let to = from + element[from..].find('"').expect("closing quote");
            element[from..to].parse().expect("a number")
        };
        (attribute("x"), attribute("y"))
    }

    #[test]
    fn squares_sit_where_the_orientation_puts_them() {
        let white = BoardSvg::new(&Setup::start()).to_svg();
        assert_eq!(position(&white, r#"data-square="a8""#), (0, 0));
        assert_eq!(position(&white, r#"data-square="h1""#), (700, 700));
        assert_eq!(position(&white, r#"data-square="e4""#), (400, 400));
        let black = BoardSvg::new(&Setup::start())
            .orientation(Color::Black)
            .to_svg();
        assert_eq!(position(&black, r#"data-square="h1""#), (0, 0));
        assert_eq!(position(&black, r#"data-square="a8""#), (700, 700));
        // The white king stands on e1: bottom row from white's side, top
        // row from black's.
        assert_eq!(position(&white, r#"data-piece="wK""#), (400, 700));
        assert_eq!(position(&black, r#"data-piece="wK""#), (300, 0));
    }

    #[test]
    fn check_last_move_marks_and_arrows_are_drawn() -> Result<(), Box<dyn std::error::Error>> {
        let board = Bitboards::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1")?;
        assert!(!BoardSvg::from_board(&board)
            .to_svg()
            .contains("class=\"check\""));
        let checked = Bitboards::from_fen("4k3/8/8/8/8/8/8/4R1K1 b - - 0 1")?;
        let svg = BoardSvg::from_board(&checked)
            .last_move_squares(Square::E2, Square::E1)
            .mark("Rd4".parse()?)
            .mark(SquareMark::new(Square::E5))
            .arrow("e1e8".parse()?)
            .arrow("Bd4d4".parse()?)
            .to_svg();
        assert_eq!(position(&svg, "class=\"check\""), (400, 0));
        assert_eq!(count(&svg, "class=\"lastmove\""), 2);
        assert_eq!(count(&svg, "class=\"highlight\""), 2);
        assert!(svg.contains("fill=\"#882020\" fill-opacity=\"0.5\""));
        assert_eq!(count(&svg, "<polygon class=\"arrow\""), 1);
        assert_eq!(count(&svg, "<circle class=\"arrow\""), 1);
        assert!(svg.contains("stroke=\"#003088\""));
        Ok(())
    }

    #[test]
    fn size_coordinates_and_colours() -> Result<(), ParsePaintError> {
        let svg = BoardSvg::new(&Setup::start()).to_svg();
        let opening = svg.lines().next().unwrap_or_default();
        assert!(
            opening.ends_with(r#" width="400" height="400">"#),
            "{opening}"
        );
        assert_eq!(count(&svg, "<text "), 16);
        let colors = Colors {
            light: "white".parse()?,
            dark: "#333".parse()?,
            ..Colors::default()
        };
        let svg = BoardSvg::new(&Setup::start())
            .size(None)
            .coordinates(false)
            .colors(colors)
            .to_svg();
        let opening = svg.lines().next().unwrap_or_default();
        assert!(
            opening.starts_with("<svg ") && !opening.contains("width="),
            "{opening}"
        );
        assert_eq!(count(&svg, "<text "), 0);
        assert_eq!(count(&svg, r#"fill="white""#), 32);
        assert_eq!(count(&svg, r##"fill="#333""##), 32);
        Ok(())
    }

    #[test]
    fn square_root_is_the_standard_one() {
        for x in [0.0, 1.0, 2.0, 10_000.0, 20_000.0, 490_000.0, 980_000.0] {
            assert!((square_root(x) - f64::sqrt(x)).abs() < 1e-9, "{x}");
        }
    }

    #[test]
    fn bad_marks_and_colours_are_refused_with_the_text() {
        for bad in ["", "e2", "e2e9", "Xe2e4", "e2e4e5", "e2e4k", "é2e4"] {
            let err = bad.parse::<Arrow>().unwrap_err();
            assert!(err.to_string().contains(&format!("`{bad}`")), "{err}");
        }
        for bad in ["", "d9", "Gd", "Qd4", "d4d5"] {
            assert!(bad.parse::<SquareMark>().is_err(), "{bad}");
        }
        for bad in [
            "",
            "#",
            "#12",
            "#12345",
            "#gggggg",
            "red blue",
            "url(#x)",
            "\"/><script>",
        ] {
            assert!(bad.parse::<Paint>().is_err(), "{bad}");
        }
        assert_eq!(parse_move_squares("e7e8q"), Some((Square::E7, Square::E8)));
        assert_eq!(parse_move_squares("e7e8x"), None);
    }
}
