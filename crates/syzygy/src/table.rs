//! One table file: its header read once, and the value of a position looked
//! up in it.
//!
//! A file holds one or two tables per pawn file: pawnless tables are one
//! table (or one per side to move), tables with pawns four, one for each
//! file of the leading pawn (a..d, e..h mirrored). Each lists the pieces in
//! the order their squares enter the index, grouped: a leading group (three
//! unique pieces, or the two kings, or the leading pawns), the other side's
//! pawns, then each run of like pieces. The index is a mixed-radix number
//! with one digit per group, in an order the header gives.

use crate::error::{TableKind, TableProblem};
use crate::material::Material;
use crate::numbering::{
    file_of, lead_pawn_order, off_diagonal, pawn_file, rank_of, three_piece_index, transpose,
    BINOMIAL, KK_INDEX, KK_PLACEMENTS, LEAD_PAWNS, PAWN_TWIST, THREE_PLACEMENTS, TRIANGLE,
};
use crate::pairs::{u16_le, u8_at, Corrupt, Header, Pairs};
use fianchetto_board::{Board, Color, Role};
use memmap2::Mmap;

/// Pieces in a table: at most seven.
const MAX_PIECES: usize = 7;

/// A piece as the header writes it: colour in bit 3 (set: black), role in
/// bits 0..3 (1 pawn, 2 knight, 3 bishop, 4 rook, 5 queen, 6 king).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PieceCode(u8);

impl PieceCode {
    fn parse(nibble: u8) -> Option<PieceCode> {
        matches!(nibble & 7, 1..=6).then_some(PieceCode(nibble))
    }

    fn black(self) -> bool {
        self.0 & 8 != 0
    }

    fn role(self) -> Role {
        // 1..=6 map onto Role's pawn..king order.
        Role::ALL[(self.0 & 7) as usize - 1]
    }
}

/// One table of a file: one pawn file, one side to move.
#[derive(Debug)]
struct SideTable {
    pieces: [PieceCode; MAX_PIECES],
    /// At the first piece of each group, the group's size; 0 elsewhere.
    groups: [u8; MAX_PIECES],
    /// At the first piece of each group, the weight of its digit.
    factors: [u64; MAX_PIECES],
    entries: u64,
    pairs: Pairs,
}

/// Where one of a DTZ table's four value maps is, and its length.
#[derive(Clone, Copy, Debug, Default)]
struct ValueMap {
    at: usize,
    len: usize,
}

/// The tables of one pawn file (pawnless files: the only one).
#[derive(Debug)]
struct FileTables {
    /// One per side to move stored.
    sides: Vec<SideTable>,
    /// DTZ: the flags of the values (bit 0: the side to move stored, bit 1:
    /// values go through maps, bit 2/3: wins/losses counted in plies, not
    /// moves, bit 4: maps of 16-bit values).
    dtz_flags: u8,
    /// DTZ, when mapped: a map for each of loss, blessed loss, cursed win,
    /// win (in the order `DTZ_MAP_OF` gives).
    maps: [ValueMap; 4],
}

const DTZ_MAPPED: u8 = 2;
const DTZ_WIN_PLIES: u8 = 4;
const DTZ_LOSS_PLIES: u8 = 8;
const DTZ_WIDE: u8 = 16;

/// Which of the four maps holds the DTZ values of positions of WDL -2..=2.
const DTZ_MAP_OF: [usize; 5] = [1, 3, 0, 2, 0];

/// A table file, read and mapped.
#[derive(Debug)]
pub(crate) struct Table {
    map: Mmap,
    kind: TableKind,
    /// The key of the material with the colours as the table stores them.
    key: u64,
    symmetric: bool,
    pieces: usize,
    /// Leading pawns, and the other side's pawns (0 and 0: pawnless).
    lead_pawns: usize,
    other_pawns: usize,
    files: Vec<FileTables>,
}

/// A position of a table's material, turned so that the table holds it.
struct Oriented {
    /// Swap the colours (and, with pawns, the ranks).
    flip: bool,
    /// The side to move in the table's colours (0: white).
    side: usize,
}

