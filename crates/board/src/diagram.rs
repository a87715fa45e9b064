//! Positions as text diagrams: [`write_diagram`] draws a [`Setup`] (rank 8
//! on top, FEN letters, `.` for an empty square, the files underneath), and
//! every backend's `Display` draws itself with it, as the engine's `d`
//! command does.

use crate::array::{ArrayBoard, Geometry};
use crate::bitboards::Bitboards;
use crate::board::Board;
use crate::setup::Setup;
use crate::types::{Piece, Square};
use alloc::string::String;
use core::fmt;

/// Writes `setup` as a text diagram: eight lines from rank 8 down, each the
/// rank's number and its squares (a FEN piece letter or `.`), then the
/// files.
///
/// ```
/// use fianchetto_board::{write_diagram, Setup};
///
/// let mut text = String::new();
/// write_diagram(&Setup::start(), &mut text)?;
/// assert!(text.starts_with("8 r n b q k b n r \n7 p p p p p p p p \n"));
/// assert!(text.ends_with("1 R N B Q K B N R \n  a b c d e f g h\n"));
/// # Ok::<(), core::fmt::Error>(())
/// ```
pub fn write_diagram(setup: &Setup, out: &mut impl fmt::Write) -> fmt::Result {
    for rank in (0..8u8).rev() {
        out.write_char((b'1' + rank) as char)?;
        out.write_char(' ')?;
        for file in 0..8u8 {
            let sq = Square::from_index_wrapping(rank as usize * 8 + file as usize);
            out.write_char(setup.piece_at(sq).map_or('.', Piece::char))?;
            out.write_char(' ')?;
        }
        out.write_char('\n')?;
    }
    out.write_str("  a b c d e f g h\n")
}

/// `setup` as a text diagram (see [`write_diagram`]).
pub fn diagram(setup: &Setup) -> String {
    let mut text = String::with_capacity(160);
    // Writing to a String never fails.
    let _ = write_diagram(setup, &mut text);
    text
}

impl fmt::Display for Bitboards {
    /// The position as a text diagram (see [`write_diagram`]); `{:#}`
    /// adds its FEN underneath.
    ///
    /// ```
    /// use fianchetto_board::{Bitboards, Board};
    ///
    /// let board = Bitboards::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")?;
    /// assert_eq!(board.to_string(), "\
    /// 8 . . . . k . . . \n\
    /// 7 . . . . . . . . \n\
    /// 6 . . . . . . . . \n\
    /// 5 . . . . . . . . \n\
    /// 4 . . . . . . . . \n\
    /// 3 . . . . . . . . \n\
    /// 2 . . . . P . . . \n\
    /// 1 . . . . K . . . \n  a b c d e f g h\n");
    /// assert!(format!("{board:#}").ends_with("  a b c d e f g h\nFen: 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\n"));
    /// # Ok::<(), fianchetto_board::FenError>(())
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        display(self, f)
    }
}

impl<G: Geometry> fmt::Display for ArrayBoard<G> {
    /// The position as a text diagram, as [`Bitboards`] draws it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        display(self, f)
    }
}

/// The diagram of `board`, and with `{:#}` its FEN.
fn display<B: Board>(board: &B, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let setup = board.to_setup();
    write_diagram(&setup, f)?;
    if f.alternate() {
        writeln!(f, "Fen: {setup}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Board0x88, Mailbox};

    #[test]
    fn every_backend_draws_the_same_diagram() {
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let setup = Setup::from_fen(fen).unwrap_or_else(|e| panic!("{e}"));
        let want = diagram(&setup);
        assert!(want.starts_with("8 r . . . k . . r \n7 p . p p q p b . \n"));
        let bitboards = Bitboards::from_setup(&setup).unwrap_or_else(|e| panic!("{e}"));
        let x88 = Board0x88::from_setup(&setup).unwrap_or_else(|e| panic!("{e}"));
        let mailbox = Mailbox::from_setup(&setup).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(bitboards.to_string(), want);
        assert_eq!(x88.to_string(), want);
        assert_eq!(mailbox.to_string(), want);
        assert_eq!(format!("{mailbox:#}"), format!("{want}Fen: {fen}\n"));
    }
}
