"""Shared paths and data of the test suite: the repository's own test data."""

import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
MOVEGEN_DATA = ROOT / "crates" / "movegen" / "tests" / "data"
TABLES = ROOT / "crates" / "syzygy" / "tests" / "tables"


def epd_positions(name):
    """(fen, {depth: count}) of each line of a perft EPD file of the repository."""
    out = []
    for line in (MOVEGEN_DATA / name).read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fen, *fields = line.split(";")
        counts = {}
        for f in fields:
            f = f.strip()
            if f.startswith("D"):
                depth, count = f[1:].split()
                counts[int(depth)] = int(count)
        out.append((fen.strip(), counts))
    return out


@pytest.fixture(scope="session")
def tables_dir():
    assert TABLES.is_dir(), f"the Syzygy test tables are missing: {TABLES}"
    return str(TABLES)
