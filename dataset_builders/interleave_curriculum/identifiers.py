"""Identifier problems: texts with some words replaced by synthetic code identifiers, so that the model practises
copying strings such as ``timezone.FixedOffset`` or ``errors='strict')`` as they stand, not as the prose they resemble.

Why (issue 18): on held-out technical documentation (the out_of_register split) 40-75% of the model's first slips
at every stage fall on a code-like word (digits, dots, underscores, slashes, brackets or camelCase inside a word:
``training.core.slip_diagnostics.is_symbolic``), where such words are 6-7% of the words (results/grpo/batch-27/ and
batch-28/); the training registers hold identifier-like words at 0.17% of their words at most, against 4.66% in
technical text (results/corpus/symbolic-words.md). The held-out register's text is never used: an
identifier is built from the problem's own words in a generic programming convention (``SHAPES``: snake_case,
camelCase, a dotted name, a call, a path, an option, ...), so out_of_register stays out of register.

Which words and how is a pure function of the text's key: word ``i`` (whitespace-split) is replaced when it is in
the keyed share ``IDENTIFIER_WORD_SHARE`` of the text's words (``share.py``; when none is, the word with the lowest
draw, so every text of a chosen problem holds one), by an identifier built from it and, in most shapes, the next word
(the first word after the last), in a keyed shape, with keyed numbers. The replaced word's leading and trailing
punctuation stay around the identifier, and the text keeps its word count (a curriculum stage is its words per
text) and the rest of its words and spacing. No library RNG: every process agrees, and a problem can be
regenerated on its own.

Long identifiers (``long_share``, issue 18 again): the shipped adapter's first slips on held-out technical text fall,
per word, most often on identifiers of many components (split on non-alphanumerics and camelCase boundaries: 24.2
first slips per 1,000 target words at 4+ components against 0.58 on plain words, at 500 words), such as
``django.db.models.functions.TruncHour()`` or ``IGNORABLE_404_STARTS``; ``SHAPES`` build from two words at most. A
replaced word whose keyed draw falls below ``long_share`` gets a ``LONG_SHAPES`` identifier instead, of 3 or 4
components (a keyed count): the word and the two or three words after it (wrapping around as above). At
``long_share`` 0 (the default) no draw is made and every text is as before, byte for byte.
"""

from __future__ import annotations

import string
from collections.abc import Callable

from dataset_builders.indexing import keyed_int
from dataset_builders.interleave_curriculum.share import DRAWS, check_share, share_positions, word_pieces

IDENTIFIER_WORD_SHARE = 0.1  # the share of a chosen problem's words replaced by an identifier
IDENTIFIER_CHARACTERS = frozenset(string.ascii_lowercase + string.digits)  # what a component keeps of a word
STAND_INS = ("x", "id", "val", "obj", "tmp", "arg")  # a component for a word with nothing of the above
NUMBERS = 1000  # an identifier's number is drawn from range(NUMBERS)
LONG_COMPONENTS = (3, 4)  # how many components a long identifier has: one of these, drawn per identifier


def check_identifier_fraction(fraction) -> None:
    """A ValueError unless ``fraction`` (the share of problems with identifiers) is a real number (not a bool) from 0
    to 1."""
    check_share("identifier fraction", fraction)


def check_long_identifier_share(share) -> None:
    """A ValueError unless ``share`` (the share of identifiers that are long) is a real number (not a bool) from 0 to
    1."""
    check_share("long identifier share", share)


def _pascal(a: str, b: str) -> str:
    """``AB``; a one-letter first part stays lower case (``iAm``, not ``IAm``), so a capital still follows a small
    letter."""
    return (a.capitalize() if len(a) > 1 else a) + b.capitalize()


# shape name -> identifier of components a, b (non-empty, [a-z0-9]) and a number n in range(NUMBERS)
SHAPES: dict[str, Callable[[str, str, int], str]] = {
    "snake_case": lambda a, b, n: f"{a}_{b}",
    "camelCase": lambda a, b, n: a + b.capitalize(),
    "PascalCase": lambda a, b, n: _pascal(a, b),
    "UPPER_SNAKE": lambda a, b, n: f"{a}_{b}".upper(),
    "dotted": lambda a, b, n: f"{a}.{b}",
    "method_call": lambda a, b, n: f"{a}.{b}()",
    "call": lambda a, b, n: f"{a}({b})",
    "module_path": lambda a, b, n: f"{a}/{b}.py",
    "absolute_path": lambda a, b, n: f"/{a}/{b}",
    "option": lambda a, b, n: f"--{a}-{b}={n % 10}",
    "assignment": lambda a, b, n: f"{a}={b}",
    "keyword_string": lambda a, b, n: f"{a}='{b}'",
    "index": lambda a, b, n: f"{a}[{n % 10}]",
    "version": lambda a, b, n: f"{a}-{n // 100}.{n // 10 % 10}.{n % 10}",
    "version_suffix": lambda a, b, n: f"{a}_v{n % 9 + 1}",
    "scope": lambda a, b, n: f"{a}::{b}",
    "angle_placeholder": lambda a, b, n: f"<{a}-{b}>",
    "brace_placeholder": lambda a, b, n: f"{{{a}_{b}}}",
    "numbered": lambda a, b, n: f"{a}{n % 9 + 1}",
}


