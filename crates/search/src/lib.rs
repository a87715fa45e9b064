//! Fianchetto search (coming in a later issue).
