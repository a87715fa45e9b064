//! Reading SAN text into a [`San`], before any board is looked at.

use super::*;

/// Reads the syntax of `text` (see the module documentation for the
/// accepted forms), or says what is wrong with it.
pub(super) fn parse_syntax(text: &str) -> Result<San, SanSyntaxError> {
    if let Some(san) = parse_plain(text.as_bytes()) {
        return Ok(san);
    }
    parse_any(text)
}

/// The plain forms almost every PGN file writes, read in one pass: an
/// optional piece letter (`N`, `B`, `R`, `Q`, `K`), the piece's file and/or
/// rank, `x`, the destination, a pawn's `=` and promotion piece, and one
/// `+` or `#`. `None` for anything else (castling, lowercase letters,
/// spaces, annotations, `e.p.`, errors), which [`parse_any`] reads.
#[inline]
pub(super) fn parse_plain(b: &[u8]) -> Option<San> {
    let (role, start) = match *b.first()? {
        b'N' => (Role::Knight, 1),
        b'B' => (Role::Bishop, 1),
        b'R' => (Role::Rook, 1),
        b'Q' => (Role::Queen, 1),
        b'K' => (Role::King, 1),
        b'a'..=b'h' => (Role::Pawn, 0),
        _ => return None,
    };
    let (mut end, suffix) = match b[b.len() - 1] {
        b'+' => (b.len() - 1, Some(Suffix::Check)),
        b'#' => (b.len() - 1, Some(Suffix::Checkmate)),
        _ => (b.len(), None),
    };
    let mut promotion = None;
    if role == Role::Pawn && end >= 4 && b[end - 2] == b'=' {
        promotion = Some(match b[end - 1] {
            b'N' => Role::Knight,
            b'B' => Role::Bishop,
            b'R' => Role::Rook,
            b'Q' => Role::Queen,
            _ => return None,
        });
        end -= 2;
    }
    if end < start + 2 {
        return None;
    }
    let to = square(b[end - 2], b[end - 1])?;
    end -= 2;
    let capture = end > start && b[end - 1] == b'x';
    if capture {
        end -= 1;
    }
    let (from_file, from_rank) = match b[start..end] {
        [] => (None, None),
        [c] if c.is_ascii_digit() => (None, Some(rank(c)?)),
        [c] => (Some(file(c)?), None),
        [f, r] => (Some(file(f)?), Some(rank(r)?)),
        _ => return None,
    };
    Some(San::Normal {
        role,
        from_file,
        from_rank,
        capture,
        to,
        promotion,
        en_passant: false,
        suffix,
    })
}

/// `a`..`h`.
#[inline]
fn file(c: u8) -> Option<File> {
    File::from_char(c as char)
}

/// `1`..`8`.
#[inline]
fn rank(c: u8) -> Option<Rank> {
    Rank::from_char(c as char)
}

/// A square's two characters.
#[inline]
fn square(f: u8, r: u8) -> Option<Square> {
    Some(Square::from_coords(file(f)?, rank(r)?))
}