impl Table {
    /// Reads the header of `map`, a file named for the material `named`.
    pub(crate) fn new(map: Mmap, kind: TableKind, named: Material) -> Result<Table, TableProblem> {
        let data: &[u8] = &map;
        if data.len() < 5 {
            return Err(TableProblem::Truncated {
                len: data.len(),
                needed: 5,
            });
        }
        let found = [data[0], data[1], data[2], data[3]];
        if found != kind.magic() {
            return Err(TableProblem::Magic { kind, found });
        }
        let layout = Layout::read(data, kind, named)?;
        if layout.end > data.len() {
            return Err(TableProblem::Truncated {
                len: data.len(),
                needed: layout.end,
            });
        }
        Ok(Table {
            map,
            kind,
            key: layout.material.key(),
            symmetric: layout.material.is_symmetric(),
            pieces: named.pieces() as usize,
            lead_pawns: layout.lead_pawns,
            other_pawns: layout.other_pawns,
            files: layout.files,
        })
    }

    /// Decodes every value of every table of the file and checks it (see
    /// [`Pairs::verify`]), and that the DTZ value maps lie inside the file.
    pub(crate) fn verify(&self) -> Result<(), Corrupt> {
        let data: &[u8] = &self.map;
        for tables in &self.files {
            let max_value = match self.kind {
                TableKind::Wdl => 4,
                TableKind::Dtz if tables.dtz_flags & DTZ_MAPPED != 0 => {
                    let width = if tables.dtz_flags & DTZ_WIDE != 0 {
                        2
                    } else {
                        1
                    };
                    for map in &tables.maps {
                        if map.at + width * map.len > data.len() {
                            return Err("a DTZ value map past the end of the file");
                        }
                    }
                    let longest = tables.maps.iter().map(|m| m.len).max().unwrap_or(0);
                    longest.saturating_sub(1).min(u16::MAX as usize) as u16
                }
                TableKind::Dtz => u16::MAX,
            };
            for side in &tables.sides {
                side.pairs.verify(data, side.entries, max_value)?;
            }
        }
        Ok(())
    }

    /// The WDL value (-2..=2) of `board`, whose material is this table's.
    /// En passant is not looked at: the tables hold positions without it.
    pub(crate) fn wdl<B: Board>(&self, board: &B) -> Result<i8, Corrupt> {
        debug_assert_eq!(self.kind, TableKind::Wdl);
        let o = self.orient(board);
        let mut squares = [0usize; MAX_PIECES];
        let file = self.place(board, &o, &mut squares)?;
        let tables = &self.files[file];
        let table = tables
            .sides
            .get(o.side)
            .ok_or("a side to move not stored")?;
        let value = table
            .pairs
            .value(&self.map, self.index(table, &mut squares)?)?;
        if value > 4 {
            return Err("a WDL value out of range");
        }
        Ok(value as i8 - 2)
    }

    /// The DTZ value of `board` as the table stores it (plies to zeroing,
    /// before the rounding the caller adds), given its WDL value `wdl`; None
    /// when this table stores the other side to move.
    pub(crate) fn dtz<B: Board>(&self, board: &B, wdl: i8) -> Result<Option<i32>, Corrupt> {
        debug_assert_eq!(self.kind, TableKind::Dtz);
        let o = self.orient(board);
        let mut squares = [0usize; MAX_PIECES];
        let file = self.place(board, &o, &mut squares)?;
        let tables = &self.files[file];
        let stored = (tables.dtz_flags & 1) as usize;
        // A symmetric pawnless table holds both sides: its side is always 0.
        if stored != o.side && !(self.symmetric && self.lead_pawns == 0) {
            return Ok(None);
        }
        let table = &tables.sides[0];
        let mut value = table
            .pairs
            .value(&self.map, self.index(table, &mut squares)?)? as usize;
        if tables.dtz_flags & DTZ_MAPPED != 0 {
            let map = tables.maps[DTZ_MAP_OF[(wdl + 2) as usize]];
            if value >= map.len {
                return Err("a DTZ value past its map");
            }
            value = if tables.dtz_flags & DTZ_WIDE != 0 {
                u16_le(&self.map, map.at + 2 * value)? as usize
            } else {
                u8_at(&self.map, map.at + value)? as usize
            };
        }
        let plies = match wdl {
            2 => tables.dtz_flags & DTZ_WIN_PLIES != 0,
            -2 => tables.dtz_flags & DTZ_LOSS_PLIES != 0,
            _ => false,
        };
        Ok(Some(if plies { value } else { 2 * value } as i32))
    }

