"""Repeated problems: texts changed so that one phrase of them occurs again and again, within a text and across the
two, so that the model must keep its place in each text by position, not by the words before it.

Why: at 500 words out of register (technical documentation) the chain's stage-6 adapter derails where the stream's
place repeats: 47% of its first slips come where the two words before the slip occur again as a pair in that text
(21% of all words there, against 14% on the test split). Regenerated answers show one text's place jumping at a
repeated phrase (``will be removed.`` 45 times in one text; a phrase shared by both texts) while the other text holds
(results/grpo/batch-34/first-slips-and-after.md). Natural train text holds few such places, so a train draw of plain
problems rarely asks the model to tell one occurrence of a phrase from another.

How, a pure function of the texts and the problem's key (words split on whitespace): a keyed choice of the source
text (A or B), a keyed phrase length of 2 to 4 words (at most the shorter text's word count) and a keyed start in the
source text; the phrase is the source text's words there, copied exactly as written, punctuation included. Copies of
it then overwrite that many consecutive words at other places, in both texts: first one in each text, at the first
place that fits from a keyed start (so each text holds one copy whenever it has room), then, each in a keyed text at a
keyed place, more until the copies cover about ``REPEATED_WORD_SHARE`` of the two texts' words. Copies never overlap
each other or the source phrase; a draw that does not fit (an overlap, or past the end of its text) is skipped, and
the draws are bounded (``DRAWS_PER_COPY`` per copy wanted). Texts of fewer than 2 words stay as they are. Each text
keeps its word count and the whitespace between its words. No library RNG: every process agrees, and a problem can be
regenerated on its own.
"""

from __future__ import annotations

from dataset_builders.indexing import keyed_int
from dataset_builders.interleave_curriculum.share import check_share, word_pieces

REPEATED_WORD_SHARE = 0.15  # the share of a repeated problem's words (both texts) that the phrase's copies cover
PHRASE_WORDS = (2, 3, 4)  # the phrase lengths drawn (each at most the shorter text's word count)
DRAWS_PER_COPY = 4  # keyed draws of a place per copy wanted beyond the first in each text: bounded work
TEXTS = ("a", "b")


def check_repeated_fraction(fraction) -> None:
    """A ValueError unless ``fraction`` (the share of problems with a repeated phrase) is a real number (not a bool)
    from 0 to 1."""
    check_share("repeated fraction", fraction)


def phrase_words(key: str, words_a: int, words_b: int) -> int:
    """The phrase length: a keyed one of ``PHRASE_WORDS``, at most the shorter text's word count (so the other text
    always has room for a copy)."""
    return min(PHRASE_WORDS[keyed_int(f"{key}/length", len(PHRASE_WORDS))], words_a, words_b)


def copies_wanted(words: int, length: int) -> int:
    """How many copies of a ``length``-word phrase cover about ``REPEATED_WORD_SHARE`` of ``words`` words (1 at
    least)."""
    return max(1, round(REPEATED_WORD_SHARE * words / length))


def repeated_spans(key: str, words_a: int, words_b: int) -> tuple[str, int, int, dict[str, list[int]]]:
    """Where ``repeated_texts`` puts the phrase, for texts of ``words_a`` and ``words_b`` words (2 each at least):
    (the source text, ``"a"`` or ``"b"``; the phrase's length; its start in the source; {text: the starts of its
    copies in that text, in the order placed})."""
    counts = {"a": words_a, "b": words_b}
    source = TEXTS[keyed_int(f"{key}/source", 2)]
    length = phrase_words(key, words_a, words_b)
    start = keyed_int(f"{key}/start", counts[source] - length + 1)
    taken = {text: [False] * count for text, count in counts.items()}
    taken[source][start : start + length] = [True] * length
    copies: dict[str, list[int]] = {"a": [], "b": []}

    def fits(text: str, at: int) -> bool:
        return at + length <= counts[text] and not any(taken[text][at : at + length])

    def place(text: str, at: int) -> None:
        taken[text][at : at + length] = [True] * length
        copies[text].append(at)

    for text in TEXTS:  # one copy in each text that has room: the first place that fits from a keyed start
        places = counts[text] - length + 1
        offset = keyed_int(f"{key}/text={text}/first", places)
        at = next((p % places for p in range(offset, offset + places) if fits(text, p % places)), None)
        if at is not None:
            place(text, at)
    wanted = copies_wanted(words_a + words_b, length)
    placed = len(copies["a"]) + len(copies["b"])
    for draw in range(DRAWS_PER_COPY * max(0, wanted - placed)):
        if placed >= wanted:
            break
        text = TEXTS[keyed_int(f"{key}/draw={draw}/text", 2)]
        at = keyed_int(f"{key}/draw={draw}/at", counts[text])  # a place too near the end does not fit: skipped
        if fits(text, at):
            place(text, at)
            placed += 1
    return source, length, start, copies


def repeated_texts(text_a: str, text_b: str, key: str) -> tuple[str, str]:
    """``text_a`` and ``text_b`` with a phrase of one of them (2 to 4 words) copied over other words of both,
    ``repeated_spans``' places; the other words and all whitespace stay as they were. Texts of fewer than 2 words are
    returned as they are."""
    pieces = dict(zip(TEXTS, (word_pieces(text_a), word_pieces(text_b)), strict=True))
    words_a, words_b = len(pieces["a"][1]), len(pieces["b"][1])
    if words_a < 2 or words_b < 2:
        return text_a, text_b
    source, length, start, copies = repeated_spans(key, words_a, words_b)
    source_pieces, source_places = pieces[source]
    phrase = [source_pieces[source_places[start + k]] for k in range(length)]
    for text, starts in copies.items():
        text_pieces, places = pieces[text]
        for at in starts:
            for k, word in enumerate(phrase):
                text_pieces[places[at + k]] = word
    return "".join(pieces["a"][0]), "".join(pieces["b"][0])
