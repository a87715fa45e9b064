//! Fianchetto eval (coming in a later issue).
