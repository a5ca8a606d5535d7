"""Curriculum promotion and a time budget: stop a stage when its validation score passes the bar, or time is up.

Every ``every_steps`` steps the policy is scored greedily on ``n_problems`` validation problems from index
``first_problem`` on (the ``score`` the run passes in: ``training.trainer.greedy_eval``, the same scoring as ``make
eval``); at ``bar`` or above the run stops and its final adapter is the promoted one. Each check is one line in
``promotion.jsonl`` of the run folder. The run's default ``first_problem`` (512, ``--promotion_first_problem``) keeps
the checks off the validation problems that ``make eval`` scores (the first 256): a run stopped where problems 0-63
first read the bar scored higher on the 256 that hold them than on test (batch 32's i1-fs: 0.995 on its check, 0.992
on validation, 0.973 on test).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from transformers import TrainerCallback


class StagePromotion(TrainerCallback):
    """Stops training when the validation score reaches ``bar`` (checked every ``every_steps`` steps).

    ``score(model, tokenizer, dtype, n_problems)``: the eval row (``model_cards.eval_results.EvalRow``) of the
    policy on the task's validation problems ``first_problem .. first_problem + n_problems - 1``.
    """

    summary_key = "promoted_at"  # the run summary's name for stopped_at

    def __init__(
        self,
        task: str,
        bar: float,
        every_steps: int,
        n_problems: int,
        path: str | Path,
        score,
        score_label: str = "score",
        report=print,
        first_problem: int = 0,
    ):
        self.task, self.bar, self.every_steps, self.n_problems = task, bar, every_steps, n_problems
        self.first_problem = first_problem
        self.score, self.score_label = score, score_label
        self.path = Path(path)
        self.report = report
        self.stopped_at: int | None = None

    def on_step_end(self, args, state, control, model=None, processing_class=None, **kwargs):
        if state.global_step % self.every_steps or model is None or processing_class is None:
            return
        import torch

        was_training = model.training
        model.eval()
        row = self.score(model, processing_class, torch.bfloat16 if args.bf16 else None, self.n_problems)
        model.train(was_training)
        score = row.score
        record = {
            "global_step": state.global_step,
            "timestamp": time.time(),
            "task": self.task,
            f"validation_{row.score_name}": score,
            "validation_exact_match": row.exact_match,
            "validation_problems": [self.first_problem, self.first_problem + row.n],  # from, to (not included)
            "bar": self.bar,
        }
        if state.is_world_process_zero:
            with open(self.path, "a", encoding="utf-8") as handle:
                handle.write(json.dumps(record) + "\n")
        passed = score >= self.bar
        self.report(
            f"validation at step {state.global_step}: {self.task} {self.score_label} {score:.3f}, exact "
            f"{row.exact_match:.0%} over {row.n} problems ({self.first_problem}-{self.first_problem + row.n - 1}; "
            f"bar {self.bar})" + ("; promoted: stopping the stage" if passed else "")
        )
        if passed:
            self.stopped_at = state.global_step
            control.should_training_stop = True
            control.should_save = True


class TimeBudget(TrainerCallback):
    """Stops training (saving first) once ``minutes`` of training have passed."""

    summary_key = "time_budget_stopped_at"

    def __init__(self, minutes: float, report=print, resume_hint: str = "RESUME=1 continues"):
        self.seconds = minutes * 60
        self.report = report
        self.resume_hint = resume_hint
        self.start: float | None = None
        self.stopped_at: int | None = None

    def on_train_begin(self, args, state, control, **kwargs):
        self.start = time.time()

    def on_step_end(self, args, state, control, **kwargs):
        if self.start is not None and time.time() - self.start >= self.seconds and self.stopped_at is None:
            self.stopped_at = state.global_step
            control.should_training_stop = True
            control.should_save = True
            self.report(
                f"time budget of {self.seconds / 60:g} min used up at step {state.global_step}: stopping "
                f"({self.resume_hint})"
            )