    /// How `board` maps onto the table's colours.
    fn orient<B: Board>(&self, board: &B) -> Oriented {
        let black = board.turn() == Color::Black;
        // A symmetric table is stored with white to move: with black to
        // move, swap the colours. Otherwise swap them when black has the
        // pieces the table calls white.
        let flip = if self.symmetric {
            black
        } else {
            Material::key_of(board) != self.key
        };
        Oriented {
            flip,
            side: (black ^ flip) as usize,
        }
    }

    /// Writes the squares of `board`'s pieces into `squares`, in the order
    /// the table lists them; returns the pawn file (0 when pawnless).
    fn place<B: Board>(
        &self,
        board: &B,
        o: &Oriented,
        squares: &mut [usize; MAX_PIECES],
    ) -> Result<usize, Corrupt> {
        if self.lead_pawns == 0 {
            let list = &self.files[0].sides[o.side.min(self.files[0].sides.len() - 1)];
            self.fill(board, o, &list.pieces, 0, squares)?;
            return Ok(0);
        }
        // The leading pawns first: the one nearest the a or h file (then
        // the lowest) leads, and its file picks the table.
        let lead = self.lead_pawns;
        self.fill(
            board,
            o,
            &self.files[0].sides[0].pieces,
            0,
            &mut squares[..lead],
        )?;
        let first = (0..lead)
            .min_by_key(|&i| lead_pawn_order(squares[i]))
            .unwrap_or(0);
        squares.swap(0, first);
        let file = pawn_file(squares[0]);
        let side = o.side.min(self.files[file].sides.len() - 1);
        self.fill(
            board,
            o,
            &self.files[file].sides[side].pieces,
            lead,
            squares,
        )?;
        Ok(file)
    }

    /// Fills `squares[from..]` with the squares of the pieces `list[from..]`.
    fn fill<B: Board>(
        &self,
        board: &B,
        o: &Oriented,
        list: &[PieceCode; MAX_PIECES],
        from: usize,
        squares: &mut [usize],
    ) -> Result<(), Corrupt> {
        let mirror = if o.flip && self.lead_pawns > 0 { 56 } else { 0 };
        let mut i = from;
        while i < squares.len().min(self.pieces) {
            let code = list[i];
            let color = if code.black() ^ o.flip {
                Color::Black
            } else {
                Color::White
            };
            let bb = board.pieces(color, code.role());
            if bb.is_empty() {
                return Err("a position whose pieces are not the table's");
            }
            for sq in bb {
                *squares
                    .get_mut(i)
                    .ok_or("a position whose pieces are not the table's")? = sq.index() ^ mirror;
                i += 1;
            }
        }
        Ok(())
    }

    /// The index of the position whose squares `squares` holds.
    fn index(&self, table: &SideTable, squares: &mut [usize; MAX_PIECES]) -> Result<u64, Corrupt> {
        let n = self.pieces;
        let s = &mut squares[..n];
        let (lead_index, mut i) = if self.lead_pawns > 0 {
            (self.lead_pawn_index(s), self.lead_pawns)
        } else {
            (
                Self::pawnless_lead_index(table, s)?,
                table.groups[0] as usize,
            )
        };
        let mut index = lead_index * table.factors[0];
        if self.other_pawns > 0 {
            // The other side's pawns: a subset of the 48 pawn squares less
            // the leading pawns'.
            let (from, k) = (i, self.other_pawns);
            index += Self::subset_index(s, from, k, 8) * table.factors[from];
            i += k;
        }
        while i < n {
            let k = table.groups[i] as usize;
            if k == 0 {
                return Err("a group of no pieces");
            }
            index += Self::subset_index(s, i, k, 0) * table.factors[i];
            i += k;
        }
        if index >= table.entries {
            return Err("an index past the table");
        }
        Ok(index)
    }

