//! Reading SAN text into a [`San`], before any board is looked at.

use super::*;

/// Reads the syntax of `text` (see the module documentation for the
/// accepted forms), or says what is wrong with it.
pub(super) fn parse_syntax(text: &str) -> Result<San, SanSyntaxError> {
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
    let to = match (
        File::from_char(b[end - 2] as char),
        Rank::from_char(b[end - 1] as char),
    ) {
        (Some(f), Some(r)) => Square::from_coords(f, r),
        _ => return Err(SanSyntaxError::BadDestination),
    };
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
        if let Some(f) = File::from_char(b[start] as char) {
            from_file = Some(f);
            start += 1;
        }
    }
    if start < end {
        if let Some(r) = Rank::from_char(b[start] as char) {
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
