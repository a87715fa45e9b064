//! The compressed store of a table's values, and reading one value from it.
//!
//! A table's values (one per index) are cut into blocks of at most 65 536
//! values. Within a block, runs of values are replaced by symbols: each
//! symbol stands for a single value (a leaf) or for the values of two other
//! symbols one after the other (a pair), so a symbol expands into a binary
//! tree of values (Larsson and Moffat's Re-Pair). The symbols are then
//! written with a canonical prefix code, longer codes having lower numeric
//! values. To find value `i`: a sparse index gives the block and the
//! position in it, the codes of the block are read one by one, skipping
//! whole symbols while they end before the position, and the symbol that
//! covers it is expanded down its tree to the leaf.
//!
//! Every read here is checked against the file's length and every number
//! from the file against what it may be, so a corrupt file gives an error,
//! never a panic or a read out of bounds.

use crate::error::TableKind;

/// Why a file is corrupt, for [`crate::TableProblem::Corrupt`].
pub(crate) type Corrupt = &'static str;

/// `N` bytes of `data` at `at`, or an error when they are not all there.
fn bytes<const N: usize>(data: &[u8], at: usize) -> Result<[u8; N], Corrupt> {
    let end = at
        .checked_add(N)
        .ok_or("an offset past the end of the file")?;
    match data.get(at..end) {
        Some(b) => {
            let mut out = [0u8; N];
            out.copy_from_slice(b);
            Ok(out)
        }
        None => Err("an offset past the end of the file"),
    }
}

pub(crate) fn u8_at(data: &[u8], at: usize) -> Result<u8, Corrupt> {
    Ok(bytes::<1>(data, at)?[0])
}

pub(crate) fn u16_le(data: &[u8], at: usize) -> Result<u16, Corrupt> {
    Ok(u16::from_le_bytes(bytes(data, at)?))
}

fn u32_le(data: &[u8], at: usize) -> Result<u32, Corrupt> {
    Ok(u32::from_le_bytes(bytes(data, at)?))
}

fn u32_be(data: &[u8], at: usize) -> Result<u32, Corrupt> {
    Ok(u32::from_be_bytes(bytes(data, at)?))
}

fn u64_be(data: &[u8], at: usize) -> Result<u64, Corrupt> {
    Ok(u64::from_be_bytes(bytes(data, at)?))
}

/// The value a symbol's record gives when it is a leaf, and the marker in
/// the right half that says so.
const LEAF: u16 = 0xfff;

/// One symbol: how many values beyond the first it expands into (a pair:
/// the values of both halves, so its halves' `extra` plus one), and its
/// two halves (for a leaf: its value and [`LEAF`]).
#[derive(Clone, Copy, Debug)]
struct Symbol {
    extra: u32,
    left: u16,
    right: u16,
}

/// A table's values: one value for every index, or compressed blocks.
#[derive(Debug)]
pub(crate) enum Pairs {
    Constant(u16),
    Compressed(Box<Compressed>),
}

/// The compressed values of one table (one side to move of one pawn file).
#[derive(Debug)]
pub(crate) struct Compressed {
    /// Blocks are `1 << block_log2` bytes long.
    block_log2: u32,
    /// The sparse index has one entry per `1 << index_bits` values.
    index_bits: u32,
    /// Where the sparse index, the table of block sizes and the blocks start
    /// in the file (set once the whole header is read).
    index_table: usize,
    size_table: usize,
    data: usize,
    /// Entries in the size table, and blocks of data actually stored.
    size_entries: usize,
    data_blocks: usize,
    /// The shortest code length.
    min_len: u32,
    /// For each code length from `min_len` up: the first symbol of that
    /// length, and the lowest code (left-aligned in 64 bits) of that length.
    lowest_symbol: Vec<u16>,
    base: Vec<u64>,
    symbols: Vec<Symbol>,
}

/// What the header of one value store says, and where the next one starts.
pub(crate) struct Header {
    pub pairs: Pairs,
    /// The first byte: for DTZ tables, the flags of its values.
    pub flags: u8,
    pub next: usize,
    /// The lengths of the sparse index, the size table and the blocks.
    pub index_len: usize,
    pub size_len: usize,
    pub data_len: usize,
}

