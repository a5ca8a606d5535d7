"""``make warm-start``: a supervised warm start of the LoRA adapter on generated interleaves (TRL's SFTTrainer).

The base SmolLM2 gets no GRPO signal at stage 1: it never writes an interleave, so every group of
completions scores the same (results/pipeline-gpu). A short supervised run on (prompt, target
interleave) pairs from the train split, with texts of a range of lengths, teaches the format; GRPO then
starts from that adapter: ``make train-stage N=1 INIT_ADAPTER=runs/warm-start/final``.

    python -m training.cli.warm_start --config training/recipes/sft-every-length.yaml [--words 4-25] [--max_steps N] ...
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from base_models.models import ModelUnavailable
from dataset_builders.fetch import FetchError
from publishing.hub import HubError
from training.core.arguments import (
    DOUBLED_FRACTION_HELP,
    FRACTION_FLAGS,
    IDENTIFIER_FRACTION_HELP,
    LONG_IDENTIFIER_SHARE_HELP,
    REGISTER_WEIGHTS_HELP,
    REPEATED_FRACTION_HELP,
    SCRAMBLED_FRACTION_HELP,
    RecipeError,
    parse_fraction,
    parse_long_identifier_share,
)
from training.core.cuda_memory import allow_expandable_segments
from training.core.gpu_visibility import one_gpu_per_process
from training.core.quiet_warnings import silence_library_deprecations
from training.core.run_flags import check_weight_average_decay, parse_profile_steps

logger = logging.getLogger(__name__)


@dataclass
class WarmStartArguments:
    """What the supervised warm start trains on (the rest is TRL's SFTConfig and ModelConfig).

    ``named`` (set by ``parse_recipe``): the arguments the recipe or the command line set.
    """

    named = frozenset()  # not a field: what parse_recipe saw the user set

    model_preset: str | None = field(default=None, metadata={"help": "a preset of training/recipes/models/"})
    task: str = field(
        default="interleave",
        metadata={
            "help": "interleave (target interleaves of --words words per text) or a task name (stage-3, arithmetic-3x2)"
        },
    )
    words: str = field(
        default="4-25",
        metadata={
            "help": "words per text of the interleave task: counts and ranges, e.g. 4-25 or 4,6,8,10,25,50,100,500 "
            "(each count equally often)"
        },
    )
    register_weights: str | None = field(default=None, metadata={"help": REGISTER_WEIGHTS_HELP})
    # strings, as RunArguments': --scrambled_fraction x is a RecipeError
    scrambled_fraction: str | None = field(default=None, metadata={"help": SCRAMBLED_FRACTION_HELP})
    identifier_fraction: str | None = field(default=None, metadata={"help": IDENTIFIER_FRACTION_HELP})
    long_identifier_share: str | None = field(default=None, metadata={"help": LONG_IDENTIFIER_SHARE_HELP})
    doubled_fraction: str | None = field(default=None, metadata={"help": DOUBLED_FRACTION_HELP})
    repeated_fraction: str | None = field(default=None, metadata={"help": REPEATED_FRACTION_HELP})
    problems: int | None = field(
        default=None,
        metadata={
            "help": "training problems to draw (default max_steps x batch; with packing a row holds several problems)"
        },
    )
    init_adapter: str | None = field(
        default=None,
        metadata={
            "help": "continue training this LoRA adapter folder (e.g. an earlier warm start); unset or 'base': a fresh "
            "one"
        },
    )
    max_train_minutes: float | None = field(
        default=None, metadata={"help": "stop (saving the adapter) after this many minutes of training"}
    )
    problem_seed: int = field(default=0, metadata={"help": "seed of the training problems (problem i = f(seed, i))"})
    weight_average_decay: float = field(
        default=0.0,
        metadata={
            "help": "hand on an exponential moving average of the trained weights (as GRPO's --weight_average_decay): "
            "decay per optimizer step, e.g. 0.99 (~100 steps); final/ is the average, final-raw/ the last weights; "
            "0: off"
        },
    )
    results_dir: str | None = field(
        default=None,
        metadata={"help": "metrics and summary (default <output_dir>/results; results/ holds only curated copies)"},
    )
    profile_steps: str | None = field(
        default=None,
        metadata={
            "help": "profile optimizer steps A-B (torch.profiler): seconds a step, the GPU's share in kernels and the "
            "costliest operators into <results_dir>/profile.md and summary.json (training.callbacks.profile_steps)"
        },
    )

    def __post_init__(self):
        for flag in FRACTION_FLAGS:
            parse_fraction(flag, getattr(self, flag))  # a typo stops the run now, not after loading
        parse_long_identifier_share(self)  # so does a long share without identifiers to make long
        check_weight_average_decay(self.weight_average_decay)
        parse_profile_steps(self.profile_steps)


def parse_words(spec: str) -> list[int]:
    """``--words``: ``dataset_builders.tasks.parse_words``, its mistakes as a ``RecipeError``."""
    from dataset_builders import tasks

    try:
        return tasks.parse_words(spec)
    except tasks.BadWords as exc:
        raise RecipeError(f"--words {exc}") from None


def warm_start_tasks(args: WarmStartArguments) -> list:
    """The tasks the run draws from in turns (``dataset_builders.tasks.mix``), their train problems drawn with
    ``--register_weights`` if given, ``--scrambled_fraction`` of them with shuffled texts and
    ``--identifier_fraction`` of them with synthetic identifiers if not 0 (``--long_identifier_share`` of those
    identifiers long ones), ``--doubled_fraction`` of them with identical adjacent target words if not 0, and
    ``--repeated_fraction`` of them with a phrase repeated within and across their texts if not 0."""
    from dataset_builders import tasks
    from training.core.run_task import with_train_draw

    try:
        task_list = [
            with_train_draw(task, args) for task in tasks.mix(args.task, parse_words(args.words), args.problem_seed)
        ]
    except ValueError as exc:  # an unknown task, or register weights or text shares for a task without texts
        raise RecipeError(str(exc)) from None
    return task_list


def warm_start_row(index: int, task_list: list) -> dict:
    """Row ``index`` of a warm start: the tasks (word counts) take turns, so every batch mixes lengths; each task's
    train problems are addressed by their index, so a row is the same whichever process builds it and when."""
    task = task_list[index % len(task_list)]
    return task.supervised_row(task.problem("train", index // len(task_list)))


def _build_rows(batch: dict, task_list: list) -> dict:
    rows = [warm_start_row(index, task_list) for index in batch["index"]]
    return {"prompt": [row["prompt"] for row in rows], "completion": [row["completion"] for row in rows]}


def warm_start_dataset(task_list: list, size: int, num_proc: int | None = None):
    """``size`` prompt-completion rows (TRL's conversational format) of train problems, the tasks taking turns; in
    ``num_proc`` processes when more than one (the same rows in the same order: each is built from its index).
    The chain's helps build 156,000 rows, 61 s in one process here (2 cores) and 55 s in two; the rows with
    identifiers or shuffles gain most (results/pipeline-cpu/help-rows.md)."""
    import datasets

    if not num_proc or num_proc < 2:
        return datasets.Dataset.from_list([warm_start_row(i, task_list) for i in range(size)])
    indices = datasets.Dataset.from_dict({"index": list(range(size))})
    return indices.map(
        _build_rows,
        batched=True,
        batch_size=256,
        fn_kwargs={"task_list": task_list},
        remove_columns=["index"],
        num_proc=num_proc,
        desc="Building problems",
    )


PARALLEL_TOKENIZE_MIN_ROWS = 4096  # below it, starting processes costs about what they save
PARALLEL_TOKENIZE_MAX_PROCESSES = 8


def tokenize_processes(size: int, requested: int | None, cpus: int | None) -> int | None:
    """How many processes TRL tokenizes ``size`` rows with (``--dataset_num_proc``): the user's number when given;
    else one (None) for small sets, and up to 8 of the machine's cores for large ones. In one process, a 7-minute
    help run on an H100 host spent 2 min 55 s tokenizing its 80,000 rows before its first step
    (results/grpo/batch-17/sft-only/train.log.gz)."""
    if requested is not None:
        return requested
    if size < PARALLEL_TOKENIZE_MIN_ROWS or not cpus or cpus < 2:
        return None
    return min(cpus, PARALLEL_TOKENIZE_MAX_PROCESSES)


def parse_warm_start_arguments(argv: list[str] | None = None):
    """(WarmStartArguments, SFTConfig, ModelConfig) from a recipe, its model preset and the command line."""
    from trl import ModelConfig, SFTConfig

    from training.core.arguments import parse_recipe

    return parse_recipe((WarmStartArguments, SFTConfig, ModelConfig), argv)


def warm_start(args: WarmStartArguments, sft_args, model_args) -> Path:
    """Train the adapter; returns the final adapter folder (``output_dir/final``)."""
    from trl import SFTTrainer

    from training.callbacks.nonfinite_guard import SkipNonFiniteGradients
    from training.callbacks.run_metrics import MetricsFile, read_metrics
    from training.callbacks.stop_on_signal import StopOnSignal
    from training.core.reporting import report
    from training.core.run_lock import hold_run_lock
    from training.core.runs import adapter_folder, device_name, load_policy
    from training.core.writable import check_writable

    output_dir = Path(sft_args.output_dir)
    results_dir = Path(args.results_dir or output_dir / "results")  # ad hoc, under the ignored runs/
    check_writable(output_dir, "output_dir")
    check_writable(results_dir, "results_dir")  # written at the end: found now, not after training
    hold_run_lock(output_dir)  # one run per folder: a second one stops here, naming the first's pid
    run_name = sft_args.run_name or output_dir.name
    words = parse_words(args.words)
    per_step = sft_args.per_device_train_batch_size * sft_args.gradient_accumulation_steps  # an optimizer step's rows
    size = args.problems or sft_args.max_steps * per_step
    if size <= 0:
        raise RecipeError("set --max_steps (the warm start draws max_steps x batch problems)")
    task_list = warm_start_tasks(args)
    rows = "packed rows of " + str(sft_args.max_length) + " tokens" if sft_args.packing else "problems"
    what = (
        f"problems of {words[0]}-{words[-1]} words per text ({len(words)} counts)"
        if len(task_list) > 1
        else f"{task_list[0].name} problems"
    )
    report(
        f"warm start {run_name}: {sft_args.max_steps} steps x {per_step} {rows}, {size} {what}, output {output_dir}/"
    )
    init_adapter = adapter_folder(args.init_adapter) if args.init_adapter not in (None, "", "base") else None
    if init_adapter:
        report(f"continuing the adapter {init_adapter}/")
    sft_args.dataset_num_proc = tokenize_processes(size, sft_args.dataset_num_proc, os.cpu_count())
    if sft_args.dataset_num_proc:
        report(f"building and tokenizing {size} rows in {sft_args.dataset_num_proc} processes (--dataset_num_proc)")
    dataset = warm_start_dataset(task_list, size, sft_args.dataset_num_proc)
    model, tokenizer, peft_config = load_policy(model_args, init_adapter, sft_args.bf16)
    nonfinite = SkipNonFiniteGradients(report=report)
    resume_hint = (  # with the average on, final/ is the average: the trained weights go on from final-raw/
        f"--init_adapter {output_dir}/final-raw continues the trained weights (final/ is their average)"
        if args.weight_average_decay
        else f"--init_adapter {output_dir}/final continues the adapter"
    )
    callbacks = [
        MetricsFile(output_dir / "metrics.jsonl", report=report, step_key="loss"),
        nonfinite,
        StopOnSignal(report=report, resume_hint=resume_hint),  # SIGTERM / Ctrl-C: final/ and the results still
    ]
    if args.max_train_minutes:
        from training.callbacks.promotion import TimeBudget

        callbacks.append(
            TimeBudget(
                args.max_train_minutes,
                report=report,
                resume_hint=resume_hint,
            )
        )
    profiler = None
    if args.profile_steps:
        from training.callbacks.profile_steps import ProfileSteps

        profiler = ProfileSteps(*parse_profile_steps(args.profile_steps), results_dir / "profile.md", report=report)
        callbacks.append(profiler)
    average = None
    if args.weight_average_decay:
        from training.callbacks.weight_average import WeightAverage

        average = WeightAverage(args.weight_average_decay, report=report)
        callbacks.append(average)
    trainer = SFTTrainer(
        model=model,
        args=sft_args,
        train_dataset=dataset,
        processing_class=tokenizer,
        peft_config=peft_config,
        callbacks=callbacks,
    )
    start = time.time()
    trainer.train()
    final, raw = output_dir / "final", output_dir / "final-raw"
    if raw.exists():
        shutil.rmtree(raw)  # an earlier run's last weights are not this one's
    if average is not None:
        from training.callbacks.weight_average import save_last_and_average

        save_last_and_average(trainer, final, raw, average, report=report)
    else:
        trainer.save_model(str(final))
    records = read_metrics(output_dir / "metrics.jsonl") if (output_dir / "metrics.jsonl").exists() else []
    results_dir.mkdir(parents=True, exist_ok=True)
    losses = [r["loss"] for r in records if "loss" in r]
    summary = {
        "run": run_name,
        "task": args.task,
        "tasks": [t.name for t in task_list],
        "words": args.words if any(t.words for t in task_list) else None,
        "register_weights": args.register_weights,
        "scrambled_fraction": parse_fraction("scrambled_fraction", args.scrambled_fraction),
        "identifier_fraction": parse_fraction("identifier_fraction", args.identifier_fraction),
        "long_identifier_share": parse_long_identifier_share(args),
        "doubled_fraction": parse_fraction("doubled_fraction", args.doubled_fraction),
        "repeated_fraction": parse_fraction("repeated_fraction", args.repeated_fraction),
        # what inference needs at the longest length trained (the one budget formula)
        "completion_budget": max(t.completion_budget(tokenizer) for t in task_list),
        "model": model_args.model_name_or_path,
        "init_adapter": str(init_adapter) if init_adapter else None,
        "train_sampling_strategy": sft_args.train_sampling_strategy,
        "nonfinite_gradient_steps_skipped": nonfinite.skipped_steps,
        "problems": size,
        "packing": sft_args.packing,
        "max_length": sft_args.max_length,
        "max_steps": sft_args.max_steps,
        "global_step": trainer.state.global_step,
        "wall_seconds": time.time() - start,
        "device": device_name(trainer.args.device),
        "final_adapter": str(final),
        "weight_average_decay": args.weight_average_decay,
        "final_raw_adapter": str(raw) if average is not None else None,
        "loss_first": losses[0] if losses else None,
        "loss_last": losses[-1] if losses else None,
        "sft": {
            "learning_rate": sft_args.learning_rate,
            "lr_scheduler_type": str(getattr(sft_args.lr_scheduler_type, "value", sft_args.lr_scheduler_type)),
            "lr_scheduler_kwargs": sft_args.lr_scheduler_kwargs or {},  # e.g. warmup_stable_decay's num_decay_steps
            "warmup_steps": sft_args.warmup_steps,
            "batch": sft_args.per_device_train_batch_size,
            "gradient_accumulation_steps": sft_args.gradient_accumulation_steps,
        },
        "lora": {"lora_r": model_args.lora_r, "lora_alpha": model_args.lora_alpha},
        "steps_logged": len(losses),
        "profile": profiler.result if profiler else None,  # --profile_steps: profile.md's numbers
    }
    (results_dir / "summary.json").write_text(json.dumps(summary, indent=2, default=str) + "\n")
    if records:
        (results_dir / "metrics.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    report(
        f"warm start done: adapter {final}/ (loss {summary['loss_first']} -> {summary['loss_last']}); "
        f"next: GRPO from it: make train-stage N=... (or make train-arithmetic) INIT_ADAPTER={final}"
    )
    return final


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    silence_library_deprecations()  # before SFTConfig is built: TRL's use of transformers' deprecated names
    allow_expandable_segments()  # before CUDA starts: fewer out-of-memory deaths from fragmentation (batch 17)
    one_gpu_per_process()  # before CUDA starts: one process sees one GPU (GPUS=N is data-parallel)
    try:
        args, sft_args, model_args = parse_warm_start_arguments(argv)
        warm_start(args, sft_args, model_args)
    except (RecipeError, FetchError, ModelUnavailable, HubError) as exc:  # as training.cli.train: a message, exit 2
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
