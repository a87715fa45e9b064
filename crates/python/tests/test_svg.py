"""fianchetto.svg: the project's renderer with arrows, squares, last move."""

import xml.etree.ElementTree as ET

import pytest

import fianchetto


def test_svg_picture():
    b = fianchetto.Board()
    b.push_san("e4")
    plain = fianchetto.svg(b)
    ET.fromstring(plain)  # well-formed XML
    assert plain.startswith("<svg") and 'width="400"' in plain
    marked = fianchetto.svg(b, arrows=["Ge2e4", "d1h5"], squares=["Rd4", "e5"], flipped=True, size=None)
    ET.fromstring(marked)
    assert marked != plain and 'width="400"' not in marked
    assert fianchetto.svg(b, lastmove="g1f3") != plain
    assert fianchetto.svg(b, coordinates=False) != plain


@pytest.mark.parametrize(
    "kwargs", [{"arrows": ["e2"]}, {"arrows": ["Xe2e4"]}, {"squares": ["z9"]}, {"lastmove": "e9e4"}]
)
def test_bad_marks_raise_value_error(kwargs):
    with pytest.raises(ValueError):
        fianchetto.svg(fianchetto.Board(), **kwargs)