impl Header {
    /// Reads the header at `at` of a store of `entries` values.
    pub(crate) fn parse(
        data: &[u8],
        at: usize,
        entries: u64,
        kind: TableKind,
    ) -> Result<Header, Corrupt> {
        let flags = u8_at(data, at)?;
        if flags & 0x80 != 0 {
            // Every index has the same value (for DTZ: 0).
            let value = match kind {
                TableKind::Wdl => u8_at(data, at + 1)? as u16,
                TableKind::Dtz => 0,
            };
            return Ok(Header {
                pairs: Pairs::Constant(value),
                flags,
                next: at + 2,
                index_len: 0,
                size_len: 0,
                data_len: 0,
            });
        }
        let block_log2 = u8_at(data, at + 1)? as u32;
        let index_bits = u8_at(data, at + 2)? as u32;
        let extra_entries = u8_at(data, at + 3)? as usize;
        let data_blocks = u32_le(data, at + 4)? as usize;
        let max_len = u8_at(data, at + 8)? as u32;
        let min_len = u8_at(data, at + 9)? as u32;
        if !(1..=32).contains(&index_bits) || block_log2 > 30 {
            return Err("a block or index size out of range");
        }
        // One refill of 32 bits per code read needs codes of 32 bits at most.
        if min_len == 0 || min_len > max_len || max_len > 32 {
            return Err("code lengths out of range");
        }
        let lengths = (max_len - min_len + 1) as usize;
        let lowest_at = at + 10;
        let lowest_symbol = (0..lengths)
            .map(|i| u16_le(data, lowest_at + 2 * i))
            .collect::<Result<Vec<_>, _>>()?;
        let symbol_count = u16_le(data, lowest_at + 2 * lengths)? as usize;
        let records = lowest_at + 2 * lengths + 2;
        let symbols = read_symbols(data, records, symbol_count)?;

        // The lowest code of each length, from the longest up: a code of
        // length l + 1 is two codes of length l, so the lowest code of
        // length l is (the lowest of length l + 1, plus the codes of length
        // l + 1) halved.
        let mut base = vec![0u64; lengths];
        for i in (0..lengths - 1).rev() {
            base[i] = base[i + 1]
                .wrapping_add(lowest_symbol[i] as u64)
                .wrapping_sub(lowest_symbol[i + 1] as u64)
                / 2;
        }
        for (i, b) in base.iter_mut().enumerate() {
            *b <<= 64 - (min_len + i as u32);
        }

        let index_entries = entries.div_ceil(1u64 << index_bits);
        let size_entries = data_blocks
            .checked_add(extra_entries)
            .ok_or("a block count out of range")?;
        let too_big = "a table size out of range";
        let index_len = usize::try_from(index_entries)
            .ok()
            .and_then(|n| n.checked_mul(6))
            .ok_or(too_big)?;
        let size_len = size_entries.checked_mul(2).ok_or(too_big)?;
        let data_len = data_blocks.checked_mul(1 << block_log2).ok_or(too_big)?;
        Ok(Header {
            pairs: Pairs::Compressed(Box::new(Compressed {
                block_log2,
                index_bits,
                index_table: 0,
                size_table: 0,
                data: 0,
                size_entries,
                data_blocks,
                min_len,
                lowest_symbol,
                base,
                symbols,
            })),
            flags,
            next: records + 3 * symbol_count + (symbol_count & 1),
            index_len,
            size_len,
            data_len,
        })
    }
}

