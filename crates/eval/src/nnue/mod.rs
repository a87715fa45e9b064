//! NNUE: an efficiently updatable neural network evaluation.
//!
//! The architecture is the perspective network most engines of our size
//! start with: 768 piece-square inputs seen from each side, one hidden
//! layer of H neurons per perspective (shared weights), SCReLU, and one
//! output that reads the side to move's half first. Weights are `i16`
//! quantized with QA = 255 and QB = 64, and the output is scaled by 400
//! (the community's convention, so nets can be compared).

mod network;

pub use network::{
    feature, NetError, Network, ARCH_PERSPECTIVE_SCRELU, HEADER_SIZE, INPUTS, MAGIC, MAX_HIDDEN,
    QA, QB, SCALE, VERSION,
};
