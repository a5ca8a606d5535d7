"""Arithmetic answer extraction and scores: the one implementation the reward and evaluation share.

``extract_answer`` reads the integer a completion gives (``5,535``, ``5 535``, ``5535.``, ``The answer is
5535``, ``123 * 45 = 5535``, ``\u22125535``); ``partial_credit`` mixes closeness in digits and relative error.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass

_MINUS_SIGNS = dict.fromkeys(map(ord, "\u2212\u2012\u2013\u2014\ufe63\uff0d"), "-")
_GROUP_SPACES = "\u00a0\u2009\u202f\u2007 "  # no-break, thin, narrow no-break, figure space, space
NUMBER = re.compile(
    r"(?<![\w.])(?P<sign>-)?"
    rf"(?P<int>\d{{1,3}}(?:,\d{{3}})+|\d{{1,3}}(?:[{_GROUP_SPACES}]\d{{3}})+|\d+)"
    r"(?P<frac>\.\d+)?(?![\d])"
)
DIGITS_ONLY = re.compile(r"-?\d+")


def extract_answer(text: str) -> int | None:
    """The integer a completion answers: after the last ``=`` the first number, else the last number.

    Thousands separators (commas, spaces), a trailing period, surrounding words and unicode minus signs
    are understood; a non-integer (``12.5``) or no number at all gives ``None``.
    """
    if not text:
        return None
    text = text.translate(_MINUS_SIGNS)
    if "=" in text:
        after = text.rsplit("=", 1)[1]
        matches = list(NUMBER.finditer(after))[:1] or list(NUMBER.finditer(text))[-1:]
    else:
        matches = list(NUMBER.finditer(text))[-1:]
    if not matches:
        return None
    match = matches[0]
    if match["frac"] and set(match["frac"][1:]) != {"0"}:
        return None
    value = int(re.sub(r"\D", "", match["int"]))
    return -value if match["sign"] else value


def is_digits_only(text: str) -> bool:
    """Whether a completion is just the number, as the prompt asks (surrounding whitespace allowed)."""
    return bool(DIGITS_ONLY.fullmatch(text.strip()))


def digit_closeness(predicted: int, answer: int) -> float:
    """Share of place-value digit positions that match (right-aligned, over the longer number); 0 if signs differ."""
    if (predicted < 0) != (answer < 0):
        return 0.0
    p, a = str(abs(predicted)), str(abs(answer))
    width = max(len(p), len(a))
    p, a = p.rjust(width, " "), a.rjust(width, " ")
    return sum(x == y for x, y in zip(p, a)) / width


def relative_closeness(predicted: int, answer: int) -> float:
    """``1 - |predicted - answer| / |answer|``, floored at 0 (``answer`` 0 counts as 1)."""
    return max(0.0, 1.0 - abs(predicted - answer) / max(abs(answer), 1))


def partial_credit(predicted: int | None, answer: int) -> float:
    """1 for the exact answer, else the mean of digit and relative closeness (always < 1); 0 for no answer."""
    if predicted is None:
        return 0.0
    if predicted == answer:
        return 1.0
    return 0.5 * (digit_closeness(predicted, answer) + relative_closeness(predicted, answer))


@dataclass(frozen=True)
class ArithmeticScore:
    """Every score of one completion, for evaluation tables."""

    extracted: int | None
    exact: float
    digits: float
    relative: float
    partial: float
    digits_only: float

    def to_dict(self) -> dict:
        return asdict(self)


def score_completion(text: str, answer: int) -> ArithmeticScore:
    """Extract the answer of ``text`` and score it against ``answer``."""
    predicted = extract_answer(text)
    answer = int(answer)
    found = predicted is not None
    return ArithmeticScore(
        extracted=predicted,
        exact=float(predicted == answer),
        digits=digit_closeness(predicted, answer) if found else 0.0,
        relative=relative_closeness(predicted, answer) if found else 0.0,
        partial=partial_credit(predicted, answer),
        digits_only=float(is_digits_only(text)),
    )
