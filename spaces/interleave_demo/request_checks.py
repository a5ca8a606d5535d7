"""Checks on a visitor's two texts (not text, invalid Unicode, empty, whitespace only, too long) and the note on
unequal lengths."""

from __future__ import annotations

import os
import re

DEFAULT_MAX_WORDS = 500
_SURROGATE = re.compile("[\ud800-\udfff]")  # half of a UTF-16 pair: not a character, cannot be encoded or tokenized


class InputProblem(ValueError):
    """A request the demo refuses; the message is written for the visitor."""


def max_words_per_text() -> int:
    """The word limit per text: ``INTERLEAVE_DEMO_MAX_WORDS`` (default 500)."""
    value = os.environ.get("INTERLEAVE_DEMO_MAX_WORDS", "").strip()
    if not value:
        return DEFAULT_MAX_WORDS
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"INTERLEAVE_DEMO_MAX_WORDS must be a positive whole number, not {value!r}")
    return int(value)


def check_text(name: str, text: str | None, max_words: int) -> list[str]:
    """The words of one text, or an :class:`InputProblem` saying what is wrong with it."""
    if text is not None and not isinstance(text, str):
        raise InputProblem(f"{name} must be a string of text, not {type(text).__name__}.")
    if not text:
        raise InputProblem(f"{name} is empty: paste a text (or pick an example).")
    bad = _SURROGATE.search(text)
    if bad:
        raise InputProblem(
            f"{name} holds an invalid character at position {bad.start():,} (a lone UTF-16 surrogate, "
            f"U+{ord(bad.group()):04X}): paste the text again from its source."
        )
    words = text.split()
    if not words:
        raise InputProblem(f"{name} holds only whitespace: paste some words.")
    if len(words) > max_words:
        excess = len(words) - max_words
        raise InputProblem(
            f"{name} has {len(words):,} words; this demo takes at most {max_words:,} words per text. "
            f"Shorten it by {excess:,} word{'s' if excess > 1 else ''}."
        )
    return words


def check_texts(text_a: str | None, text_b: str | None, max_words: int) -> tuple[list[str], list[str]]:
    """The words of Text A and Text B, both checked; problems with both are reported together."""
    results, problems = [], []
    for name, text in (("Text A", text_a), ("Text B", text_b)):
        try:
            results.append(check_text(name, text, max_words))
        except InputProblem as exc:
            problems.append(str(exc))
    if problems:
        raise InputProblem(" ".join(problems))
    return results[0], results[1]


def length_note(words_a: list[str], words_b: list[str]) -> str:
    """How the two lengths interleave: in pairs throughout, or in pairs and then the rest of the longer text."""
    n_a, n_b = len(words_a), len(words_b)
    if n_a == n_b:
        return f"Text A and Text B have {n_a} words each: {n_a} pairs, {2 * n_a} words in all."
    longer, rest = ("A", n_a - n_b) if n_a > n_b else ("B", n_b - n_a)
    tail = (
        f"the last {rest} words of Text {longer} follow on their own"
        if rest > 1
        else f"the last word of Text {longer} follows on its own"
    )
    return (
        f"Text A has {n_a} words, Text B {n_b}: they alternate for {min(n_a, n_b)} pairs, then {tail} "
        f"({n_a + n_b} words in all)."
    )