/// Reads any accepted form, or says what is wrong with the text.
pub(super) fn parse_any(text: &str) -> Result<San, SanSyntaxError> {
    if !text.is_ascii() {
        // Every SAN character is ASCII; this also makes byte indexing safe.
        return Err(SanSyntaxError::NotAscii);
    }
    // Trimmed byte by byte: this runs for every move of every PGN game read.
    let bytes = text.as_bytes();
    // `char::is_whitespace` on ASCII, as a byte test the compiler inlines.
    let space = |b: u8| b.is_ascii_whitespace() || b == 0x0b;
    let (mut start, mut end) = (0, bytes.len());
    while start < end && space(bytes[start]) {
        start += 1;
    }
    while end > start && space(bytes[end - 1]) {
        end -= 1;
    }
    if start == end {
        return Err(SanSyntaxError::Empty);
    }
    // Annotations and check marks, then an `e.p.` note, may trail the move
    // (and check marks may also stand between the move and the note).
    let mut suffix = None;
    let mut strip_marks = |end: &mut usize| {
        while *end > start && matches!(bytes[*end - 1], b'+' | b'#' | b'!' | b'?') {
            match bytes[*end - 1] {
                b'#' => suffix = Some(Suffix::Checkmate),
                b'+' if suffix.is_none() => suffix = Some(Suffix::Check),
                _ => {}
            }
            *end -= 1;
        }
        while *end > start && space(bytes[*end - 1]) {
            *end -= 1;
        }
    };
    strip_marks(&mut end);
    let mut en_passant = false;
    if end > start && bytes[end - 1] == b'.' && bytes[start..end].ends_with(b"e.p.") {
        end -= 4;
        while end > start && space(bytes[end - 1]) {
            end -= 1;
        }
        en_passant = true;
        strip_marks(&mut end);
    }
    if start == end {
        return Err(SanSyntaxError::OnlyAnnotations);
    }
    // ASCII, so every byte index is a character boundary.
    let s = &text[start..end];
    let castle = match s {
        _ if !matches!(s.as_bytes()[0], b'O' | b'0' | b'o') => None,
        "O-O" | "0-0" | "o-o" => Some(CastlingSide::King),
        "O-O-O" | "0-0-0" | "o-o-o" => Some(CastlingSide::Queen),
        _ => None,
    };
    if let Some(side) = castle {
        if en_passant {
            return Err(SanSyntaxError::CastlingEnPassant);
        }
        return Ok(San::Castle { side, suffix });
    }
    let b = s.as_bytes();
    let (role, mut start) = match b[0] {
        b'N' | b'n' => (Role::Knight, 1),
        b'B' => (Role::Bishop, 1),
        b'R' | b'r' => (Role::Rook, 1),
        b'Q' | b'q' => (Role::Queen, 1),
        b'K' | b'k' => (Role::King, 1),
        b'P' => (Role::Pawn, 1),
        _ => (Role::Pawn, 0),
    };
    let mut end = b.len();

    // Promotion, read from the end: `=Q`, `Q`, `=q` or `q` after the rank.
    let mut promotion = None;
    if end >= start + 3 {
        if let Some(r @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen)) =
            Role::from_char(b[end - 1] as char)
        {
            if b[end - 2] == b'=' {
                promotion = Some(r);
                end -= 2;
            } else if b[end - 2].is_ascii_digit() {
                promotion = Some(r);
                end -= 1;
            }
        }
    }
    if promotion.is_some() && role != Role::Pawn {
        return Err(SanSyntaxError::PromotionNotPawn);
    }
    if en_passant && (role != Role::Pawn || promotion.is_some()) {
        return Err(SanSyntaxError::EnPassantNotPawn);
    }
    if end < start + 2 {
        return Err(SanSyntaxError::NoDestination);
    }
    let to = square(b[end - 2], b[end - 1]).ok_or(SanSyntaxError::BadDestination)?;
    end -= 2;

    let mut capture = false;
    if end > start && matches!(b[end - 1], b'x' | b':') {
        capture = true;
        end -= 1;
    } else if end > start + 1 && b[end - 1] == b'-' {
        // Long algebraic `Ng1-f3`: the separator only follows a full square.
        end -= 1;
    }

    // What is left names the moving piece: a file, a rank, or both.
    let mut from_file = None;
    let mut from_rank = None;
    if start < end {
        if let Some(f) = file(b[start]) {
            from_file = Some(f);
            start += 1;
        }
    }
    if start < end {
        if let Some(r) = rank(b[start]) {
            from_rank = Some(r);
            start += 1;
        }
    }
    if start != end {
        return Err(SanSyntaxError::BadPrefix);
    }
    Ok(San::Normal {
        role,
        from_file,
        from_rank,
        capture,
        to,
        promotion,
        en_passant,
        suffix,
    })
}
