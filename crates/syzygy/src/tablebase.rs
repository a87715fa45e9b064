//! The tablebase: directories of table files, found by name, opened on
//! first use, probed for WDL and DTZ.

use crate::consistency::dtz_contradiction;
use crate::error::{SyzygyError, TableKind, TableProblem};
use crate::material::Material;
use crate::table::Table;
use crate::Wdl;
use fianchetto_board::{Board, Move, Role};
use fianchetto_movegen::{GenKind, MoveGen, MoveList};
use std::collections::HashMap;
use std::fs::File;
use std::hash::{BuildHasherDefault, Hasher};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// The largest tables the format has: seven pieces.
pub const MAX_PIECES: u32 = 7;

/// Syzygy tables from one or more directories.
///
/// [`add_directory`](Tablebase::add_directory) finds the tables by their
/// file names (`KQvKR.rtbw`, `KQvKR.rtbz`); a table is opened and mapped
/// into memory the first time a position needs it, and stays so. Probing
/// takes `&self`: one `Tablebase` (in an `Arc`) serves many threads, and a
/// probe allocates nothing.
///
/// Values are from the side to move's point of view and assume that the
/// position was reached by a capture or a pawn move (the fifty-move counter
/// at zero): [`Wdl::CursedWin`] and [`Wdl::BlessedLoss`] are the results
/// that the fifty-move rule turns into draws. [`root_moves`](Tablebase::root_moves)
/// and [`best_move`](Tablebase::best_move) take the position's counter into
/// account.
#[derive(Debug, Default)]
pub struct Tablebase {
    entries: Vec<Entry>,
    /// The entry of a material key, for both colourings of each material.
    by_key: HashMap<u64, usize, BuildHasherDefault<KeyHasher>>,
    max_pieces: u32,
    directories: Vec<PathBuf>,
}

/// The WDL and DTZ files of one material.
#[derive(Debug)]
struct Entry {
    wdl: Option<Slot>,
    dtz: Option<Slot>,
}

/// One file: where it is, and once opened, the table or why it failed.
#[derive(Debug)]
struct Slot {
    path: Arc<Path>,
    /// The material the file's name gives.
    named: Material,
    kind: TableKind,
    table: OnceLock<Result<Table, SyzygyError>>,
}