def _pascal_all(parts: list[str]) -> str:
    """``AaaBbbCcc``: ``_pascal`` over several parts (a one-letter first part stays lower case)."""
    return _pascal(parts[0], parts[1]) + "".join(part.capitalize() for part in parts[2:])


# shape name -> identifier of the components ``parts`` (3 or 4 of them, each non-empty, [a-z0-9]) and a number n in
# range(NUMBERS); every shape keeps as many components as it is given (a number may take a word's place)
LONG_SHAPES: dict[str, Callable[[list[str], int], str]] = {
    "dotted_path": lambda parts, n: ".".join(parts),
    "class_call": lambda parts, n: ".".join([*parts[:-1], parts[-1].capitalize()]) + "()",
    "PascalCase": lambda parts, n: _pascal_all(parts),
    "camelCase": lambda parts, n: parts[0] + "".join(part.capitalize() for part in parts[1:]),
    "UPPER_SNAKE": lambda parts, n: "_".join(parts).upper(),
    "UPPER_SNAKE_number": lambda parts, n: "_".join([*parts[:-2], str(n), parts[-1]]).upper(),
    "snake_case": lambda parts, n: "_".join(parts),
    "module_path": lambda parts, n: "/".join(parts) + ".py",
    "scope": lambda parts, n: "::".join([*parts[:-1], parts[-1].capitalize()]),
    "option": lambda parts, n: "--" + "-".join(parts[:-1]) + "=" + parts[-1],
    "dotted_argument_call": lambda parts, n: f"{parts[0]}.{parts[1]}({'.'.join(parts[2:])})",
}


def component(word: str, key: str) -> str:
    """``word`` lower-cased with all but ASCII letters and digits stripped; a keyed stand-in (``STAND_INS``) when
    nothing is left."""
    kept = "".join(c for c in word.lower() if c in IDENTIFIER_CHARACTERS)
    return kept or STAND_INS[keyed_int(key, len(STAND_INS))]


def edges(word: str) -> tuple[str, str]:
    """What ``word`` opens and closes with before its first and after its last letter or digit (all of it opens a
    word without one)."""
    inside = [i for i, c in enumerate(word) if c.isalnum()]
    return (word[: inside[0]], word[inside[-1] + 1 :]) if inside else (word, "")


def identifier_word(word: str, following: str, key: str) -> str:
    """``word`` replaced by an identifier of the keyed shape built from it and ``following``, its punctuation kept."""
    a, b = component(word, key + "/part=a"), component(following, key + "/part=b")
    shapes = list(SHAPES.values())
    shape = shapes[keyed_int(key + "/shape", len(shapes))]
    opens, closes = edges(word)
    return opens + shape(a, b, keyed_int(key + "/number", NUMBERS)) + closes


def is_long(key: str, long_share: float) -> bool:
    """Whether the identifier keyed ``key`` is a long one: its own keyed draw below ``long_share`` (never at 0)."""
    return long_share > 0 and keyed_int(key + "/long", DRAWS) < long_share * DRAWS


def long_identifier_word(word: str, following: list[str], key: str) -> str:
    """``word`` replaced by an identifier of the keyed ``LONG_SHAPES`` shape built from it and the first 2 or 3 words
    of ``following`` (the words after it, 3 of them; the count keyed, ``LONG_COMPONENTS``), its punctuation kept."""
    count = LONG_COMPONENTS[keyed_int(key + "/long/count", len(LONG_COMPONENTS))]
    words = [word, *following[: count - 1]]
    parts = [component(w, f"{key}/long/part={k}") for k, w in enumerate(words)]
    shapes = list(LONG_SHAPES.values())
    shape = shapes[keyed_int(key + "/long/shape", len(shapes))]
    opens, closes = edges(word)
    return opens + shape(parts, keyed_int(key + "/long/number", NUMBERS)) + closes


def identifier_positions(count: int, key: str) -> list[int]:
    """The positions, of ``count`` words, that ``identifier_text`` replaces: those in the keyed share
    ``IDENTIFIER_WORD_SHARE``, or the one with the lowest draw when none is."""
    return share_positions(count, key, IDENTIFIER_WORD_SHARE)


def identifier_text(text: str, key: str, long_share: float = 0.0) -> str:
    """``text`` with the words at ``identifier_positions`` replaced by identifiers (``identifier_word``, built from
    the original words; ``long_share`` of them, by their own keyed draw, ``long_identifier_word``); the other words
    and the whitespace between words stay as they were."""
    check_long_identifier_share(long_share)
    pieces, places = word_pieces(text)
    words = [pieces[p] for p in places]
    for i in identifier_positions(len(words), key):
        word_key = f"{key}/word={i}"
        if is_long(word_key, long_share):
            following = [words[(i + k) % len(words)] for k in range(1, max(LONG_COMPONENTS))]
            pieces[places[i]] = long_identifier_word(words[i], following, word_key)
        else:
            pieces[places[i]] = identifier_word(words[i], words[(i + 1) % len(words)], word_key)
    return "".join(pieces)
