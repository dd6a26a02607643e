"""Regex pieces the phrase tables share (the romanised tables `safety_*.py` and `safety_hindi.py`), written once so
a table reads as its phrases only."""

from __future__ import annotations

# A word's remaining letters, suffixes and hyphenated case endings ("fan-la", "battery-a", "tablet-a").
WORD_REST = r"\S*"
# One whole word and the space after it, for a phrase to quantify ("{0,2}": up to two words between its parts).
WORDS = r"(?:\S+\s+)"
