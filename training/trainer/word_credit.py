"""Per-word credit: each completion token gets an advantage from the word it writes, not only from the whole text.

The strict reward is S / n, and S decomposes over the optimal Needleman-Wunsch alignment of the completion's words
with the target's (``metrics/needleman_wunsch``): +match for a matched word, mismatch for a wrong one, gap for an
extra one and for each target word left out. Charging each left-out target word to the completion word written in
its place (or to the end token, when the completion stops before the target ends) gives every completion word a
score, and those scores sum to S. Stopping is a decision too: the end token scores +match when no target word is
left out after the last completion word (without that, a correct stop scored 0, below the group's mean word score,
and per-word runs learnt never to stop: batch 2 in results/grpo/README.md). Each token's credit is its word's score
clamped to [gap, match]: one decision, one unit of credit. Unclamped, an end token that stopped d words early bore
-d on its own, and runs went through a phase of never stopping before they learnt the task (batches 3-4). A sequence
reward hands all tokens of a completion the same advantage, so the
tokens of its correct words are pushed down with its slips; here a token's advantage is its word's score minus the
group's mean word score, over the group's standard deviation (a group baseline as in GRPO, per word).
With ``cut_ends``, a word cut short (aligned with a target word that it begins: ``$30,0`` for ``$30,000``) also
charges its score to the token that ended it, the next word's first token or the end token. That token made the
mistake (it wrote `` fed`` where the target goes on with ``00``), yet it scores by the next word, which is often
right: without this, per-word credit rewards cutting a word short and charges the correct prefix instead (batch 32's
stage 1 learnt to cut ``,000`` to ``,0``, results/grpo/batch-32/README.md).
A task's ``credit_unit`` says what a word is here: ``"word"``, a whitespace word (interleave), or ``"char"``, each
non-space character, so that an arithmetic answer is credited digit by digit.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch

from metrics.needleman_wunsch.nw_alignment import nw_alignment
from metrics.needleman_wunsch.nw_kernels import DEFAULT_SCORING, Scoring

END = -1  # word index of tokens after the last word (the end token)
UNITS = ("word", "char")  # what one credit unit is: a whitespace word, or a non-space character


def char_units(unit: str) -> bool:
    """Whether ``unit`` ("word" or "char") scores each non-space character on its own; a ValueError for others."""
    if unit not in UNITS:
        raise ValueError(f"credit unit {unit!r}: expected one of {', '.join(UNITS)}")
    return unit == "char"


def word_scores(
    completion: str, target: str, scoring: Scoring = DEFAULT_SCORING, unit: str = "word"
) -> tuple[list[float], float]:
    """(score of each completion word, score of the end) from the optimal alignment: the words' scores plus the end's
    gaps sum to S; the end scores +match instead when nothing is left out at the end. With ``unit="char"`` each
    non-space character is a word."""
    scores, end, _ = scored_words(completion, target, scoring, unit)
    return scores, end


def scored_words(
    completion: str, target: str, scoring: Scoring = DEFAULT_SCORING, unit: str = "word"
) -> tuple[list[float], float, list[bool]]:
    """``word_scores``, and for each completion word whether it was cut short: aligned with a longer target word
    that begins with it (``$30,0`` for ``$30,000``)."""
    if char_units(unit):
        completion, target = ([c for c in text if not c.isspace()] for text in (completion, target))
    alignment = nw_alignment(completion, target, scoring=scoring)
    scores: list[float] = []
    cut: list[bool] = []
    pending = 0.0  # target words left out since the last completion word: charged to the next one
    for pair in alignment.pairs:
        if pair.op == "delete":
            pending += scoring.gap
            continue
        value = {"match": scoring.match, "substitute": scoring.mismatch, "insert": scoring.gap}[pair.op]
        scores.append(value + pending)
        cut.append(pair.op == "substitute" and pair.reference.startswith(pair.prediction))
        pending = 0.0
    return scores, pending if pending else scoring.match, cut


class TokenWords:
    """Maps completion token ids to the index of the word (or character) each token writes (``END`` after the last)."""

    def __init__(self, tokenizer):
        vocab = len(tokenizer)
        texts = tokenizer.batch_decode(
            [[i] for i in range(vocab)], skip_special_tokens=False, clean_up_tokenization_spaces=False
        )
        special = set(tokenizer.all_special_ids)
        self.texts = ["" if i in special else t for i, t in enumerate(texts)]

    def text(self, token_ids: Sequence[int]) -> str:
        """The text the tokens spell (special tokens left out)."""
        return "".join(self.texts[t] if 0 <= t < len(self.texts) else "" for t in token_ids)

    def word_index(self, token_ids: Sequence[int], unit: str = "word") -> list[int]:
        """For each token: the index of the word its first non-space character belongs to; a token of only spaces
        belongs to the next word, and tokens after the last word (end token, padding) get ``END``. With
        ``unit="char"`` each non-space character is a word of its own."""
        each_char = char_units(unit)
        indices, word, in_word = [], -1, False
        for token in token_ids:
            text = self.texts[token] if 0 <= token < len(self.texts) else ""
            first = None
            for char in text:
                if char.isspace():
                    in_word = False
                elif not in_word or each_char:
                    in_word, word = True, word + 1
                    first = word if first is None else first
                elif first is None:
                    first = word
            indices.append(first if first is not None else (word + 1 if text else END))
        last = word  # a trailing space-only token has no word after it
        return [i if i != END and i <= last else END for i in indices]


def clamped(score: float, scoring: Scoring = DEFAULT_SCORING) -> float:
    """A word's score as one token bears it: within [gap or mismatch, match], one decision's unit of credit."""
    return float(min(scoring.match, max(min(scoring.gap, scoring.mismatch), score)))


def token_scores(
    token_ids: Sequence[int],
    target: str,
    token_words: TokenWords,
    scoring: Scoring = DEFAULT_SCORING,
    unit: str = "word",
    cut_ends: bool = False,
) -> list[float]:
    """Each token's word score (the end's score for the tokens after the last word), per ``word_scores`` of the
    text the tokens spell, clamped to [gap, match]. ``cut_ends``: the token right after a word cut short bears the
    lower of its own score and that word's."""
    scores, end, cut = scored_words(token_words.text(token_ids), target, scoring, unit)
    words = token_words.word_index(token_ids, unit)
    out = [clamped(scores[i] if i != END else end, scoring) for i in words]
    if cut_ends:
        for position in range(len(words) - 1):
            word = words[position]
            if word != END and cut[word] and words[position + 1] != word:
                out[position + 1] = min(out[position + 1], out[position])
    return out


