//! Choosing a board backend by name at run time, and running generic code on
//! it: `with_backend!(backend, B => perft::<B>(...))`. The names and the
//! macro live in [`fianchetto_movegen::backend`] (re-exported here, and
//! the macro at the crate's root).

pub use fianchetto_movegen::backend::{Backend, UnknownBackend};
