"""The evaluation file ``runs/eval/<name>/eval.json``: what `make eval` writes and the model cards read.

One definition for both sides::

    {"model": "<base model id or path>", "adapter": "<adapter path or null>", "generated_at": "<iso time>",
     "device": "<gpu/cpu name>", "decoding": "greedy",
     "rows": [{"task": "stage-1", "words": 10, "split": "test", "n": 256, "nw_score": 0.83,
               "exact_match": 0.69, "label": "trained"}, ...],
     "data": {"source": "my-texts/", "kind": "folder", ...}}

``task`` is a task name of ``dataset_builders.tasks`` (``stage-1`` ... ``stage-6``, ``arithmetic``); ``label`` is
``baseline`` or ``trained``; ``split`` is ``test`` (the in-register held-out texts), ``out_of_register`` (texts of
the registers held out of training), ``out_of_register_validation`` (other documents of those registers, to choose
recipes on), ``validation``, or ``data`` (problems made from the user's texts, which ``data`` describes; absent
otherwise). Each row holds its task's main score (``Task.score_name``): curriculum rows
an ``nw_score``, arithmetic rows ``nw_score: null`` and a ``partial_credit``. Files written before
``out_of_register`` and ``data`` existed load as they are.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path

from dataset_builders import tasks

LABELS = ("baseline", "trained")
SPLITS = ("train", "validation", "test", "out_of_register", "out_of_register_validation", "data")
CARD_SPLITS = ("test", "out_of_register")  # the splits of the published dataset that model cards report
EVAL_FILE = "eval.json"


class EvalResultsError(ValueError):
    """An eval file that does not follow the schema; the message names the file and the field."""


@dataclass(frozen=True)
class EvalRow:
    """The scores of one model (baseline or trained) on one task and split."""

    task: str
    words: int | None  # words per text (curriculum); None for arithmetic
    split: str
    n: int
    nw_score: float | None  # None for arithmetic
    exact_match: float
    label: str
    partial_credit: float | None = None  # arithmetic only

    @property
    def score(self) -> float | None:
        """The task's main score: the NW score, or for arithmetic (no NW score) the partial credit."""
        return self.nw_score if self.nw_score is not None else self.partial_credit

    @property
    def score_name(self) -> str:
        """The field ``score`` reads."""
        return "nw_score" if self.nw_score is not None else "partial_credit"

    def __post_init__(self):
        problems = []
        try:
            task = tasks.get(self.task)
        except tasks.UnknownTask as exc:
            problems.append(str(exc))
            task = None
        if self.label not in LABELS:
            problems.append(f"label {self.label!r} is not one of {', '.join(LABELS)}")
        if self.words is not None and (
            not isinstance(self.words, int) or isinstance(self.words, bool) or self.words < 0
        ):
            problems.append(f"words must be a non-negative integer or null, got {self.words!r}")
        if self.split not in SPLITS:
            problems.append(f"split {self.split!r} is not one of {', '.join(SPLITS)}")
        if not isinstance(self.n, int) or isinstance(self.n, bool) or self.n < 1:
            problems.append(f"n must be a positive integer, got {self.n!r}")
        if task is not None and task.score_required and getattr(self, task.score_name) is None:
            problems.append(f"{task.score_name} is needed for {self.task}")
        for name in ("nw_score", "exact_match", "partial_credit"):
            value = getattr(self, name)
            if value is None and name != "exact_match":
                continue
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or not 0.0 <= value <= 1.0
                or math.isnan(value)
            ):
                problems.append(f"{name} must be a number in [0, 1], got {value!r}")
        if problems:
            raise EvalResultsError("; ".join(problems))


@dataclass
class EvalResults:
    """One evaluation run: a model (and adapter) scored with greedy decoding on some tasks."""

    model: str
    adapter: str | None
    generated_at: str
    device: str
    decoding: str = "greedy"
    rows: list[EvalRow] = field(default_factory=list)
    data: dict | None = None  # the user's texts the ``data`` rows were made from (make eval DATA=...)

    def to_json(self) -> str:
        fields = asdict(self)
        if fields["data"] is None:
            del fields["data"]
        return json.dumps(fields, indent=1) + "\n"

    @classmethod
    def from_json(cls, text: str, source: str = "eval file") -> EvalResults:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise EvalResultsError(f"{source} is not JSON: {exc}") from None
        if not isinstance(data, dict):
            raise EvalResultsError(f"{source} must hold a JSON object")
        missing = [k for k in ("model", "adapter", "generated_at", "device", "rows") if k not in data]
        if missing:
            raise EvalResultsError(f"{source} lacks {', '.join(missing)}")
        rows = []
        for i, row in enumerate(data["rows"]):
            try:
                rows.append(EvalRow(**row))
            except (TypeError, EvalResultsError) as exc:
                raise EvalResultsError(f"{source}, rows[{i}]: {exc}") from None
        if data.get("data") is not None and not isinstance(data["data"], dict):
            raise EvalResultsError(f"{source}: data must be an object describing the user's texts")
        return cls(
            model=data["model"],
            adapter=data["adapter"],
            generated_at=data["generated_at"],
            device=data["device"],
            decoding=data.get("decoding", "greedy"),
            rows=rows,
            data=data.get("data"),
        )

    @classmethod
    def load(cls, path: str | Path) -> EvalResults:
        path = Path(path)
        try:
            return cls.from_json(path.read_text(encoding="utf-8"), source=str(path))
        except OSError as exc:
            raise EvalResultsError(f"cannot read {path}: {exc.strerror}") from None

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.to_json(), encoding="utf-8")
        return path

    def rows_for(self, label: str, split: str = "test") -> list[EvalRow]:
        """The rows of one label and split, in task order."""
        return sorted(
            (r for r in self.rows if r.label == label and r.split == split), key=lambda r: tasks.sort_key(r.task)
        )

    @property
    def splits(self) -> list[str]:
        """The splits the rows hold, in the order of ``SPLITS`` (test before out_of_register)."""
        present = {r.split for r in self.rows}
        return [split for split in SPLITS if split in present]


def _adapter_is(adapter: str | None, run: str, final_adapter: str | None) -> bool:
    if not adapter:
        return False
    if final_adapter and Path(adapter).resolve() == Path(final_adapter).resolve():
        return True
    return Path(adapter).parts[-2:] == (run, "final")


def find_run_eval(eval_root: str | Path, run: str, final_adapter: str | None = None) -> Path | None:
    """The newest eval file under ``eval_root/*/`` whose adapter is run ``run``'s final adapter, or None.

    An adapter matches when it is ``final_adapter`` or any path ending in ``<run>/final`` (runs are often
    trained on one machine and evaluated on another).
    """
    found = []
    for path in sorted(Path(eval_root).glob(f"*/{EVAL_FILE}")):
        results = EvalResults.load(path)
        if _adapter_is(results.adapter, run, final_adapter) and results.rows_for("trained"):
            found.append((results.generated_at, str(path)))
    return Path(max(found)[1]) if found else None