def uniform_credit_groups(
    completions: Sequence[str],
    targets: Sequence[str],
    group_size: int,
    scoring: Scoring = DEFAULT_SCORING,
    unit: str = "word",
) -> list[int]:
    """Indices of the groups whose words (and ends) all score alike, clamped as tokens are: per-word credit gives
    every token of such a group zero advantage (all exact, say). A group that repeats one slip is not among them: its
    equal rewards give GRPO's sequence advantage nothing, yet its slipped word scores below its other words."""
    uniform = []
    for g, start in enumerate(range(0, len(completions), group_size)):
        values = set()
        for completion, target in zip(
            completions[start : start + group_size], targets[start : start + group_size], strict=True
        ):
            scores, end = word_scores(completion, target, scoring, unit)
            values.update(clamped(v, scoring) for v in [*scores, end])
        if len(values) <= 1:
            uniform.append(g)
    return uniform


def word_credit_advantages(
    token_ids: torch.Tensor,
    mask: torch.Tensor,
    targets: Sequence[str],
    group_size: int,
    token_words: TokenWords,
    eps: float = 1e-4,
    unit: str = "word",
    cut_ends: bool = False,
) -> torch.Tensor:
    """(B, T) advantages: each token's word score minus its group's mean over every word, over the group's std
    (``cut_ends``: see ``token_scores``)."""
    rows = token_ids.tolist()
    lengths = mask.sum(dim=1).tolist()
    out = torch.zeros(token_ids.shape, dtype=torch.float32)
    for start in range(0, len(rows), group_size):
        group = range(start, min(start + group_size, len(rows)))
        per_row = {
            i: token_scores(rows[i][: int(lengths[i])], targets[i], token_words, unit=unit, cut_ends=cut_ends)
            for i in group
        }
        values = torch.tensor([v for i in group for v in per_row[i]] or [0.0])
        mean, std = values.mean(), values.std(unbiased=False)
        for i in group:
            if per_row[i]:
                out[i, : len(per_row[i])] = (torch.tensor(per_row[i]) - mean) / (std + eps)
    return out.to(token_ids.device)