impl Slot {
    fn table(&self) -> Result<&Table, SyzygyError> {
        self.table
            .get_or_init(|| {
                open(&self.path, self.kind, self.named).map_err(|problem| SyzygyError::BadTable {
                    path: self.path.clone(),
                    problem,
                })
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    fn corrupt(&self, reason: &'static str) -> SyzygyError {
        SyzygyError::BadTable {
            path: self.path.clone(),
            problem: TableProblem::Corrupt(reason),
        }
    }
}

/// Opens and maps a table file and reads its header.
pub(crate) fn open(path: &Path, kind: TableKind, named: Material) -> Result<Table, TableProblem> {
    let io = |e: std::io::Error| TableProblem::Io(e.to_string().into());
    let file = File::open(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    if len < 5 {
        return Err(TableProblem::Truncated {
            len: len as usize,
            needed: 5,
        });
    }
    // SAFETY: the map is read-only and lives as long as the table that owns
    // it. Undefined behaviour would need another program to shrink or
    // rewrite the file while it is mapped; table files are written once and
    // only read afterwards, the assumption every Syzygy prober makes. Reads
    // from the map are all bounds-checked (see `pairs`), so a file that is
    // merely corrupt gives errors, not wild reads.
    let map = unsafe { memmap2::Mmap::map(&file) }.map_err(io)?;
    Table::new(map, kind, named)
}

/// A hasher for material keys (already small distinct integers): a
/// multiplication, far cheaper than the default hasher on every probe.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = (key ^ (key >> 29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// DTZ of a position whose best move zeroes the counter at once: 1 ply for
/// a win, 101 for a cursed win (and their negatives).
pub(crate) fn dtz_before_zeroing(wdl: i8) -> i32 {
    match wdl {
        2 => 1,
        1 => 101,
        0 => 0,
        -1 => -101,
        _ => -1,
    }
}

/// Whether `mv` resets the fifty-move counter: a capture or a pawn move.
pub(crate) fn is_zeroing<B: Board>(board: &B, mv: Move) -> bool {
    mv.is_capture()
        || board
            .piece_at(mv.from())
            .is_some_and(|p| p.role == Role::Pawn)
}

impl Tablebase {
    /// A tablebase with no tables yet.
    pub fn new() -> Tablebase {
        Tablebase::default()
    }

    /// Adds the tables of `dir` (files named `KQvKR.rtbw` and `KQvKR.rtbz`;
    /// other files are skipped). Returns how many table files it found. A
    /// table already found in an earlier directory keeps that file.
    ///
    /// Nothing is read from the files yet: a table is opened when a probe
    /// first needs it, and a bad file is reported then.
    pub fn add_directory(&mut self, dir: impl AsRef<Path>) -> Result<usize, SyzygyError> {
        let dir = dir.as_ref();
        let listing_error = |e: std::io::Error| SyzygyError::Directory {
            path: dir.to_path_buf(),
            message: e.to_string(),
        };
        let mut files: Vec<(String, TableKind, Material)> = Vec::new();
        for item in std::fs::read_dir(dir).map_err(listing_error)? {
            let item = item.map_err(listing_error)?;
            let name = item.file_name().to_string_lossy().into_owned();
            let Some((stem, ext)) = name.rsplit_once('.') else {
                continue;
            };
            let kind = match ext {
                "rtbw" => TableKind::Wdl,
                "rtbz" => TableKind::Dtz,
                _ => continue,
            };
            let Some(material) = Material::from_name(stem) else {
                continue;
            };
            if material.pieces() > MAX_PIECES || material.pieces() < 3 {
                continue;
            }
            files.push((name, kind, material));
        }
        if files.is_empty() {
            return Err(SyzygyError::NoTables {
                path: dir.to_path_buf(),
            });
        }
        files.sort_by(|a, b| a.0.cmp(&b.0));
        for (name, kind, named) in &files {
            let index = match self.by_key.get(&named.key()) {
                Some(&i) => i,
                None => {
                    self.entries.push(Entry {
                        wdl: None,
                        dtz: None,
                    });
                    let i = self.entries.len() - 1;
                    self.by_key.insert(named.key(), i);
                    self.by_key.insert(named.flipped().key(), i);
                    i
                }
            };
            let entry = &mut self.entries[index];
            let slot = match kind {
                TableKind::Wdl => &mut entry.wdl,
                TableKind::Dtz => &mut entry.dtz,
            };
            if slot.is_none() {
                *slot = Some(Slot {
                    path: dir.join(name).into(),
                    named: *named,
                    kind: *kind,
                    table: OnceLock::new(),
                });
                self.max_pieces = self.max_pieces.max(named.pieces());
            }
        }
        self.directories.push(dir.to_path_buf());
        Ok(files.len())
    }

    /// Adds every directory of a list separated as the platform separates
    /// `PATH` (`:` on Unix, `;` on Windows), the form of the UCI option
    /// `SyzygyPath`; empty entries are skipped. Stops at the first directory
    /// that fails, keeping those added before it. Returns the table files
    /// found.
    pub fn add_directories(&mut self, list: &str) -> Result<usize, SyzygyError> {
        let mut found = 0;
        for dir in std::env::split_paths(list).filter(|d| !d.as_os_str().is_empty()) {
            found += self.add_directory(&dir)?;
        }
        Ok(found)
    }

    /// Opens every table file found so far (those not yet opened) and reads
    /// its header, as a probe would on first use; returns the error of each
    /// file that could not be opened or was refused, in file-name order
    /// (none when all are good). A refused file stays refused: probes that
    /// need it get the same error. Only the headers are checked here, not
    /// the compressed data.
    pub fn open_all(&self) -> Vec<SyzygyError> {
        let mut slots: Vec<&Slot> = self
            .entries
            .iter()
            .flat_map(|e| [e.wdl.as_ref(), e.dtz.as_ref()])
            .flatten()
            .collect();
        slots.sort_by(|a, b| a.path.cmp(&b.path));
        slots.iter().filter_map(|s| s.table().err()).collect()
    }

    /// The most pieces of a table found (0 when none).
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// The number of materials that have a table (WDL or DTZ or both).
    pub fn materials(&self) -> usize {
        self.entries.len()
    }

    /// The directories added, in order.
    pub fn directories(&self) -> &[PathBuf] {
        &self.directories
    }

    /// Whether a WDL table for `material` was found (`false` for K v K,
    /// which needs none).
    pub fn has_table(&self, material: &Material, kind: TableKind) -> bool {
        self.by_key.get(&material.key()).is_some_and(|&i| {
            let e = &self.entries[i];
            match kind {
                TableKind::Wdl => e.wdl.is_some(),
                TableKind::Dtz => e.dtz.is_some(),
            }
        })
    }

    /// Win, draw or loss for the side to move, with the fifty-move counter
    /// taken as zero.
    ///
    /// Errors: castling rights, more pieces than the tables have, a missing
    /// table (this position's or one a capture leads to), a bad file.
    pub fn probe_wdl<B: MoveGen>(&self, board: &B) -> Result<Wdl, SyzygyError> {
        self.check(board)?;
        self.wdl(board).map(Wdl::from_value)
    }

    /// The distance to zeroing: how many plies until the side to move
    /// captures or moves a pawn (winning), or the opponent does (losing,
    /// negative), with best play by the tables' metric; 0 for a draw.
    ///
    /// As the format stores it: `1..=100` a win, `> 100` a cursed win,
    /// `-100..=-1` a loss, `< -100` a blessed loss. Where the tables count
    /// in moves rather than plies the value may be one ply more than the
    /// truth, never where that would change the result under the fifty-move
    /// rule. Needs the WDL tables as well as the DTZ ones.
    ///
    /// A DTZ that does not fit the position's WDL (another sign, a win
    /// within the rule beyond 100 plies) is [`SyzygyError::Contradiction`],
    /// never an answer.
    pub fn probe_dtz<B: MoveGen>(&self, board: &B) -> Result<i32, SyzygyError> {
        self.check(board)?;
        let dtz = self.dtz(board)?;
        match dtz_contradiction(self.wdl(board)?, dtz) {
            Some(what) => Err(SyzygyError::Contradiction {
                fen: board.fen(),
                what,
            }),
            None => Ok(dtz),
        }
    }

    fn check<B: Board>(&self, board: &B) -> Result<(), SyzygyError> {
        if !board.castling().is_empty() {
            return Err(SyzygyError::CastlingRights);
        }
        let pieces = board.occupied().count();
        if pieces > 2 && self.max_pieces == 0 {
            return Err(SyzygyError::NoTablesLoaded);
        }
        if pieces > self.max_pieces.max(2) {
            return Err(SyzygyError::TooManyPieces {
                pieces,
                max: self.max_pieces,
            });
        }
        Ok(())
    }

    /// The entry for `board`'s material, or None for two bare kings.
    fn entry<B: Board>(&self, board: &B) -> Option<Result<&Entry, SyzygyError>> {
        if board.occupied() == board.by_role(Role::King) {
            return None;
        }
        Some(
            self.by_key
                .get(&Material::key_of(board))
                .map(|&i| &self.entries[i])
                .ok_or_else(|| SyzygyError::MissingTable {
                    material: Material::of(board).normalized(),
                    kind: TableKind::Wdl,
                }),
        )
    }

    fn missing<B: Board>(board: &B, kind: TableKind) -> SyzygyError {
        SyzygyError::MissingTable {
            material: Material::of(board).normalized(),
            kind,
        }
    }

    /// The WDL table's value of `board` (en passant not looked at).
    fn wdl_table<B: Board>(&self, board: &B) -> Result<i8, SyzygyError> {
        let entry = match self.entry(board) {
            None => return Ok(0),
            Some(e) => e?,
        };
        let slot = entry
            .wdl
            .as_ref()
            .ok_or_else(|| Self::missing(board, TableKind::Wdl))?;
        slot.table()?.wdl(board).map_err(|r| slot.corrupt(r))
    }

    /// The DTZ table's value of `board`, None when the table stores the
    /// other side to move.
    fn dtz_table<B: Board>(&self, board: &B, wdl: i8) -> Result<Option<i32>, SyzygyError> {
        let entry = match self.entry(board) {
            None => return Ok(Some(0)),
            Some(e) => e.map_err(|_| Self::missing(board, TableKind::Dtz))?,
        };
        let slot = entry
            .dtz
            .as_ref()
            .ok_or_else(|| Self::missing(board, TableKind::Dtz))?;
        slot.table()?.dtz(board, wdl).map_err(|r| slot.corrupt(r))
    }

    /// The value of `board` without en passant, by alpha-beta over its
    /// captures with the table at the leaves: the tables store arbitrary
    /// values where a capture is best, so a capture's value is taken over the
    /// table's. Also says whether a capture reaches a winning value the
    /// table does not beat (the best move then zeroes the counter).
    fn wdl_no_ep<B: MoveGen>(
        &self,
        board: &B,
        mut alpha: i8,
        beta: i8,
    ) -> Result<(i8, bool), SyzygyError> {
        let mut moves = MoveList::new();
        board.generate(GenKind::Captures, &mut moves);
        for &mv in moves.iter().filter(|m| !m.is_en_passant()) {
            let mut child = board.clone();
            child.play_unchecked(mv);
            let v = -self.wdl_no_ep(&child, -beta, -alpha)?.0;
            if v > alpha {
                if v >= beta {
                    return Ok((v, true));
                }
                alpha = v;
            }
        }
        let v = self.wdl_table(board)?;
        Ok(if alpha >= v {
            (alpha, alpha > 0)
        } else {
            (v, false)
        })
    }

    /// The best value an en passant capture gives, if there is one.
    fn best_en_passant<B: MoveGen>(&self, board: &B) -> Result<Option<i8>, SyzygyError> {
        if board.ep_square().is_none() {
            return Ok(None);
        }
        let mut moves = MoveList::new();
        board.generate(GenKind::Captures, &mut moves);
        let mut best = None;
        for &mv in moves.iter().filter(|m| m.is_en_passant()) {
            let mut child = board.clone();
            child.play_unchecked(mv);
            let v = -self.wdl_no_ep(&child, -2, 2)?.0;
            best = Some(best.map_or(v, |b: i8| b.max(v)));
        }
        Ok(best)
    }

    /// Whether every legal move is an en passant capture.
    fn only_en_passant<B: MoveGen>(board: &B) -> bool {
        board.legal_moves().iter().all(|m| m.is_en_passant())
    }

    /// WDL value -2..=2 of `board`, en passant included.
    pub(crate) fn wdl<B: MoveGen>(&self, board: &B) -> Result<i8, SyzygyError> {
        let v = self.wdl_no_ep(board, -2, 2)?.0;
        Ok(match self.best_en_passant(board)? {
            Some(e) if e >= v || (v == 0 && Self::only_en_passant(board)) => e,
            _ => v,
        })
    }

    /// DTZ of `board`, en passant included.
    pub(crate) fn dtz<B: MoveGen>(&self, board: &B) -> Result<i32, SyzygyError> {
        let v = self.dtz_no_ep(board)?;
        let Some(e) = self.best_en_passant(board)? else {
            return Ok(v);
        };
        // En passant zeroes the counter: its DTZ is the one before zeroing.
        // Take it where it is better for the side to move than `v`.
        let e = dtz_before_zeroing(e);
        let better = if v < -100 {
            e >= 0
        } else if v < 0 {
            !(-100..0).contains(&e) // a draw, a win or a blessed loss
        } else if v > 100 {
            e > 0
        } else if v > 0 {
            e == 1
        } else {
            e >= 0 || Self::only_en_passant(board)
        };
        Ok(if better { e } else { v })
    }

    /// DTZ of `board` without en passant.
    fn dtz_no_ep<B: MoveGen>(&self, board: &B) -> Result<i32, SyzygyError> {
        let (wdl, capture_wins) = self.wdl_no_ep(board, -2, 2)?;
        if wdl == 0 {
            return Ok(0);
        }
        if capture_wins {
            return Ok(dtz_before_zeroing(wdl));
        }
        let mut quiets = MoveList::new();
        board.generate(GenKind::Quiets, &mut quiets);
        let is_pawn = |mv: &Move| {
            board
                .piece_at(mv.from())
                .is_some_and(|p| p.role == Role::Pawn)
        };
        if wdl > 0 {
            // A pawn move that keeps the result zeroes at once.
            for &mv in quiets.iter().filter(|m| is_pawn(m)) {
                let mut child = board.clone();
                child.play_unchecked(mv);
                if -self.wdl(&child)? == wdl {
                    return Ok(dtz_before_zeroing(wdl));
                }
            }
        }
        if let Some(d) = self.dtz_table(board, wdl)? {
            return Ok(dtz_before_zeroing(wdl) + if wdl > 0 { d } else { -d });
        }
        // The file stores the other side to move: one ply of search.
        if wdl > 0 {
            let mut best = 0xffff;
            for &mv in quiets.iter().filter(|m| !is_pawn(m)) {
                let mut child = board.clone();
                child.play_unchecked(mv);
                let v = -self.dtz(&child)?;
                if v == 1 && child.is_checkmate() {
                    best = 1;
                } else if v > 0 && v + 1 < best {
                    best = v + 1;
                }
            }
            Ok(best)
        } else {
            let mut best = -1;
            for mv in board.legal_moves() {
                let mut child = board.clone();
                child.play_unchecked(mv);
                let v = if is_zeroing(board, mv) {
                    if wdl == -2 {
                        -1
                    } else if self.wdl_no_ep(&child, 1, 2)?.0 == 2 {
                        0
                    } else {
                        -101
                    }
                } else {
                    -self.dtz(&child)? - 1
                };
                best = best.min(v);
            }
            Ok(best)
        }
    }
}

impl Wdl {
    /// The WDL of a value -2..=2 (clamped).
    pub(crate) fn from_value(v: i8) -> Wdl {
        match v {
            i8::MIN..=-2 => Wdl::Loss,
            -1 => Wdl::BlessedLoss,
            0 => Wdl::Draw,
            1 => Wdl::CursedWin,
            _ => Wdl::Win,
        }
    }
}