/// Reads the symbol records (3 bytes each: two 12-bit halves) and counts
/// how many values each symbol expands into. A pair must name symbols that
/// exist and the pairs must not loop: checked here, once, so that expanding
/// a symbol while probing always ends.
fn read_symbols(data: &[u8], at: usize, count: usize) -> Result<Vec<Symbol>, Corrupt> {
    let mut symbols = Vec::with_capacity(count);
    for s in 0..count {
        let [a, b, c] = bytes::<3>(data, at + 3 * s)?;
        let left = a as u16 | ((b as u16 & 0xf) << 8);
        let right = (b as u16 >> 4) | ((c as u16) << 4);
        if right != LEAF && (left as usize >= count || right as usize >= count) {
            return Err("a symbol made of symbols that do not exist");
        }
        symbols.push(Symbol {
            extra: 0,
            left,
            right,
        });
    }
    // Depth-first, children before parents, without recursion.
    const NEW: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; count];
    let mut stack = Vec::new();
    for root in 0..count {
        if state[root] == DONE {
            continue;
        }
        stack.push(root);
        while let Some(&s) = stack.last() {
            let Symbol { left, right, .. } = symbols[s];
            if right == LEAF {
                state[s] = DONE;
                stack.pop();
                continue;
            }
            state[s] = OPEN;
            let (l, r) = (left as usize, right as usize);
            if let Some(&child) = [l, r].iter().find(|&&c| state[c] != DONE) {
                if state[child] == OPEN {
                    return Err("a symbol that contains itself");
                }
                stack.push(child);
                continue;
            }
            symbols[s].extra = symbols[l]
                .extra
                .checked_add(symbols[r].extra)
                .and_then(|n| n.checked_add(1))
                .filter(|&n| n < 1 << 20)
                .ok_or("a symbol too long")?;
            state[s] = DONE;
            stack.pop();
        }
    }
    Ok(symbols)
}

impl Pairs {
    /// Records where the sparse index, the size table and the blocks start.
    pub(crate) fn place(&mut self, index_table: usize, size_table: usize, data: usize) {
        if let Pairs::Compressed(c) = self {
            c.index_table = index_table;
            c.size_table = size_table;
            c.data = data;
        }
    }

    /// The value at `index` (for WDL tables 0..=4, for DTZ tables 12 bits).
    pub(crate) fn value(&self, data: &[u8], index: u64) -> Result<u16, Corrupt> {
        let c = match self {
            Pairs::Constant(value) => return Ok(*value),
            Pairs::Compressed(c) => c,
        };
        // The sparse index gives, for the middle value of each stretch of
        // 1 << index_bits values, its block and its position there; count
        // from it, forwards or backwards, to `index`.
        let entry = usize::try_from(index >> c.index_bits)
            .ok()
            .and_then(|e| e.checked_mul(6))
            .and_then(|e| e.checked_add(c.index_table))
            .ok_or("an index past the table")?;
        let mut block = u32_le(data, entry)? as usize;
        let mask = (1u64 << c.index_bits) - 1;
        let mut pos = (index & mask) as i64 - (1i64 << (c.index_bits - 1));
        pos += u16_le(data, entry + 4)? as i64;
        let values_in = |block: usize| -> Result<i64, Corrupt> {
            if block >= c.size_entries {
                return Err("a block past the size table");
            }
            Ok(u16_le(data, c.size_table + 2 * block)? as i64 + 1)
        };
        while pos < 0 {
            block = block.checked_sub(1).ok_or("a block before the first")?;
            pos += values_in(block)?;
        }
        loop {
            let n = values_in(block)?;
            if pos < n {
                break;
            }
            pos -= n;
            block += 1;
        }
        if block >= c.data_blocks {
            return Err("a block past the data");
        }
        let mut pos = pos as u32;

        // Read codes: `code` holds the next 64 bits of the block,
        // left-aligned; `used` counts the bits consumed since the last refill.
        let mut at = c.data + (block << c.block_log2);
        let mut code = u64_be(data, at)?;
        at += 8;
        let mut used = 0u32;
        let mut sym = loop {
            let (sym, symbol, len) = c.decode(code)?;
            let values = symbol.extra + 1;
            if pos < values {
                break sym;
            }
            pos -= values;
            code <<= len;
            used += len;
            if used >= 32 {
                used -= 32;
                code |= (u32_be(data, at)? as u64) << used;
                at += 4;
            }
        };
        // Walk down the symbol's tree to the value at `pos`.
        loop {
            let s = c.symbols[sym];
            if s.right == LEAF {
                return Ok(s.left);
            }
            let left_values = c.symbols[s.left as usize].extra + 1;
            if pos < left_values {
                sym = s.left as usize;
            } else {
                pos -= left_values;
                sym = s.right as usize;
            }
        }
    }
}

