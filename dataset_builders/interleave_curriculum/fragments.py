"""Fragment slots of a split: (passage, sentence-start word offset) places where an n-word fragment can be cut.

A problem is an ordered pair of slots from passages of different works. The pairs of a split are numbered
``0 .. n_pairs - 1`` (slots sorted by work, then passage id, then offset), so a pair can be addressed by a
single integer and decoded in O(log n_slots).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from dataset_builders.corpus import Corpus, Passage

ABBREVIATIONS = frozenset({
    "mr.", "mrs.", "messrs.", "dr.", "st.", "gen.", "col.", "capt.", "lieut.", "gov.", "hon.", "rev.", "no.",
    "jan.", "feb.", "aug.", "sept.", "oct.", "nov.", "dec.", "vs.", "viz.", "etc.", "i.e.", "e.g.", "u.s.",
})
_SENTENCE_END = re.compile(r"[.!?][\"'\u201d\u2019)\]]*$")
_SENTENCE_OPEN = re.compile(r"^[\"'\u201c\u2018(\[]*[A-Z0-9]")


def ends_sentence(word: str) -> bool:
    """Whether ``word`` closes a sentence (``.``/``!``/``?`` and closing quotes), not an abbreviation or initial."""
    if not _SENTENCE_END.search(word):
        return False
    bare = word.rstrip("\"'\u201d\u2019)]").lstrip("\"'\u201c\u2018([").lower()
    return bare not in ABBREVIATIONS and not re.fullmatch(r"[a-z]\.", bare)


def sentence_starts(words: list[str]) -> list[int]:
    """Word offsets where a sentence begins: 0, and every capitalised word after a sentence end."""
    return [0] + [k + 1 for k in range(len(words) - 1)
                  if ends_sentence(words[k]) and _SENTENCE_OPEN.match(words[k + 1])]


@dataclass(frozen=True)
class Fragment:
    """``n_words`` words of one passage from word ``offset`` on, joined by single spaces."""

    passage: Passage
    offset: int
    text: str


class FragmentPairs:
    """All ordered pairs of n-word fragment slots of one split whose passages come from different works."""

    def __init__(self, corpus: Corpus, split: str, n_words: int):
        if n_words < 1:
            raise ValueError(f"n_words must be >= 1, got {n_words}")
        self.split, self.n_words = split, n_words
        passages = sorted(corpus.split(split, min_words=n_words), key=lambda p: (p.work_id, p.id))
        passage_idx, offsets, work_of_slot = [], [], []
        self.passages: list[Passage] = []
        work_ids: list[str] = []
        for p in passages:
            starts = [s for s in sentence_starts(p.text.split()) if s + n_words <= p.n_words]
            if not starts:
                continue
            if not work_ids or work_ids[-1] != p.work_id:
                work_ids.append(p.work_id)
            passage_idx += [len(self.passages)] * len(starts)
            offsets += starts
            work_of_slot += [len(work_ids) - 1] * len(starts)
            self.passages.append(p)
        if len(work_ids) < 2:
            raise ValueError(
                f"the {split} split has {len(work_ids)} work(s) with passages of >= {n_words} words; "
                "a pair needs two different works (use fewer words per fragment or a larger corpus)"
            )
        self.work_ids = work_ids
        self.slot_passage = np.asarray(passage_idx, dtype=np.int64)
        self.slot_offset = np.asarray(offsets, dtype=np.int64)
        self.slot_work = np.asarray(work_of_slot, dtype=np.int64)
        n_slots = len(offsets)
        work_size = np.bincount(self.slot_work, minlength=len(work_ids))
        self.work_start = np.concatenate([[0], np.cumsum(work_size)[:-1]])
        self.work_size = work_size
        partners = n_slots - work_size[self.slot_work]  # slots of other works, per slot
        self.pair_start = np.concatenate([[0], np.cumsum(partners)])  # pairs before slot k (as first text)
        self.n_slots = n_slots
        self.n_pairs = int(self.pair_start[-1])

    def slots(self, pair: int) -> tuple[int, int]:
        """The (first, second) slot numbers of pair ``pair``; the two slots always belong to different works."""
        if not 0 <= pair < self.n_pairs:
            raise IndexError(f"pair {pair} outside range({self.n_pairs})")
        first = int(np.searchsorted(self.pair_start, pair, side="right")) - 1
        rest = pair - int(self.pair_start[first])
        work = self.slot_work[first]
        second = rest if rest < self.work_start[work] else rest + int(self.work_size[work])
        return first, second

    def fragment(self, slot: int) -> Fragment:
        """The n-word fragment at ``slot``."""
        passage = self.passages[int(self.slot_passage[slot])]
        offset = int(self.slot_offset[slot])
        words = passage.text.split(None, offset + self.n_words)  # the words after the fragment stay unsplit
        return Fragment(passage, offset, " ".join(words[offset:offset + self.n_words]))

    def pair(self, pair: int) -> tuple[Fragment, Fragment]:
        """The two fragments (Text A, Text B) of pair ``pair``."""
        first, second = self.slots(pair)
        return self.fragment(first), self.fragment(second)
