"""Doubled problems: texts changed so that the interleaved target holds two identical adjacent words (``... the the
...``), so that GRPO sees many of them and gets reward variance on them.

Why: the stage-1 GRPO adapter (10 words per text) fails systematically where the target has two identical adjacent
words (Text A's word i and Text B's word i both "the": the target reads "... the the ..."): it writes the word once.
Measured: 158 first slips per 1,000 target words at risk on such doubled positions against 3.1 on other words; 10 of
the 21 test problems that hold a doubled pair fail (8% fail overall). The adapters trained with supervised help never
slip there. In natural text the pair is rare, so a train draw of plain problems holds few of them.

Which positions and how is a pure function of the problems' key: of the positions ``i < min(len(A), len(B))`` (words
split on whitespace), those in the keyed share ``DOUBLED_POSITION_SHARE`` (``share.py``; when none is, the one with the
lowest draw, so every doubled problem holds one) get a pair, by a keyed choice per position between (a) B's word i
made A's word i (the target reads ``a_i a_i``) and (b) A's word i+1 made B's word i (``b_i b_i``; only where A has a
word i+1, else (a)). The word is copied exactly as written, punctuation included, from the texts as changed so far
(positions in order), so no later position undoes an earlier pair; two chosen positions side by side may make a run
of three. Each text keeps its word count and the whitespace between its words. No library RNG: every process agrees,
and a problem can be regenerated on its own.
"""

from __future__ import annotations

from dataset_builders.indexing import keyed_int
from dataset_builders.interleave_curriculum.share import check_share, share_positions, word_pieces

DOUBLED_POSITION_SHARE = 0.1  # the share of a doubled problem's positions (word i of both texts) that get a pair
COPY_A, COPY_B = "a", "b"  # a position's choice: B's word i := A's word i, or A's word i+1 := B's word i


def check_doubled_fraction(fraction) -> None:
    """A ValueError unless ``fraction`` (the share of problems with doubled words) is a real number (not a bool) from 0
    to 1."""
    check_share("doubled fraction", fraction)


def doubled_positions(count: int, key: str) -> list[int]:
    """The positions, of ``count`` (the shorter text's words), that ``doubled_texts`` pairs: those in the keyed share
    ``DOUBLED_POSITION_SHARE``, or the one with the lowest draw when none is."""
    return share_positions(count, key, DOUBLED_POSITION_SHARE)


def doubled_choice(key: str, position: int, words_a: int) -> str:
    """``COPY_A`` or ``COPY_B`` for ``position`` (keyed); ``COPY_A`` where Text A (``words_a`` words) has no word
    after it."""
    if position + 1 >= words_a:
        return COPY_A
    return (COPY_A, COPY_B)[keyed_int(f"{key}/position={position}/copy", 2)]


def doubled_texts(text_a: str, text_b: str, key: str) -> tuple[str, str]:
    """``text_a`` and ``text_b`` with a pair of identical adjacent target words at each of ``doubled_positions``
    (``doubled_choice``: B's word i := A's word i, or A's word i+1 := B's word i); the other words and all whitespace
    stay as they were."""
    pieces_a, places_a = word_pieces(text_a)
    pieces_b, places_b = word_pieces(text_b)
    for i in doubled_positions(min(len(places_a), len(places_b)), key):
        if doubled_choice(key, i, len(places_a)) == COPY_A:
            pieces_b[places_b[i]] = pieces_a[places_a[i]]
        else:
            pieces_a[places_a[i + 1]] = pieces_b[places_b[i]]
    return "".join(pieces_a), "".join(pieces_b)