    /// Moves the pieces by the board's symmetries so that the first is in
    /// the a1-d1-d4 triangle (and the first of the leading group off the
    /// diagonal is below it); the index of the leading group.
    fn pawnless_lead_index(table: &SideTable, s: &mut [usize]) -> Result<u64, Corrupt> {
        let lead = table.groups[0] as usize;
        if file_of(s[0]) > 3 {
            s.iter_mut().for_each(|q| *q ^= 7);
        }
        if rank_of(s[0]) > 3 {
            s.iter_mut().for_each(|q| *q ^= 56);
        }
        if let Some(i) = s.iter().position(|&q| off_diagonal(q) != 0) {
            if i < lead && off_diagonal(s[i]) > 0 {
                s.iter_mut().for_each(|q| *q = transpose(*q));
            }
        }
        if lead == 3 {
            Ok(three_piece_index(s))
        } else {
            let code = KK_INDEX[TRIANGLE[s[0]] as usize][s[1]];
            u64::try_from(code).map_err(|_| "kings that touch")
        }
    }

    /// Mirrors the pieces left-right when the leading pawn (already first)
    /// is on files e..h; the index of the leading pawns.
    fn lead_pawn_index(&self, s: &mut [usize]) -> u64 {
        let lead = self.lead_pawns;
        if file_of(s[0]) > 3 {
            s.iter_mut().for_each(|q| *q ^= 7);
        }
        // The other leading pawns, highest PAWN_TWIST first.
        s[1..lead].sort_unstable_by(|a, b| PAWN_TWIST[*b].cmp(&PAWN_TWIST[*a]));
        let mut index = LEAD_PAWNS[lead - 1].index[s[0]];
        for (i, &q) in s.iter().enumerate().take(lead).skip(1) {
            index += BINOMIAL[lead - i][PAWN_TWIST[q] as usize];
        }
        index
    }

    /// The index of the `k` like pieces at `s[from..from + k]` as a subset
    /// of the squares the pieces before them leave free (less `offset`
    /// squares at the bottom: 8 for pawns, which cannot stand on rank 1).
    fn subset_index(s: &mut [usize], from: usize, k: usize, offset: usize) -> u64 {
        let (before, group) = s.split_at_mut(from);
        let group = &mut group[..k];
        group.sort_unstable();
        let mut index = 0;
        for (m, &q) in group.iter().enumerate() {
            let taken = before.iter().filter(|&&b| b < q).count();
            index += BINOMIAL[m + 1][(q - taken).saturating_sub(offset)];
        }
        index
    }
}

/// What the header of a file says.
struct Layout {
    /// The material with the colours the table uses.
    material: Material,
    lead_pawns: usize,
    other_pawns: usize,
    files: Vec<FileTables>,
    /// Where the last block ends: the file must be at least this long.
    end: usize,
}

