"""Fragment slots: (passage, sentence-start word offset) places where an n-word fragment can be cut.

A problem is an ordered pair of slots from passages of different works. The pairs of two slot tables (say
the speeches and the plays of a split) are numbered ``0 .. n_pairs - 1``, so a pair can be addressed by a
single integer and decoded in O(log n_slots).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from dataset_builders.corpus import Passage

ABBREVIATIONS = frozenset(
    {
        "mr.",
        "mrs.",
        "messrs.",
        "dr.",
        "st.",
        "gen.",
        "col.",
        "capt.",
        "lieut.",
        "gov.",
        "hon.",
        "rev.",
        "no.",
        "jan.",
        "feb.",
        "aug.",
        "sept.",
        "oct.",
        "nov.",
        "dec.",
        "vs.",
        "viz.",
        "etc.",
        "i.e.",
        "e.g.",
        "u.s.",
    }
)
_SENTENCE_END = re.compile(r"[.!?][\"'\u201d\u2019)\]]*$")
_SENTENCE_OPEN = re.compile(r"^[\"'\u201c\u2018(\[]*[A-Z0-9]")
_LAST_CHARS = frozenset(".!?\"'\u201d\u2019)]")  # a word that ends a sentence ends in one of these


def ends_sentence(word: str) -> bool:
    """Whether ``word`` closes a sentence (``.``/``!``/``?`` and closing quotes), not an abbreviation or initial."""
    if not _SENTENCE_END.search(word):
        return False
    bare = word.rstrip("\"'\u201d\u2019)]").lstrip("\"'\u201c\u2018([").lower()
    return bare not in ABBREVIATIONS and not re.fullmatch(r"[a-z]\.", bare)


def sentence_starts(words: list[str]) -> list[int]:
    """Word offsets where a sentence begins: 0, and every capitalised word after a sentence end."""
    candidates = [k for k in range(len(words) - 1) if words[k][-1:] in _LAST_CHARS]  # the regexes only where needed
    return [0] + [k + 1 for k in candidates if ends_sentence(words[k]) and _SENTENCE_OPEN.match(words[k + 1])]


@lru_cache(maxsize=1 << 14)
def passage_sentence_starts(text: str) -> tuple[int, ...]:
    """:func:`sentence_starts` of a passage's words, cached: every fragment length of a split asks again."""
    return tuple(sentence_starts(text.split()))


@dataclass(frozen=True)
class Fragment:
    """``n_words`` words of one passage from word ``offset`` on, joined by single spaces."""

    passage: Passage
    offset: int
    text: str


class FragmentSlots:
    """The sentence-start slots of n-word fragments in some passages, numbered by work, passage id, then offset."""

    def __init__(self, passages: list[Passage], n_words: int):
        if n_words < 1:
            raise ValueError(f"n_words must be >= 1, got {n_words}")
        self.n_words = n_words
        passage_idx, offsets, work_of_slot = [], [], []
        self.passages: list[Passage] = []
        work_ids: list[str] = []
        for p in sorted((p for p in passages if p.n_words >= n_words), key=lambda p: (p.work_id, p.id)):
            starts = [s for s in passage_sentence_starts(p.text) if s + n_words <= p.n_words]
            if not starts:
                continue
            if not work_ids or work_ids[-1] != p.work_id:
                work_ids.append(p.work_id)
            passage_idx += [len(self.passages)] * len(starts)
            offsets += starts
            work_of_slot += [len(work_ids) - 1] * len(starts)
            self.passages.append(p)
        self.work_ids = work_ids
        self.slot_passage = np.asarray(passage_idx, dtype=np.int64)
        self.slot_offset = np.asarray(offsets, dtype=np.int64)
        self.slot_work = np.asarray(work_of_slot, dtype=np.int64)
        self.n_slots = len(offsets)
        self.work_size = np.bincount(self.slot_work, minlength=len(work_ids))
        self.work_start = np.concatenate([[0], np.cumsum(self.work_size)[:-1]]).astype(np.int64)

    def fragment(self, slot: int) -> Fragment:
        """The n-word fragment at ``slot``."""
        passage = self.passages[int(self.slot_passage[slot])]
        offset = int(self.slot_offset[slot])
        words = passage.text.split(None, offset + self.n_words)  # the words after the fragment stay unsplit
        return Fragment(passage, offset, " ".join(words[offset : offset + self.n_words]))


class FragmentPairs:
    """All ordered pairs (slot of ``first``, slot of ``second``) whose passages come from different works.

    With one table (``second`` left out) the pairs are its cross-work pairs; two tables must share no work, so
    every pair of their slots counts. Pairs are numbered ``0 .. n_pairs - 1`` and decoded in O(log n_slots).
    """

    def __init__(self, first: FragmentSlots, second: FragmentSlots | None = None):
        self.first = first
        self.second = first if second is None else second
        self.same = self.second is first
        if self.same:
            partners = first.n_slots - first.work_size[first.slot_work]  # slots of other works, per slot
            self.pair_start = np.concatenate([[0], np.cumsum(partners)]).astype(np.int64)
            self.n_pairs = int(self.pair_start[-1])
        else:
            if set(first.work_ids) & set(self.second.work_ids):
                raise ValueError("two slot tables of fragment pairs must share no work")
            self.n_pairs = first.n_slots * self.second.n_slots

    def slots(self, pair: int) -> tuple[int, int]:
        """The (first, second) slot numbers of pair ``pair``; the two slots always belong to different works."""
        if not 0 <= pair < self.n_pairs:
            raise IndexError(f"pair {pair} outside range({self.n_pairs})")
        if not self.same:
            first, second = divmod(pair, self.second.n_slots)
            return first, second
        table = self.first
        first = int(np.searchsorted(self.pair_start, pair, side="right")) - 1
        rest = pair - int(self.pair_start[first])
        work = table.slot_work[first]
        second = rest if rest < table.work_start[work] else rest + int(table.work_size[work])
        return first, second

    def pair(self, pair: int) -> tuple[Fragment, Fragment]:
        """The two fragments (Text A, Text B) of pair ``pair``."""
        first, second = self.slots(pair)
        return self.first.fragment(first), self.second.fragment(second)
