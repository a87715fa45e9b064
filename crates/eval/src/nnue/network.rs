//! [`Network`]: a quantized network in memory, with its [`Arch`], read from
//! and written to the [file format](super::format).

use super::aligned::Aligned;
use super::arch::{Arch, KingBuckets};
use super::format::{self, NetError, Parts};
use crate::select::LoadNetError;
use fianchetto_board::{Color, Piece, Square};
use std::path::Path;

/// The input feature of `piece` on `sq` as seen by `perspective` in the
/// plain 768-input net (one king bucket, no mirroring): the perspective's
/// own pieces first (0..384), then the opponent's, each as
/// role × 64 + square, with the board flipped vertically for black so that
/// both perspectives see their own side at the bottom. Bucketed nets add
/// `bucket × 768` and may mirror the square ([`KingBuckets::view`]).
#[inline(always)]
pub fn feature(perspective: Color, piece: Piece, sq: Square) -> usize {
    // The plain layout's view does not depend on the king.
    let view = KingBuckets::PLAIN.view(perspective.index(), 0);
    view.index(
        (piece.color != perspective) as usize,
        piece.role.index(),
        sq.index(),
    )
}

/// A quantized network: what the file holds, in memory.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    parts: Parts,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network {{ {} }}", self.parts.arch)
    }
}

impl Network {
    /// A network of architecture `arch` from its quantized parts:
    /// `ft_weights` row-major (king bucket, feature, neuron:
    /// `arch.inputs() × hidden`), `ft_bias` (`hidden`), `out_weights`
    /// (`2 × hidden` per output bucket, the side to move's half first) and
    /// `out_bias` (one per output bucket, scaled by QA·QB). Refuses an
    /// architecture out of range, a part of the wrong length, and weights
    /// inference cannot take (see [`NetError::OutputWeight`] and
    /// [`NetError::FeatureRange`]).
    pub fn new(
        arch: Arch,
        ft_weights: Vec<i16>,
        ft_bias: Vec<i16>,
        out_weights: Vec<i16>,
        out_bias: Vec<i32>,
    ) -> Result<Network, NetError> {
        let parts = Parts {
            arch,
            ft_weights: ft_weights.into(),
            ft_bias: ft_bias.into(),
            out_weights: out_weights.into(),
            out_bias,
        };
        format::check(&parts)?;
        Ok(Network { parts })
    }

    /// A plain network ([`Arch::plain`]) from its quantized parts; `None`
    /// for every reason [`Network::try_from_parts`] gives an error.
    pub fn from_parts(
        hidden: usize,
        ft_weights: Vec<i16>,
        ft_bias: Vec<i16>,
        out_weights: Vec<i16>,
        out_bias: i32,
    ) -> Option<Network> {
        Network::try_from_parts(hidden, ft_weights, ft_bias, out_weights, out_bias).ok()
    }

    /// A plain network ([`Arch::plain`]): [`Network::new`] with one king
    /// bucket and one output bucket.
    pub fn try_from_parts(
        hidden: usize,
        ft_weights: Vec<i16>,
        ft_bias: Vec<i16>,
        out_weights: Vec<i16>,
        out_bias: i32,
    ) -> Result<Network, NetError> {
        Network::new(
            Arch::plain(hidden),
            ft_weights,
            ft_bias,
            out_weights,
            vec![out_bias],
        )
    }

    /// The smallest network, with every weight zero: it scores every
    /// position 0 (a placeholder where no network is used).
    pub fn zero() -> Network {
        let arch = Arch::plain(16);
        Network {
            parts: Parts {
                arch,
                ft_weights: Aligned::zeroed(arch.ft_weight_count()),
                ft_bias: Aligned::zeroed(16),
                out_weights: Aligned::zeroed(32),
                out_bias: vec![0],
            },
        }
    }

