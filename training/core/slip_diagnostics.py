"""Where an interleave goes wrong: per problem its first slip and the stream that slipped, and repeated phrases;
per group of problems, slip rates by position in the target and by how many tokens a word is.

A target word *slips* when the Needleman-Wunsch alignment (``metrics.needleman_wunsch.nw_alignment``, the one NW
core) does not match it with an equal completion word: it was substituted or left out. The first slip is the first
target word that slipped, or the target word an extra completion word came before. The target alternates
``A1 B1 A2 B2 ...`` while both texts last, so that word's parity says which text (stream) slipped. An answer
*derails* when a quarter of its target words or more slip: it lost the A/B pairing and did not find it again (at
100 words most of the NW score the shipped adapter loses is lost that way, results/grpo/batch-25/README.md). A word
is *symbolic* when it is code-like or numeric rather than prose (``is_symbolic``): out of register (technical docs)
half of the shipped stage 6's first slips fall on one, where they are 6-7% of the words (results/grpo/batch-27/).
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from metrics.needleman_wunsch.nw_alignment import nw_alignment, split_words

POSITION_BINS = 10  # the target cut into tenths: slip rate by relative position
TOKEN_BUCKETS = ("1", "2", "3", "4", "5+")  # tokens a word costs (with its leading space)
REPEAT_NGRAM = 4  # a repeated phrase: a 4-word sequence the completion has at least twice, the target at most once
DERAIL_FRACTION = 0.25  # an answer derails when this share of its target words or more slip
EDGE_PUNCTUATION = "\"'([{,.;:!?)]}"  # what a prose word may open or close with
SYMBOLIC_INSIDE = re.compile(r"[0-9_/\\.=<>{}\[\]()@#$%&*+|~^:]|[a-z][A-Z]")


def is_symbolic(word: str) -> bool:
    """Whether a word is code-like or numeric rather than prose: past the punctuation it opens and closes with, it
    holds a digit, one of ``_ / \\ . = < > { } [ ] ( ) @ # $ % & * + | ~ ^ :``, or a lower-case letter followed by
    a capital (camelCase: ``ModelAdmin``); or it is punctuation alone, two characters or more (``()``, ``::``)."""
    core = word.strip(EDGE_PUNCTUATION)
    return bool(SYMBOLIC_INSIDE.search(core)) if core else len(word) > 1


def derailment(outcomes: Iterable[tuple[float, int, int]]) -> dict:
    """Derailed answers among problems given as (score, slipped target words, target words), and the score they lose:
    ``score_lost`` is the mean of 1 - score over all problems, ``score_lost_by_derailed`` its part from the derailed."""
    outcomes = list(outcomes)
    derailed = [score for score, slipped, words in outcomes if words and slipped >= DERAIL_FRACTION * words]
    n = len(outcomes)
    return {
        "problems": len(derailed),
        "rate": round(len(derailed) / n, 6) if n else None,
        "score_lost": round(sum(1 - score for score, _, _ in outcomes) / n, 6) if n else None,
        "score_lost_by_derailed": round(sum(1 - score for score in derailed) / n, 6) if n else None,
    }


def target_stream(index: int, len_a: int, len_b: int) -> str | None:
    """ "A" or "B": the text target word ``index`` comes from (None: past the target's end)."""
    common = min(len_a, len_b)
    if index < 2 * common:
        return "AB"[index % 2]
    if index < len_a + len_b:
        return "A" if len_a > len_b else "B"
    return None


def aligned_target_words(completion: str, reference: str) -> tuple[list[bool], int | None]:
    """Whether each target word is matched by the alignment, and the target index of the first slip (None: none;
    ``len(target)``: the completion runs on after a correct target)."""
    matched: list[bool] = []
    first = None
    for pair in nw_alignment(completion, reference).pairs:
        if pair.op == "insert":  # an extra completion word, before target word len(matched)
            first = len(matched) if first is None else first
            continue
        if pair.op != "match" and first is None:
            first = len(matched)
        matched.append(pair.op == "match")
    return matched, first


def repeated_phrase(
    completion_words: Sequence[str], target_words: Sequence[str], n: int = REPEAT_NGRAM
) -> tuple[str, int] | None:
    """The ``n``-word phrase the completion repeats most (at least twice) that the target has at most once, and how
    often the completion has it; None when there is none. Ties go to the phrase that comes first."""

    def grams(words):
        return [tuple(words[i : i + n]) for i in range(len(words) - n + 1)]

    in_target = Counter(grams(target_words))
    counts = Counter(grams(completion_words))
    best = None
    for gram, count in counts.items():  # insertion order: first occurrence first
        if count >= 2 and in_target[gram] <= 1 and (best is None or count > best[1]):
            best = (" ".join(gram), count)
    return best


class WordTokens:
    """Tokens each word costs in ``tokenizer`` (written after a space, as inside an interleave), cached per word."""

    def __init__(self, tokenizer):
        self.tokenizer = tokenizer
        self._counts: dict[str, int] = {}

    def __call__(self, words: Sequence[str]) -> list[int]:
        new = list(dict.fromkeys(w for w in words if w not in self._counts))
        if new:
            ids = self.tokenizer([" " + w for w in new], add_special_tokens=False)["input_ids"]
            self._counts.update(zip(new, (len(i) for i in ids)))
        return [self._counts[w] for w in words]


def token_bucket(tokens: int) -> int:
    """Index into ``TOKEN_BUCKETS`` of a word of ``tokens`` tokens."""
    return min(max(tokens, 1), len(TOKEN_BUCKETS)) - 1


def position_bin(index: int, length: int) -> int:
    """The tenth of a ``length``-word target that word ``index`` falls in."""
    return min(POSITION_BINS - 1, index * POSITION_BINS // max(length, 1))


@dataclass
class SlipTally:
    """The slips of one group of problems (a label, split and task), summed over its problems."""

    streams: bool  # whether the task's completions interleave two texts (False: only the token limit counts)
    problems: int = 0
    token_limit: int = 0
    repeated: int = 0
    slipped_problems: int = 0
    first_stream: Counter = field(default_factory=Counter)
    first_positions: list[float] = field(default_factory=list)
    first_by_bin: list[int] = field(default_factory=lambda: [0] * POSITION_BINS)
    words_by_bin: list[int] = field(default_factory=lambda: [0] * POSITION_BINS)
    slips_by_bin: list[int] = field(default_factory=lambda: [0] * POSITION_BINS)
    words_by_tokens: list[int] = field(default_factory=lambda: [0] * len(TOKEN_BUCKETS))
    slips_by_tokens: list[int] = field(default_factory=lambda: [0] * len(TOKEN_BUCKETS))
    outcomes: list[tuple[float, int, int]] = field(default_factory=list)  # (score, slipped, target words): derailment
    symbolic_words: int = 0  # target words that are symbolic (is_symbolic)
    first_on_symbolic: int = 0  # first slips that fall on a symbolic target word

    def add(
        self, record: dict, matched: Sequence[bool] = (), word_tokens: Sequence[int] = (), score: float | None = None
    ) -> None:
        """Count one problem: its record (``slip_fields``), per target word matched or not and its tokens, and its
        score (for ``derailment``)."""
        self.problems += 1
        self.token_limit += record["hit_token_limit"]
        if not self.streams:
            return
        self.repeated += record["repeated_phrase"] is not None
        length = len(matched)
        if score is not None:
            self.outcomes.append((score, record["slipped_words"], length))
        for index, (ok, tokens) in enumerate(zip(matched, word_tokens, strict=True)):
            self.words_by_bin[position_bin(index, length)] += 1
            self.slips_by_bin[position_bin(index, length)] += not ok
            self.words_by_tokens[token_bucket(tokens)] += 1
            self.slips_by_tokens[token_bucket(tokens)] += not ok
        self.symbolic_words += record.get("target_symbolic_words", 0)
        first = record["first_slip"]
        if first is not None:
            self.first_on_symbolic += record.get("first_slip_word") is not None and is_symbolic(
                record["first_slip_word"]
            )
            self.slipped_problems += 1
            self.first_stream[record["first_slip_stream"] or "after the end"] += 1
            self.first_positions.append(first / max(length, 1))
            self.first_by_bin[position_bin(min(first, max(length - 1, 0)), length)] += 1

    def summary(self) -> dict:
        """Counts and rates, as ``diagnostics.json`` holds them."""

        def rate(part: int, whole: int) -> float | None:
            return round(part / whole, 6) if whole else None

        out = {
            "problems": self.problems,
            "token_limit": {"runs": self.token_limit, "rate": rate(self.token_limit, self.problems)},
        }
        if not self.streams:
            return out
        width = 1 / POSITION_BINS
        out.update(
            {
                "repeated_phrase": {"runs": self.repeated, "rate": rate(self.repeated, self.problems)},
                "first_slip": {
                    "problems": self.slipped_problems,
                    "rate": rate(self.slipped_problems, self.problems),
                    "stream": {
                        "A": self.first_stream["A"],
                        "B": self.first_stream["B"],
                        "after the end": self.first_stream["after the end"],
                    },
                    "median_position": round(statistics.median(self.first_positions), 6)
                    if self.first_positions
                    else None,
                    "by_position": self.first_by_bin,
                    "on_symbolic_words": self.first_on_symbolic,
                    "symbolic_share_of_target_words": rate(self.symbolic_words, sum(self.words_by_bin)),
                },
                "slip_rate_by_position": [
                    {
                        "from": round(k * width, 3),
                        "to": round((k + 1) * width, 3),
                        "words": words,
                        "slipped": slips,
                        "rate": rate(slips, words),
                    }
                    for k, (words, slips) in enumerate(zip(self.words_by_bin, self.slips_by_bin))
                ],
                "slip_rate_by_tokens": [
                    {"tokens": bucket, "words": words, "slipped": slips, "rate": rate(slips, words)}
                    for bucket, words, slips in zip(TOKEN_BUCKETS, self.words_by_tokens, self.slips_by_tokens)
                ],
                **({"derailed": derailment(self.outcomes)} if self.outcomes else {}),
            }
        )
        return out


def slip_fields(
    completion: str, reference: str, lengths: tuple[int, int] | None, ended: bool, word_tokens: WordTokens | None = None
) -> tuple[dict, list[bool], list[int]]:
    """The slip fields of one problem's record, and per target word whether it matched and its tokens.

    ``lengths``: the words of Text A and Text B (None: a task without streams, only ``hit_token_limit``).
    """
    record = {"hit_token_limit": not ended}
    if lengths is None:
        return record, [], []
    matched, first = aligned_target_words(completion, reference)
    target = split_words(reference)
    phrase = repeated_phrase(split_words(completion), target)
    record.update(
        {
            "first_slip": first,
            "first_slip_stream": None if first is None else target_stream(first, *lengths),
            "first_slip_word": target[first] if first is not None and first < len(target) else None,
            "target_symbolic_words": sum(map(is_symbolic, target)),
            "slipped_words": matched.count(False),
            "repeated_phrase": phrase[0] if phrase else None,
            "repeats": phrase[1] if phrase else 0,
        }
    )
    return record, matched, word_tokens(target) if word_tokens is not None else [1] * len(target)


class SlipDiagnostics:
    """The tallies of every (label, split, task) group of an evaluation, in the order they were scored."""

    def __init__(self):
        self.groups: dict[tuple[str, str, str], tuple[int | None, SlipTally]] = {}

    def tally(self, label: str, split: str, task: str, words: int | None, streams: bool) -> SlipTally:
        """The tally of one group (new on first use)."""
        key = (label, split, task)
        if key not in self.groups:
            self.groups[key] = (words, SlipTally(streams))
        return self.groups[key][1]

    def to_dict(self) -> dict:
        """``diagnostics.json``: the definitions, then one entry per group."""
        return {
            "definition": __doc__.strip().replace("\n", " "),
            "position_bins": POSITION_BINS,
            "token_buckets": list(TOKEN_BUCKETS),
            "repeat_ngram": REPEAT_NGRAM,
            "derail_fraction": DERAIL_FRACTION,
            "groups": [
                {"label": label, "split": split, "task": task, "words": words, **tally.summary()}
                for (label, split, task), (words, tally) in self.groups.items()
            ],
        }
