"""PGN: a streaming reader over a path or a file object, and a writer.

``read(source)`` yields :class:`Game` objects; a malformed game is yielded
with its ``error`` set (or raised as :class:`PgnError` with
``raise_errors=True``), and reading goes on with the next game. Parsing
releases the GIL, so threads reading different files run in parallel.
"""

from fianchetto._fianchetto import Eval, Game, PgnError, Reader, Variation, Writer, parse, read

__all__ = ["Eval", "Game", "PgnError", "Reader", "Variation", "Writer", "parse", "read"]