impl Layout {
    fn read(data: &[u8], kind: TableKind, named: Material) -> Result<Layout, TableProblem> {
        let corrupt = TableProblem::Corrupt;
        let flags = data[4];
        let two_sides = kind == TableKind::Wdl && flags & 1 != 0;
        let has_pawns = flags & 2 != 0;
        let n = named.pieces() as usize;
        if !(3..=MAX_PIECES).contains(&n) {
            return Err(corrupt("a table of more than 7 or fewer than 3 pieces"));
        }
        let (wp, bp) = (
            named.count(Color::White, Role::Pawn) as usize,
            named.count(Color::Black, Role::Pawn) as usize,
        );
        // The side with fewer pawns (but some) leads.
        let lead = if wp > 0 && (bp == 0 || wp < bp) {
            wp
        } else {
            bp
        };
        let other = wp + bp - lead;
        let (lead, other) = if has_pawns { (lead, other) } else { (0, 0) };
        if has_pawns && lead == 0 {
            return Err(TableProblem::Corrupt("a pawn table without pawns"));
        }

        // The piece lists: per file, an order byte (two with pawns on both
        // sides) and a byte per piece, low nibbles for the first side to
        // move, high nibbles for the second.
        let files = if has_pawns { 4 } else { 1 };
        let sides = if two_sides { 2 } else { 1 };
        let order_bytes = if other > 0 { 2 } else { 1 };
        let mut pos = 5;
        let mut lists = Vec::new();
        let mut material: Option<Material> = None;
        for _ in 0..files {
            let mut per_side = Vec::new();
            for side in 0..sides {
                let nibble = |b: u8| if side == 0 { b & 15 } else { b >> 4 };
                let order = nibble(u8_at(data, pos).map_err(corrupt)?) as usize;
                let order2 = if other > 0 {
                    nibble(u8_at(data, pos + 1).map_err(corrupt)?) as usize
                } else {
                    usize::MAX
                };
                let mut pieces = [PieceCode(0); MAX_PIECES];
                for (i, p) in pieces.iter_mut().enumerate().take(n) {
                    let byte = u8_at(data, pos + order_bytes + i).map_err(corrupt)?;
                    *p = PieceCode::parse(nibble(byte)).ok_or(corrupt("an unknown piece"))?;
                }
                let listed = material_of(&pieces[..n]);
                if listed != named && listed != named.flipped() {
                    return Err(TableProblem::WrongMaterial {
                        named,
                        found: listed,
                    });
                }
                if *material.get_or_insert(listed) != listed {
                    return Err(corrupt("piece lists that disagree"));
                }
                per_side.push((pieces, order, order2));
            }
            lists.push(per_side);
            pos += n + order_bytes;
        }
        pos += pos & 1;
        let material = material.unwrap_or(named);
        if kind == TableKind::Wdl && !two_sides && !material.is_symmetric() {
            return Err(corrupt("one side to move stored for two different sides"));
        }

        // Each table's groups, digit weights and value store header.
        let mut tables = Vec::new();
        let mut lengths = Vec::new();
        for (file, per_side) in lists.iter().enumerate() {
            let mut file_tables = FileTables {
                sides: Vec::new(),
                dtz_flags: 0,
                maps: [ValueMap::default(); 4],
            };
            for &(pieces, order, order2) in per_side {
                let groups = groups(&pieces[..n], lead, other).map_err(corrupt)?;
                let lead_size = if lead > 0 {
                    LEAD_PAWNS[lead - 1].size[file]
                } else if groups[0] == 3 {
                    THREE_PLACEMENTS
                } else {
                    KK_PLACEMENTS
                };
                let (factors, entries) =
                    factors(&groups[..n], lead_size, other, order, order2).map_err(corrupt)?;
                let header = Header::parse(data, pos, entries, kind).map_err(corrupt)?;
                pos = header.next;
                file_tables.dtz_flags = header.flags;
                lengths.push([header.index_len, header.size_len, header.data_len]);
                file_tables.sides.push(SideTable {
                    pieces,
                    groups,
                    factors,
                    entries,
                    pairs: header.pairs,
                });
            }
            tables.push(file_tables);
        }

        // DTZ: the value maps of each file, four per mapped file.
        if kind == TableKind::Dtz {
            for t in &mut tables {
                if t.dtz_flags & DTZ_MAPPED == 0 {
                    continue;
                }
                let wide = t.dtz_flags & DTZ_WIDE != 0;
                if wide {
                    pos += pos & 1;
                }
                for map in &mut t.maps {
                    let len = if wide {
                        u16_le(data, pos).map_err(corrupt)? as usize
                    } else {
                        u8_at(data, pos).map_err(corrupt)? as usize
                    };
                    let width = if wide { 2 } else { 1 };
                    *map = ValueMap {
                        at: pos + width,
                        len,
                    };
                    pos += width * (len + 1);
                }
            }
            pos += pos & 1;
        }

        // Then all sparse indices, all size tables, and the blocks, each
        // table's blocks starting at a multiple of 64 bytes.
        let stores = tables.iter_mut().flat_map(|t| t.sides.iter_mut());
        let mut places: Vec<[usize; 3]> = vec![[0; 3]; lengths.len()];
        for part in 0..3 {
            for (place, len) in places.iter_mut().zip(&lengths) {
                if part == 2 {
                    pos = pos
                        .checked_next_multiple_of(64)
                        .ok_or(corrupt("a table too long"))?;
                }
                place[part] = pos;
                pos = pos
                    .checked_add(len[part])
                    .ok_or(corrupt("a table too long"))?;
            }
        }
        for (table, place) in stores.zip(&places) {
            table.pairs.place(place[0], place[1], place[2]);
        }
        Ok(Layout {
            material,
            lead_pawns: lead,
            other_pawns: other,
            files: tables,
            end: pos,
        })
    }
}