impl Compressed {
    /// The symbol whose code `code` starts with (left-aligned in 64 bits):
    /// its number, the symbol, and the code's length in bits.
    #[inline]
    fn decode(&self, code: u64) -> Result<(usize, Symbol, u32), Corrupt> {
        let mut l = 0;
        while code < self.base[l] {
            l += 1; // ends: the last base is 0
        }
        let len = self.min_len + l as u32;
        let sym = self.lowest_symbol[l] as u64 + ((code - self.base[l]) >> (64 - len));
        let symbol = *self
            .symbols
            .get(sym as usize)
            .ok_or("a code for a symbol that does not exist")?;
        Ok((sym as usize, symbol, len))
    }
}

impl Pairs {
    /// Decodes every value of a store of `entries` values and checks what
    /// the format lets one check: the sparse index points where the size
    /// table says each of its values is, the blocks hold at least `entries`
    /// values, each block's codes name symbols that exist and end inside the
    /// block once they give the values its size says, and every value a
    /// decoded symbol expands into is at most `max_value`. A flip inside a
    /// block's codes that still decodes to the right number of values (a
    /// different but valid code) cannot be seen here.
    pub(crate) fn verify(&self, data: &[u8], entries: u64, max_value: u16) -> Result<(), Corrupt> {
        let c = match self {
            Pairs::Constant(value) if *value > max_value => {
                return Err("a constant value out of range")
            }
            Pairs::Constant(_) => return Ok(()),
            Pairs::Compressed(c) => c,
        };
        // Where each block's values start, from the size table.
        let mut starts = Vec::with_capacity(c.size_entries + 1);
        let mut total = 0u64;
        for block in 0..c.size_entries {
            starts.push(total);
            total += u16_le(data, c.size_table + 2 * block)? as u64 + 1;
        }
        starts.push(total);
        if starts[c.data_blocks.min(c.size_entries)] < entries {
            return Err("blocks that hold fewer values than the table has positions");
        }
        // The sparse index: entry e gives the block and place of value
        // (e << index_bits) + half.
        let half = 1u64 << (c.index_bits - 1);
        for e in 0..entries.div_ceil(1u64 << c.index_bits) {
            let at = c.index_table + 6 * e as usize;
            let block = u32_le(data, at)? as usize;
            let place = u16_le(data, at + 4)? as u64;
            if block >= c.size_entries {
                return Err("a sparse index entry past the size table");
            }
            let target = (e << c.index_bits) + half;
            if target < entries && starts[block] + place != target {
                return Err("a sparse index entry that disagrees with the block sizes");
            }
        }
        // Every block's codes.
        let block_len = 1usize << c.block_log2;
        let mut used = vec![false; c.symbols.len()];
        let mut buf = vec![0u8; block_len + 16];
        for block in 0..c.data_blocks {
            let at = c.data + (block << c.block_log2);
            let bytes = data
                .get(at..at + block_len)
                .ok_or("an offset past the end of the file")?;
            buf[..block_len].copy_from_slice(bytes);
            let mut left = starts[block + 1] - starts[block];
            let mut bit = 0usize;
            while left > 0 {
                let byte = bit / 8;
                let mut word = [0u8; 8];
                word.copy_from_slice(&buf[byte..byte + 8]);
                let shift = bit % 8;
                let mut code = u64::from_be_bytes(word) << shift;
                if shift > 0 {
                    code |= (buf[byte + 8] as u64) >> (8 - shift);
                }
                let (sym, symbol, len) = c.decode(code)?;
                // The last symbol of a block may run past its end (the
                // tables' writer leaves it so): only its first values count.
                left = left.saturating_sub(symbol.extra as u64 + 1);
                used[sym] = true;
                bit += len as usize;
                if bit > 8 * block_len {
                    return Err("codes past the end of their block");
                }
            }
        }
        // The values of the symbols used.
        let mut stack: Vec<usize> = (0..used.len()).filter(|&s| used[s]).collect();
        while let Some(s) = stack.pop() {
            let Symbol { left, right, .. } = c.symbols[s];
            if right == LEAF {
                if left > max_value {
                    return Err("a value out of range");
                }
                continue;
            }
            for child in [left as usize, right as usize] {
                if !used[child] {
                    used[child] = true;
                    stack.push(child);
                }
            }
        }
        Ok(())
    }
}
