//! Material: which pieces each side has, the name of a table (`KQvKR`) and
//! the key the tables are found by.

use fianchetto_board::{Board, Color, Role};
use std::fmt;

/// The roles in the order table names list them: king, queen, rook, bishop,
/// knight, pawn.
const NAME_ORDER: [Role; 6] = [
    Role::King,
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Pawn,
];

/// The pieces of each side, counted by role: what a Syzygy table is for.
/// Written as the tables are named: `KQvKR` is king and queen against king
/// and rook, white (the side before the `v`) first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Material {
    /// `counts[color][role]`, indexed by [`Color::index`] and [`Role::index`].
    counts: [[u8; 6]; 2],
}

impl Material {
    /// The material on `board`.
    pub fn of<B: Board>(board: &B) -> Material {
        let mut counts = [[0u8; 6]; 2];
        for color in [Color::White, Color::Black] {
            for role in Role::ALL {
                counts[color.index()][role.index()] = board.pieces(color, role).count() as u8;
            }
        }
        Material { counts }
    }

    /// The material of `counts[color][role]`.
    pub(crate) fn from_counts(counts: [[u8; 6]; 2]) -> Material {
        Material { counts }
    }

    /// Parses a table name such as `KQvKR` (each side's pieces in any order;
    /// at least a king on each side). `None` for anything else.
    pub fn from_name(name: &str) -> Option<Material> {
        let (white, black) = name.split_once('v')?;
        let mut counts = [[0u8; 6]; 2];
        for (side, text) in [white, black].into_iter().enumerate() {
            for c in text.chars() {
                if !c.is_ascii_uppercase() {
                    return None;
                }
                let role = Role::from_char(c)?;
                counts[side][role.index()] += 1;
                if counts[side][role.index()] > 15 {
                    return None;
                }
            }
            if counts[side][Role::King.index()] != 1 {
                return None;
            }
        }
        Some(Material { counts })
    }

    /// How many `role`s of `color` there are.
    pub fn count(&self, color: Color, role: Role) -> u8 {
        self.counts[color.index()][role.index()]
    }

    /// The number of pieces, kings included.
    pub fn pieces(&self) -> u32 {
        self.counts.iter().flatten().map(|&c| c as u32).sum()
    }

    /// Whether either side has a pawn.
    pub fn has_pawns(&self) -> bool {
        self.counts[0][Role::Pawn.index()] + self.counts[1][Role::Pawn.index()] > 0
    }

    /// Whether both sides have the same pieces (`KRvKR`).
    pub fn is_symmetric(&self) -> bool {
        self.counts[0] == self.counts[1]
    }

    /// The same material with the colours swapped (`KRvKQ` for `KQvKR`).
    pub fn flipped(&self) -> Material {
        Material {
            counts: [self.counts[1], self.counts[0]],
        }
    }

    /// The material named the way the table files are: the side with more
    /// pieces first, and between sides with as many, the one with the
    /// stronger pieces (`KQvKR`, never `KRvKQ`).
    pub fn normalized(&self) -> Material {
        // One side's pieces as indices into NAME_ORDER, strongest first:
        // a lexicographically smaller list is the stronger side.
        let strength = |side: usize| {
            let mut list = [u8::MAX; 16];
            let mut n = 0;
            for (i, role) in NAME_ORDER.iter().enumerate() {
                for _ in 0..self.counts[side][role.index()] {
                    if n < list.len() {
                        list[n] = i as u8;
                        n += 1;
                    }
                }
            }
            (std::cmp::Reverse(n), list)
        };
        if strength(1) < strength(0) {
            self.flipped()
        } else {
            *self
        }
    }

    /// A number that identifies this material (with white and black told
    /// apart): four bits for each non-king count of each side.
    pub(crate) fn key(&self) -> u64 {
        pack_key(|color, role| self.counts[color.index()][role.index()] as u64)
    }

    /// [`Material::key`] of the position on `board`, without building the
    /// material first (this runs on every probe).
    pub(crate) fn key_of<B: Board>(board: &B) -> u64 {
        pack_key(|color, role| board.pieces(color, role).count() as u64)
    }
}

/// The material key from each side's count of each non-king role, white's
/// pawns first: four bits a count.
fn pack_key(count: impl Fn(Color, Role) -> u64) -> u64 {
    let mut key = 0u64;
    for color in [Color::White, Color::Black] {
        for role in [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ] {
            key = (key << 4) | (count(color, role) & 15);
        }
    }
    key
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for side in 0..2 {
            if side == 1 {
                f.write_str("v")?;
            }
            for role in NAME_ORDER {
                for _ in 0..self.counts[side][role.index()] {
                    write!(f, "{}", role.upper_char())?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fianchetto_board::Bitboards;

    #[test]
    fn names() {
        let m = Material::from_name("KQvKR").unwrap();
        assert_eq!(m.to_string(), "KQvKR");
        assert_eq!(m.flipped().to_string(), "KRvKQ");
        assert_eq!(m.flipped().normalized(), m);
        assert_eq!(
            Material::from_name("KRPvKB")
                .unwrap()
                .normalized()
                .to_string(),
            "KRPvKB"
        );
        assert_eq!(
            Material::from_name("KBvKRP")
                .unwrap()
                .normalized()
                .to_string(),
            "KRPvKB"
        );
        assert_eq!(
            Material::from_name("KPvKN")
                .unwrap()
                .normalized()
                .to_string(),
            "KNvKP"
        );
        assert_eq!(Material::from_name("KPKvK"), None);
        assert_eq!(Material::from_name("KQvQ"), None);
        assert_eq!(Material::from_name("kqvk"), None);
        assert_eq!(Material::from_name("README"), None);
        assert!(Material::from_name("KNvKN").unwrap().is_symmetric());
    }

    #[test]
    fn keys() {
        let board = Bitboards::from_fen("8/8/8/5k2/8/2r5/8/2KQ4 w - - 0 1").unwrap();
        let m = Material::of(&board);
        assert_eq!(m.to_string(), "KQvKR");
        assert_eq!(Material::key_of(&board), m.key());
        assert_ne!(m.key(), m.flipped().key());
        assert_eq!(m.pieces(), 4);
    }
}
