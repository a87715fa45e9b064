"""Syzygy endgame tablebases: WDL, DTZ and the best move from tables on disk."""

from fianchetto._fianchetto import MissingTableError, RootMove, Tablebase, TablebaseError

__all__ = ["MissingTableError", "RootMove", "Tablebase", "TablebaseError"]