    /// Reads a network file (version 2, or version 1 for the plain nets
    /// shipped before it), refusing anything that is not exactly one and
    /// weights inference cannot take.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        format::parse(bytes).map(|parts| Network { parts })
    }

    /// Reads the network file at `path` (see [`Network::from_bytes`]): a
    /// regular file whose length, from its metadata, is the one its header
    /// gives, checked before the weights are read (a FIFO, a device or an
    /// oversized file is refused without reading it). The errors name the
    /// file: `cannot read network nets/x.nnue: No such file
    /// or directory (os error 2)`, or what is wrong with its contents.
    pub fn from_file(path: impl AsRef<Path>) -> Result<Network, LoadNetError> {
        let path = path.as_ref();
        let bytes = crate::select::read_network_file(path)?;
        Network::from_bytes(&bytes).map_err(|source| LoadNetError::Net {
            path: path.to_path_buf(),
            source,
        })
    }

    /// The version 2 file's bytes (what [`Network::from_bytes`] reads).
    pub fn to_bytes(&self) -> Vec<u8> {
        format::write(&self.parts)
    }

    /// The version 1 file's bytes, for a plain network; `None` for any
    /// other architecture (version 1 cannot describe it).
    pub fn to_bytes_v1(&self) -> Option<Vec<u8>> {
        format::write_v1(&self.parts)
    }

    /// The architecture.
    pub fn arch(&self) -> &Arch {
        &self.parts.arch
    }

    /// The hidden size H.
    pub fn hidden(&self) -> usize {
        self.parts.arch.hidden
    }

    /// The feature weights (row-major: king bucket, feature, neuron).
    pub fn ft_weights(&self) -> &[i16] {
        &self.parts.ft_weights
    }

    /// The feature biases.
    pub fn ft_bias(&self) -> &[i16] {
        &self.parts.ft_bias
    }

    /// The output weights of every output bucket (`2 × H` each, the side to
    /// move's half first).
    pub fn out_weights(&self) -> &[i16] {
        &self.parts.out_weights
    }

    /// The output biases, one per output bucket (scaled by `QA · QB`).
    pub fn out_bias(&self) -> &[i32] {
        &self.parts.out_bias
    }

    /// The output weights of output bucket `bucket`, for a caller that
    /// knows the hidden size `h`.
    #[inline(always)]
    pub(crate) fn bucket_weights(&self, bucket: usize, h: usize) -> &[i16] {
        debug_assert_eq!(h, self.hidden());
        let w = 2 * h;
        &self.parts.out_weights[bucket * w..bucket * w + w]
    }

    /// The feature weights of row `row` (one per hidden neuron), for a
    /// caller that knows the hidden size `h` (a constant in the code
    /// specialised for it, so that the row's length is one too).
    #[inline(always)]
    pub(crate) fn row(&self, row: usize, h: usize) -> &[i16] {
        debug_assert_eq!(h, self.hidden());
        &self.parts.ft_weights[row * h..row * h + h]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::arch::INPUTS;
    use crate::nnue::format::{HEADER_SIZE, HEADER_SIZE_V1};
    use fianchetto_board::Role;

    fn tiny() -> Network {
        let h = 16;
        Network::from_parts(
            h,
            (0..INPUTS * h).map(|i| (i % 97) as i16 - 48).collect(),
            vec![3; h],
            (0..2 * h).map(|i| i as i16 - 16).collect(),
            -1234,
        )
        .unwrap()
    }

    #[test]
    fn both_versions_round_trip() {
        let net = tiny();
        let v2 = net.to_bytes();
        assert_eq!(v2.len(), HEADER_SIZE + 2 * (INPUTS * 16 + 16 + 32) + 4);
        assert_eq!(Network::from_bytes(&v2).unwrap(), net);
        let v1 = net.to_bytes_v1().unwrap();
        assert_eq!(v1.len(), HEADER_SIZE_V1 + 2 * (INPUTS * 16 + 16 + 32) + 4);
        assert_eq!(Network::from_bytes(&v1).unwrap(), net);
    }

    #[test]
    fn features_mirror_between_perspectives() {
        let wp = Piece::new(Color::White, Role::Pawn);
        let bk = Piece::new(Color::Black, Role::King);
        assert_eq!(feature(Color::White, wp, Square::E2), 12);
        assert_eq!(feature(Color::Black, wp, Square::E2), 384 + 52);
        assert_eq!(feature(Color::Black, bk, Square::E8), 5 * 64 + 4);
        assert_eq!(feature(Color::White, bk, Square::E8), 384 + 5 * 64 + 60);
    }
}
