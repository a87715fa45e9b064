//! movegen
