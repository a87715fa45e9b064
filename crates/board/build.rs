//! Generates the slider attack tables: fancy magic numbers found by a
//! deterministic random search (xoshiro with a fixed seed), and one shared
//! attack table indexed either by the magic product or by PEXT (both give
//! indices in `0..2^bits` for each square, so one table serves both).
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::fmt::Write as _;
use std::path::PathBuf;

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn slide(sq: i32, occ: u64, dirs: &[(i32, i32)]) -> u64 {
    let mut out = 0u64;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (sq % 8 + df, sq / 8 + dr);
        while (0..8).contains(&f) && (0..8).contains(&r) {
            let s = r * 8 + f;
            out |= 1 << s;
            if occ & (1 << s) != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    out
}

/// The relevant occupancy: the ray squares minus the last square of each ray.
fn mask(sq: i32, dirs: &[(i32, i32)]) -> u64 {
    let mut out = 0u64;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (sq % 8 + df, sq / 8 + dr);
        while (0..8).contains(&(f + df)) && (0..8).contains(&(r + dr)) {
            out |= 1 << (r * 8 + f);
            f += df;
            r += dr;
        }
    }
    out
}

fn pext(mut src: u64, mut mask: u64) -> u64 {
    let mut out = 0;
    let mut bit = 1;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if src & low != 0 {
            out |= bit;
        }
        src &= !low;
        mask &= mask - 1;
        bit <<= 1;
    }
    out
}

struct Entry {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

fn find_magics(dirs: &[(i32, i32)], rng: &mut Xoshiro256PlusPlus, table: &mut Vec<u64>) -> Vec<Entry> {
    let mut entries = Vec::new();
    for sq in 0..64 {
        let m = mask(sq, dirs);
        let bits = m.count_ones();
        let size = 1usize << bits;
        // Every subset of the mask (carry-rippler) with its attack set.
        let mut occs = Vec::with_capacity(size);
        let mut sub = 0u64;
        loop {
            occs.push((sub, slide(sq, sub, dirs)));
            sub = sub.wrapping_sub(m) & m;
            if sub == 0 {
                break;
            }
        }
        let mut used = vec![0u64; size];
        let mut stamp = vec![0u32; size];
        let mut attempt = 0u32;
        let magic = loop {
            attempt += 1;
            let magic = rng.next_u64() & rng.next_u64() & rng.next_u64();
            if (m.wrapping_mul(magic) >> 56).count_ones() < 6 {
                continue;
            }
            let ok = occs.iter().all(|&(occ, att)| {
                let i = (occ.wrapping_mul(magic) >> (64 - bits)) as usize;
                if stamp[i] != attempt {
                    stamp[i] = attempt;
                    used[i] = att;
                    true
                } else {
                    used[i] == att
                }
            });
            if ok {
                break magic;
            }
        };
        // Store in PEXT order here; `main` builds the magic-ordered copy.
        let offset = table.len();
        table.resize(offset + size, 0);
        for &(occ, att) in &occs {
            table[offset + pext(occ, m) as usize] = att;
        }
        entries.push(Entry { mask: m, magic, shift: 64 - bits, offset });
    }
    entries
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x00F1_A7C4_E770);
    let mut pext_table = Vec::new();
    let rook = find_magics(&ROOK_DIRS, &mut rng, &mut pext_table);
    let bishop = find_magics(&BISHOP_DIRS, &mut rng, &mut pext_table);
    // Magic layout: same offsets, entries placed by the magic index.
    let mut magic_table = vec![0u64; pext_table.len()];
    for (entries, dirs) in [(&rook, &ROOK_DIRS[..]), (&bishop, &BISHOP_DIRS[..])] {
        for (sq, e) in entries.iter().enumerate() {
            let mut sub = 0u64;
            loop {
                let i = (sub.wrapping_mul(e.magic) >> e.shift) as usize;
                magic_table[e.offset + i] = slide(sq as i32, sub, dirs);
                sub = sub.wrapping_sub(e.mask) & e.mask;
                if sub == 0 {
                    break;
                }
            }
        }
    }
    let mut out = String::new();
    for (name, entries) in [("ROOK_MAGICS", &rook), ("BISHOP_MAGICS", &bishop)] {
        writeln!(out, "/// Magic entries (mask, magic, shift, offset) for each square.").unwrap();
        writeln!(out, "pub(crate) static {name}: [Magic; 64] = [").unwrap();
        for e in entries.iter() {
            writeln!(
                out,
                "    Magic {{ mask: {:#018x}, magic: {:#018x}, shift: {}, offset: {} }},",
                e.mask, e.magic, e.shift, e.offset
            )
            .unwrap();
        }
        writeln!(out, "];").unwrap();
    }
    for (name, table) in [("MAGIC_ATTACKS", &magic_table), ("PEXT_ATTACKS", &pext_table)] {
        writeln!(out, "/// Slider attack sets, {} entries.", table.len()).unwrap();
        writeln!(out, "#[allow(dead_code)]").unwrap();
        writeln!(out, "pub(crate) static {name}: [u64; {}] = [", table.len()).unwrap();
        for chunk in table.chunks(8) {
            let line: Vec<String> = chunk.iter().map(|v| format!("{v:#x}")).collect();
            writeln!(out, "    {},", line.join(", ")).unwrap();
        }
        writeln!(out, "];").unwrap();
    }
    let dest = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("magics.rs");
    std::fs::write(dest, out).unwrap();
}
