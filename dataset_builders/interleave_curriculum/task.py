"""The interleave task: problems of one fragment length, its rewards, NW scoring and its completion budget."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from functools import cached_property

import datasets

from dataset_builders.completion_budget import completion_budget
from dataset_builders.corpus.passages import ALL_SPLITS
from dataset_builders.interleave_curriculum.builder import config_name_for
from dataset_builders.interleave_curriculum.continuation import continuation_row
from dataset_builders.interleave_curriculum.doubles import check_doubled_fraction
from dataset_builders.interleave_curriculum.identifiers import check_identifier_fraction, check_long_identifier_share
from dataset_builders.interleave_curriculum.mix import check_register_weights
from dataset_builders.interleave_curriculum.problems import InterleaveProblems
from dataset_builders.interleave_curriculum.problems import problem_id as problem_id_of
from dataset_builders.interleave_curriculum.repeats import check_repeated_fraction
from dataset_builders.interleave_curriculum.rewards import INTERLEAVE_REWARD_WEIGHTS, INTERLEAVE_REWARDS
from dataset_builders.interleave_curriculum.scramble import check_scrambled_fraction
from dataset_builders.interleave_curriculum.stages import STAGE_WORDS
from dataset_builders.interleave_curriculum.streaming import STREAM_SIZE, curriculum_dataset, curriculum_stream
from dataset_builders.prompts import chat_prompt_ids
from dataset_builders.task import RESAMPLE_START, Task, taking_turns

DATASET_FOLDER = "interleave-curriculum"  # the published dataset (publishing.dataset_folders writes it)
# Train problems whose targets the budget measures: 4 cycles of the register mix's 25 register pairs, so the
# costliest pair (two texts of numbers, ~1.9 tokens a word against ~1.4 for prose) is among them.
BUDGET_SAMPLE = 100
_TARGET_TOKENS: dict[tuple, list[int]] = {}  # InterleaveTask._sample_key -> target lengths of the budget sample
_PROMPT_TOKENS: dict[tuple, int] = {}  # InterleaveTask._sample_key -> the widest prompt of the budget sample
WINDOWS_AND_LENGTHS = "continuation windows and train lengths do not combine: give one of them"


class InterleaveTask(Task):
    """Interleave two fragments of ``n_words`` words, word by word (a curriculum stage, or any length)."""

    reference_column = "target"
    score_name = "nw_score"
    score_label = "NW"
    description = "Interleaving two texts"
    dataset_folder = DATASET_FOLDER
    held_out_splits = tuple(split for split in ALL_SPLITS if split != "train")  # out_of_register too
    train_words: tuple[int, ...] = ()  # with_train_words: the lengths train problems take turns over (empty: words)
    register_weights: dict[str, int] | None = None  # with_register_weights: the train split's mix (None: the fixed mix)
    scrambled_fraction: float = 0.0  # with_scrambled_fraction: the share of train problems with shuffled texts
    identifier_fraction: float = 0.0  # with_identifier_fraction: the share of train problems with identifiers
    long_identifier_share: float = 0.0  # with_long_identifier_share: the share of those identifiers that are long
    doubled_fraction: float = 0.0  # with_doubled_fraction: the share of train problems with doubled target words
    repeated_fraction: float = 0.0  # with_repeated_fraction: the share of train problems with a repeated phrase
    continuation_words: int = 0  # with_continuation: train problems continue the target, scored on this many words
    continuation_cuts: dict[str, int] | None = None  # with_continuation: {train problem id: cut} (else a random cut)
    continuation_slips_only: bool = False  # with_continuation: train only on the problems the cuts name, in turn
    # how the train problems are drawn: the settings above of these names, which InterleaveProblems, curriculum_stream,
    # curriculum_dataset and this class take as keyword arguments of the same names (_draw)
    TRAIN_DRAW = (
        "register_weights",
        "scrambled_fraction",
        "identifier_fraction",
        "long_identifier_share",
        "doubled_fraction",
        "repeated_fraction",
    )

    def __init__(
        self,
        name: str,
        n_words: int,
        seed: int = 0,
        register_weights: dict[str, int] | None = None,
        scrambled_fraction: float = 0.0,
        identifier_fraction: float = 0.0,
        long_identifier_share: float = 0.0,
        doubled_fraction: float = 0.0,
        repeated_fraction: float = 0.0,
    ):
        super().__init__(seed)
        self.name, self.words, self.register_weights = name, n_words, register_weights
        self.scrambled_fraction, self.identifier_fraction = scrambled_fraction, identifier_fraction
        self.long_identifier_share, self.doubled_fraction = long_identifier_share, doubled_fraction
        self.repeated_fraction = repeated_fraction
        self.curriculum_stage = next((s for s, w in STAGE_WORDS.items() if w == n_words), None)
        before = self.curriculum_stage - 1 if self.curriculum_stage else 0
        self.previous = f"stage-{before}" if before in STAGE_WORDS else None
        self.dataset_config = config_name_for(n_words)
        self.dataset_title = f"Interleave curriculum {self.dataset_config}"
        self.order = (0, n_words)
        self.reward_funcs, self.reward_weights = INTERLEAVE_REWARDS, INTERLEAVE_REWARD_WEIGHTS

    @cached_property
    def _train_problems(self) -> InterleaveProblems:
        from dataset_builders.corpus import load_corpus

        return InterleaveProblems(load_corpus(), "train", self.words, self.seed, **self._draw())

    def _draw(self) -> dict:
        """This task's settings of how its train problems are drawn (``TRAIN_DRAW``), by name."""
        return {name: getattr(self, name) for name in self.TRAIN_DRAW}

    def stream(self, start_index: int) -> datasets.IterableDataset:
        return curriculum_stream(n_words=self.words, seed=self.seed, start_index=start_index, **self._draw())

    def with_train_words(self, words: Sequence[int]) -> InterleaveTask:
        """A copy whose train problems, and dynamic sampling's, take turns over ``words`` words per text (every batch
        mixes lengths: shorter ones replay earlier stages). Validation, test, scoring, the name and the previous
        stage stay this task's; the completion budget covers the longest length."""
        if self.continuation_words:
            raise ValueError(WINDOWS_AND_LENGTHS)
        task = copy.copy(self)
        task.train_words = tuple(sorted(set(words)))
        return task

    def with_register_weights(self, weights: dict[str, int]) -> InterleaveTask:
        """A copy whose train problems (every length) draw their texts' registers with ``weights`` over
        ``mix.REGISTER_WEIGHTS``; validation, test and out_of_register keep the fixed mix, so scores stay comparable.
        A weight of a register the corpus has no train text of is an error: it would change nothing."""
        from dataset_builders.corpus import load_corpus

        check_register_weights(weights)
        corpus = load_corpus()
        missing = sorted(set(weights) - {passage.register for passage in corpus.split("train")})
        if missing:
            held_out = ", ".join(corpus.held_out_registers) or "none"
            raise ValueError(
                f"register weights name {', '.join(missing)}, which the corpus has no train text of (registers held "
                f"out of train: {held_out}): weight the training registers"
            )
        return self._redrawn(register_weights=dict(weights))

    def with_scrambled_fraction(self, fraction: float) -> InterleaveTask:
        """A copy whose train problems (every length, dynamic sampling's too) have, ``fraction`` of them, each
        text's words shuffled (``scramble.py``), so a word can only be copied, not guessed; validation, test and
        out_of_register keep their texts in order, so scores stay comparable."""
        check_scrambled_fraction(fraction)
        return self._redrawn(scrambled_fraction=float(fraction))

    def with_identifier_fraction(self, fraction: float) -> InterleaveTask:
        """A copy whose train problems (every length, dynamic sampling's too) have, ``fraction`` of them, some words
        of each text replaced by synthetic identifiers built from the text's own words (``identifiers.py``), so the
        model practises copying code-like strings; validation, test and out_of_register keep their texts as written,
        so scores stay comparable."""
        check_identifier_fraction(fraction)
        return self._redrawn(identifier_fraction=float(fraction))

    def with_long_identifier_share(self, share: float) -> InterleaveTask:
        """A copy whose train problems' identifiers (``with_identifier_fraction``; none without it) are, ``share`` of
        them, long ones of 3 or 4 components built from the replaced word and the words after it
        (``identifiers.LONG_SHAPES``: ``a.b.c.Dd()``, ``AAA_404_BBB``, ...); validation, test and out_of_register keep
        their texts as written."""
        check_long_identifier_share(share)
        return self._redrawn(long_identifier_share=float(share))

    def with_doubled_fraction(self, fraction: float) -> InterleaveTask:
        """A copy whose train problems (every length, dynamic sampling's too) have, ``fraction`` of them, words of
        their texts copied so that the target holds two identical adjacent words (``doubles.py``: ``... the the ...``,
        where the stage-1 adapter writes the word once); validation, test and out_of_register keep their texts as
        written, so scores stay comparable."""
        check_doubled_fraction(fraction)
        return self._redrawn(doubled_fraction=float(fraction))

    def with_repeated_fraction(self, fraction: float) -> InterleaveTask:
        """A copy whose train problems (every length, dynamic sampling's too) have, ``fraction`` of them, a phrase of
        their texts copied over other words of both (``repeats.py``), so that it repeats within a text and across the
        two and the model must keep its place by position, not by the words before it (where the stage-6 adapter
        derails out of register); validation, test and out_of_register keep their texts as written, so scores stay
        comparable."""
        check_repeated_fraction(fraction)
        return self._redrawn(repeated_fraction=float(fraction))

    def with_continuation(
        self, words: int, cuts: dict[str, int] | None = None, slips_only: bool = False
    ) -> InterleaveTask:
        """A copy whose train problems (dynamic sampling's too) are continuation problems (``continuation.py``): the
        start of the correct answer given, the next ``words`` words sampled and scored. ``cuts`` ({problem id: cut},
        ``continuation.slip_cuts``) places the cut of the problems it lists; the others keep a random cut.
        ``slips_only`` trains on the listed problems alone, in index order and over again (``slip_indices``): a
        window that starts from an answer the adapter already gets right mostly leaves its group without reward
        variance (batch 28: 54% of groups with slips and random cuts mixed, 80% with random cuts alone).
        Validation, test and out_of_register stay whole problems, so scores stay comparable; the completion budget
        follows the window."""
        if isinstance(words, bool) or not isinstance(words, int) or words < 1:
            raise ValueError(f"a continuation window is a whole number of words, at least 1, got {words!r}")
        if self.train_words:
            raise ValueError(WINDOWS_AND_LENGTHS)
        task = self._with_window(words)
        task.continuation_cuts = dict(cuts) if cuts else None
        task.continuation_slips_only = bool(slips_only)
        if slips_only:
            task.slip_indices()  # no cut, or cuts of other problems: an error now
        return task

    def slip_indices(self) -> list[int]:
        """The train indices of the problems ``continuation_cuts`` names, in order. A ValueError where it names none,
        or names a problem that is not one of this task's train problems (another length or problem seed)."""
        cuts = self.continuation_cuts or {}
        if not cuts:
            raise ValueError(
                "continuation windows at slips only need cuts that name a slipped train problem: give "
                "--continuation_cuts the evaluation of an adapter that slipped on some"
            )
        indices = []
        for problem_id in cuts:
            number = problem_id.rpartition("-")[2]
            if not number.isdigit() or problem_id != problem_id_of(self.words, "train", self.seed, int(number)):
                raise ValueError(
                    f"continuation cuts name {problem_id}, not a train problem of {self.name} at problem seed "
                    f"{self.seed} (ids like {problem_id_of(self.words, 'train', self.seed, 0)})"
                )
            indices.append(int(number))
        return sorted(indices)

    def _slipped_rows(self, position: int) -> Iterator[dict]:
        """The slipped problems' continuations from ``position`` on: position ``i`` is ``slip_indices()[i % n]``."""
        indices = self.slip_indices()
        for i in range(position, position + STREAM_SIZE):
            yield self._continued(self._train_problems[indices[i % len(indices)]])

    def _with_window(self, words: int) -> InterleaveTask:
        """A copy with ``continuation_words`` set (0: whole problems); the train problems it cuts are the same, so it
        keeps this task's."""
        task = copy.copy(self)
        task.continuation_words = words
        return task

    def _continued(self, row: dict) -> dict:
        if not self.continuation_words:
            return row
        cut = self.continuation_cuts.get(row["id"]) if self.continuation_cuts else None
        return continuation_row(row, self.continuation_words, self.seed, cut)

    def _redrawn(self, **draw) -> InterleaveTask:
        """A copy with other settings of how its train problems are drawn (``TRAIN_DRAW``); the copy draws its own
        train problems."""
        task = copy.copy(self)
        for name, value in draw.items():
            setattr(task, name, value)
        task.__dict__.pop("_train_problems", None)
        return task

    def _length_tasks(self) -> list[InterleaveTask]:
        return [InterleaveTask(f"words-{n}", n, self.seed, **self._draw()) for n in self.train_words]

    def train_stream(self, start_index: int = 0) -> datasets.IterableDataset:
        if self.continuation_slips_only:
            return datasets.IterableDataset.from_generator(self._slipped_rows, gen_kwargs={"position": start_index})
        if self.continuation_words:
            return self.stream(start_index).map(self._continued)
        if not self.train_words:
            return self.stream(start_index)
        return taking_turns([task.stream for task in self._length_tasks()], start_index)

    def resample_problems(self, position: int = 0):
        if self.continuation_slips_only:  # the same problems, starting half a turn into them (the two then drift)
            return self._slipped_rows(len(self.slip_indices()) // 2 + position)
        if self.continuation_words:
            return map(self._continued, super().resample_problems(position))
        if not self.train_words:
            return super().resample_problems(position)
        return iter(taking_turns([task.stream for task in self._length_tasks()], position, offset=RESAMPLE_START))

    def problems(self, split: str, size: int | None = None) -> datasets.Dataset:
        return curriculum_dataset(split, n_words=self.words, seed=self.seed, size=size, **self._draw())

    def problem(self, split: str, index: int) -> dict:
        if split == "train":
            return self._continued(self._train_problems[index])
        from dataset_builders.corpus import load_corpus

        return InterleaveProblems(load_corpus(), split, self.words, self.seed)[index]

    def stream_lengths(self, row: dict) -> tuple[int, int]:
        """The words of Text A and of Text B: the target alternates between them while both last."""
        return len(row["text_a"].split()), len(row["text_b"].split())

    def _sample_key(self, tokenizer) -> tuple:
        """What the budget sample's token counts depend on: the tokenizer and this task's train problems."""
        weights = tuple(sorted(self.register_weights.items())) if self.register_weights else None
        draw = {**self._draw(), "register_weights": weights}  # hashable, in TRAIN_DRAW's order
        problems = (self.words, self.seed, *draw.values(), self.continuation_words)
        return getattr(tokenizer, "name_or_path", None), len(tokenizer), *problems

    def train_target_tokens(self, tokenizer) -> list[int]:
        """Token lengths of the targets of the first ``BUDGET_SAMPLE`` train problems (measured once per tokenizer)."""
        key = self._sample_key(tokenizer)
        if key not in _TARGET_TOKENS:
            targets = [self.problem("train", i)["target"] for i in range(BUDGET_SAMPLE)]
            _TARGET_TOKENS[key] = [len(ids) for ids in tokenizer(targets, add_special_tokens=False)["input_ids"]]
        return _TARGET_TOKENS[key]

    def train_prompt_tokens(self, tokenizer) -> int:
        """The widest chat-templated prompt of the first ``BUDGET_SAMPLE`` train problems, at the longest length this
        task trains on (the register mix's densest pairs are among them)."""
        if self.train_words:
            return max(task.train_prompt_tokens(tokenizer) for task in self._length_tasks())
        key = self._sample_key(tokenizer)
        if key not in _PROMPT_TOKENS:
            prompts = [self.problem("train", i)["prompt"] for i in range(BUDGET_SAMPLE)]
            _PROMPT_TOKENS[key] = max(len(chat_prompt_ids(tokenizer, p)) for p in prompts)
        return _PROMPT_TOKENS[key]

    def expected_tokens(self, tokenizer) -> float:
        """The mean token length of train targets of this length, over the register mix."""
        lengths = self.train_target_tokens(tokenizer)
        return sum(lengths) / len(lengths)

    def completion_budget(self, tokenizer, references: Sequence[str] = ()) -> int:
        """The one budget formula, at least the longest train target of the sample and of ``references``: the mean
        alone, even x 1.3, left out pairs of the register mix's densest texts (issue 18's numbers). A continuation
        task's train budget is its window's; given ``references`` (whole problems: promotion checks), the whole
        problems' budget."""
        if self.continuation_words and references:
            return self._with_window(0).completion_budget(tokenizer, references)
        longest = max((len(tokenizer(r, add_special_tokens=False)["input_ids"]) for r in references), default=0)
        own = completion_budget(self.expected_tokens(tokenizer), max(longest, *self.train_target_tokens(tokenizer)))
        return max([own, *(task.completion_budget(tokenizer) for task in self._length_tasks())])

    def _scores(self, completions: Sequence[str], references: Sequence[str]) -> list[tuple[float, bool]]:
        from metrics.needleman_wunsch.nw_alignment import nw_scores

        scores = nw_scores(list(completions), list(references))
        return [(score, c.split() == r.split()) for score, c, r in zip(scores, completions, references, strict=True)]
