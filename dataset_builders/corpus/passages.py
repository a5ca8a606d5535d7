"""Cut works into passages (whole paragraphs, never across a section) and assign works to splits."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import asdict, dataclass

from dataset_builders.corpus.works import Work

SPLITS = ("train", "validation", "test")
OUT_OF_REGISTER = "out_of_register"  # every work of a held-out register: never in train, validation or test
# The held-out register's choice split: the works of these sources, when their register is held out, go here and
# not to out_of_register, so that a recipe aimed at the held-out register is chosen on other documents than the
# ones that report it (as validation is to test in register).
OUT_OF_REGISTER_VALIDATION = "out_of_register_validation"
HELD_OUT_VALIDATION_SOURCES = ("sphinx-docs",)
ALL_SPLITS = (*SPLITS, OUT_OF_REGISTER, OUT_OF_REGISTER_VALIDATION)


@dataclass(frozen=True)
class Passage:
    """Whole paragraphs of one section of one work; ``text`` keeps paragraph breaks as blank lines."""

    id: str
    work_id: str
    source: str
    split: str
    n_words: int
    text: str
    register: str = ""

    def __post_init__(self):
        if not self.register:  # a corpus written before registers: each source was its own
            object.__setattr__(self, "register", self.source)

    def to_dict(self) -> dict:
        return asdict(self)


def cut_passages(work: Work, min_words: int) -> list[tuple[str, int, str]]:
    """(id, n_words, text) for each passage: paragraphs joined until >= ``min_words`` or the section ends."""
    passages = []
    for section in work.sections:
        pending: list[str] = []
        count = 0
        for paragraph in section:
            pending.append(paragraph)
            count += len(paragraph.split())
            if count >= min_words:
                passages.append((count, "\n\n".join(pending)))
                pending, count = [], 0
        if pending:
            passages.append((count, "\n\n".join(pending)))
    return [(f"{work.work_id}/{k:04d}", n, text) for k, (n, text) in enumerate(passages)]


def _work_hash(work_id: str) -> str:
    return hashlib.sha256(work_id.encode("utf-8")).hexdigest()


def assign_splits(
    works: list[Work],
    test_fraction: float = 0.1,
    validation_fraction: float = 0.1,
    held_out_registers: tuple[str, ...] = (),
) -> dict[str, str]:
    """work_id -> split. Works of ``held_out_registers`` all go to ``out_of_register``, but those of
    ``HELD_OUT_VALIDATION_SOURCES`` to ``out_of_register_validation``. Per source, the other works in order of
    sha256(work_id) fill test, then validation, each up to its fraction of the source's words (skipping works that
    would overshoot it by half); the rest is train. Sources of < 3 works are all train."""
    by_source: dict[str, list[Work]] = defaultdict(list)
    assignment: dict[str, str] = {}
    for work in works:
        if work.register in held_out_registers:
            held_out_for_choice = work.source in HELD_OUT_VALIDATION_SOURCES
            assignment[work.work_id] = OUT_OF_REGISTER_VALIDATION if held_out_for_choice else OUT_OF_REGISTER
        else:
            by_source[work.source].append(work)
    for source_works in by_source.values():
        ordered = sorted(source_works, key=lambda w: _work_hash(w.work_id))
        words = {w.work_id: sum(len(p.split()) for s in w.sections for p in s) for w in ordered}
        total = sum(words.values())
        if len(ordered) >= 3:
            for split, fraction, reserve in (("test", test_fraction, 2), ("validation", validation_fraction, 1)):
                quota, filled = fraction * total, 0
                free = [w.work_id for w in ordered if w.work_id not in assignment]
                candidates = free[: len(free) - reserve]  # leave a work for each split still to fill
                for work_id in candidates:
                    if filled >= quota:
                        break
                    if filled + words[work_id] <= 1.5 * quota:
                        assignment[work_id] = split
                        filled += words[work_id]
                if filled == 0 and candidates:  # every work overshoots: take the smallest
                    assignment[min(candidates, key=words.__getitem__)] = split
        for work in ordered:
            assignment.setdefault(work.work_id, "train")
    return assignment


def build_passages(
    works: list[Work],
    min_words: int,
    test_fraction: float,
    validation_fraction: float,
    held_out_registers: tuple[str, ...] = (),
) -> list[Passage]:
    """All passages of all works, each tagged with its work's split and register."""
    splits = assign_splits(works, test_fraction, validation_fraction, held_out_registers)
    return [
        Passage(pid, work.work_id, work.source, splits[work.work_id], n, text, work.register)
        for work in works
        for pid, n, text in cut_passages(work, min_words)
    ]