/// The material a piece list holds.
fn material_of(pieces: &[PieceCode]) -> Material {
    let mut counts = [[0u8; 6]; 2];
    for p in pieces {
        counts[p.black() as usize][p.role().index()] += 1;
    }
    Material::from_counts(counts)
}

/// The groups of a piece list: the leading group (the leading pawns; or
/// three unique pieces, or the two kings when fewer than three pieces are
/// unique), the other side's pawns, then each run of like pieces.
fn groups(pieces: &[PieceCode], lead: usize, other: usize) -> Result<[u8; MAX_PIECES], Corrupt> {
    let n = pieces.len();
    let mut groups = [0u8; MAX_PIECES];
    let mut i = if lead > 0 {
        let pawns = |range: std::ops::Range<usize>| {
            let first = pieces[range.start];
            first.role() == Role::Pawn && pieces[range].iter().all(|&p| p == first)
        };
        if lead > 6 || !pawns(0..lead) || (other > 0 && !pawns(lead..lead + other)) {
            return Err("a pawn table whose list does not start with its pawns");
        }
        groups[0] = lead as u8;
        if other > 0 {
            groups[lead] = other as u8;
        }
        lead + other
    } else {
        let unique = pieces
            .iter()
            .filter(|&&p| pieces.iter().filter(|&&q| q == p).count() == 1)
            .count();
        let lead = if unique >= 3 { 3 } else { 2 };
        let distinct = (0..lead).all(|i| (0..i).all(|j| pieces[i] != pieces[j]));
        let kings = pieces[..2].iter().all(|p| p.role() == Role::King);
        if !distinct || (lead == 2 && !kings) {
            return Err("a pawnless list without its unique pieces first");
        }
        groups[0] = lead as u8;
        lead
    };
    while i < n {
        let start = i;
        while i < n && pieces[i] == pieces[start] {
            i += 1;
        }
        if pieces[..start].contains(&pieces[start]) {
            return Err("like pieces apart in a piece list");
        }
        groups[start] = (i - start) as u8;
    }
    Ok(groups)
}

/// The weight of each group's digit, and the number of indices. The leading
/// group's digit goes to place `order` among the digits (the least
/// significant first), the other side's pawns' to place `order2`, the
/// remaining groups fill the other places in list order.
fn factors(
    groups: &[u8],
    lead_size: u64,
    other: usize,
    order: usize,
    order2: usize,
) -> Result<([u64; MAX_PIECES], u64), Corrupt> {
    let n = groups.len();
    let lead = groups[0] as usize;
    // The size of each group's digit, by its first piece.
    let mut sizes = [0u64; MAX_PIECES];
    sizes[0] = lead_size;
    let mut rest = Vec::with_capacity(MAX_PIECES);
    let mut i = lead;
    if other > 0 {
        sizes[lead] = BINOMIAL[other][48 - lead];
        i += other;
    }
    while i < n {
        let k = groups[i] as usize;
        sizes[i] = BINOMIAL[k][64 - i];
        rest.push(i);
        i += k;
    }
    let digits = 1 + (other > 0) as usize + rest.len();
    let order2 = if other > 0 { Some(order2) } else { None };
    if order >= digits || order2.is_some_and(|o| o >= digits || o == order) {
        return Err("a group order out of range");
    }
    let mut factors = [0u64; MAX_PIECES];
    let mut weight = 1u64;
    let mut rest = rest.into_iter();
    for place in 0..digits {
        let first = if place == order {
            0
        } else if Some(place) == order2 {
            lead
        } else {
            rest.next().ok_or("a group order out of range")?
        };
        factors[first] = weight;
        weight = weight
            .checked_mul(sizes[first])
            .ok_or("a table too large")?;
    }
    Ok((factors, weight))
}
