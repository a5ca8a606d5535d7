"""``python -m training.train --config training/recipes/<recipe>.yaml [--flag value ...]``: one GRPO run.

Trains a LoRA adapter with TRL's GRPOTrainer on a curriculum stage (or the arithmetic control):
stage N starts from stage N-1's final adapter unless ``--init_adapter`` says otherwise; ``--resume``
continues from the run's latest complete checkpoint, data position included. Everything a run writes
lives in ``output_dir`` (checkpoints, ``final/``, completions.jsonl.gz, sample_outputs.log,
metrics.jsonl); at the end metrics, a summary and plots are copied to ``results/<run>/``.
Exit codes: 0 trained, 2 a setup error (message, no traceback), 3 stopped by the collapse guard.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import sys
import time
from pathlib import Path

from dataset_builders.fetch import FetchError
from publishing.hub import HubError
from training.arguments import RecipeError, RunArguments, parse_run_arguments
from training.models import ModelUnavailable

logger = logging.getLogger("training.train")

EXIT_SETUP_ERROR = 2
EXIT_COLLAPSED = 3


def report(line: str) -> None:
    """Run reports a person should see (saves, pruning, collapse, clipping): one line on stdout (first process only)."""
    if os.environ.get("RANK", "0") == "0":  # set by accelerate launch / torchrun for each process
        print(line, flush=True)


def previous_stage_adapter(output_dir: Path, stage: int) -> Path:
    """Where stage ``stage - 1`` of the same curriculum leaves its final adapter."""
    return output_dir.parent / f"stage-{stage - 1}" / "final"


def adapter_folder(path: str | Path) -> Path:
    """``--init_adapter``'s folder, checked to hold a LoRA adapter."""
    path = Path(path)
    if not (path / "adapter_config.json").is_file():
        raise RecipeError(f"--init_adapter {path} is not a LoRA adapter folder (no adapter_config.json)")
    return path


def initial_adapter(run_args: RunArguments, output_dir: Path) -> Path | None:
    """The adapter a run starts from: None for a fresh LoRA adapter."""
    if run_args.init_adapter not in (None, "", "base"):
        return adapter_folder(run_args.init_adapter)
    if run_args.init_adapter == "base" or run_args.task != "interleave" or run_args.stage == 1:
        return None
    path = previous_stage_adapter(output_dir, run_args.stage)
    if not (path / "adapter_config.json").is_file():
        raise RecipeError(
            f"stage {run_args.stage} starts from stage {run_args.stage - 1}'s final adapter, {path}, which does not "
            f"exist. Train stage {run_args.stage - 1} first (make train-stage N={run_args.stage - 1}), or pass "
            f"INIT_ADAPTER=<adapter folder> (--init_adapter), or INIT_ADAPTER=base for a fresh adapter.")
    return path


def resume_checkpoint(run_args: RunArguments, output_dir: Path) -> tuple[Path | None, dict]:
    """(checkpoint to resume from, its marker) or (None, {}); refuses to mix a new run into an old one."""
    from training.checkpoints import COMPLETE_MARKER, latest_resumable_checkpoint, list_checkpoints

    if run_args.resume:
        checkpoint = latest_resumable_checkpoint(output_dir, report)
        if checkpoint is None:
            raise RecipeError(f"nothing to resume: {output_dir} has no complete checkpoint")
        return checkpoint, json.loads((checkpoint / COMPLETE_MARKER).read_text())
    if list_checkpoints(output_dir):
        raise RecipeError(f"{output_dir} already holds checkpoints of an earlier run: continue it with RESUME=1 "
                          "(--resume true), or move it away / pick another --output_dir to start over")
    return None, {}


def load_policy(model_args, adapter: Path | None, bf16: bool):
    """(model, tokenizer, peft_config): the model carries the trainable adapter, or peft_config is TRL's to add."""
    from peft import PeftModel
    from trl import get_peft_config

    from training.models import load_model

    dtype = model_args.dtype if model_args.dtype not in (None, "auto") else ("bfloat16" if bf16 else "float32")
    model, tokenizer = load_model(model_args.model_name_or_path, dtype=dtype, device="cpu")
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    if adapter is not None:
        return PeftModel.from_pretrained(model, str(adapter), is_trainable=True), tokenizer, None
    peft_config = get_peft_config(model_args)
    if peft_config is None:
        raise RecipeError("this project trains LoRA adapters: set use_peft: true (model presets do)")
    return model, tokenizer, peft_config


def write_final_adapter(trainer, output_dir: Path, guard) -> Path | None:
    """``output_dir/final``: the trained adapter, or after a collapse the last checkpoint saved before it began.

    None when the run collapsed before its first checkpoint (there is no good adapter to hand on).
    """
    from training.checkpoints import list_checkpoints

    final = output_dir / "final"
    if final.exists():
        shutil.rmtree(final)
    if guard.stopped_at is None:
        trainer.save_model(str(final))
        return final
    began = guard.stopped_at - guard.collapsed_steps + 1
    good = [c for c in list_checkpoints(output_dir) if c.complete and c.step < began]
    if not good:
        report("collapse: no checkpoint was saved before the collapse began; no final adapter written")
        return None
    shutil.copytree(good[-1].path, final, ignore=shutil.ignore_patterns("optimizer.pt", "scheduler.pt", "rng_state*"))
    report(f"collapse: final adapter is {good[-1].path.name}, the last checkpoint before the collapse began "
           f"(step {began})")
    return final


def device_name(device) -> str:
    """What trained: the GPU's name (``NVIDIA H100 80GB HBM3``) or ``cpu``."""
    import torch

    return torch.cuda.get_device_name(device) if device.type == "cuda" else device.type


def prepare_hub_push(grpo_args, task_name: str) -> None:
    """With ``--push_to_hub``: the model repo and its branch (``--hub_revision``, default the task, e.g. ``stage-3``)
    exist before the first save pushes to it (``upload_folder(revision=...)`` does not create a branch).

    When to push is TRL's ``--hub_strategy`` (every_save by default: each checkpoint's adapter, pushed in
    the background; the run folder's logs go with it).
    """
    if not grpo_args.push_to_hub:
        return
    from publishing.hub import RemoteHub, resolve_token

    repo_id = grpo_args.hub_model_id
    if not repo_id or repo_id.count("/") != 1:
        raise RecipeError("--push_to_hub needs --hub_model_id OWNER/NAME (the model repo; each stage pushes to its "
                          f"own branch), got {repo_id!r}")
    grpo_args.hub_revision = grpo_args.hub_revision or task_name
    hub = RemoteHub(resolve_token(grpo_args.hub_token), private=bool(grpo_args.hub_private_repo))
    hub.ensure_branch(repo_id, "model", grpo_args.hub_revision)
    report(f"pushing to {hub.url(repo_id, 'model')} branch {grpo_args.hub_revision} "
           f"(hub_strategy {grpo_args.hub_strategy.value})")


def stage_limits(run_args: RunArguments, task, output_dir: Path) -> list:
    """The callbacks that end a stage early: promotion at the validation bar, and the time budget."""
    from training.promotion import StagePromotion, TimeBudget

    limits = []
    if run_args.promotion_bar is not None:
        if not task.n_words:
            raise RecipeError("--promotion_bar applies to curriculum stages (it scores the stage's validation split)")
        limits.append(StagePromotion(f"stage-{run_args.stage}", run_args.promotion_bar, run_args.promotion_every,
                                     run_args.promotion_problems, output_dir / "promotion.jsonl", report=report))
    if run_args.max_train_minutes is not None:
        limits.append(TimeBudget(run_args.max_train_minutes, report=report))
    return limits


def write_results(output_dir: Path, results_dir: Path, run_name: str, summary: dict) -> None:
    """metrics.jsonl, summary.json and PNG plots of the run under ``results_dir``."""
    from training.plots import plot_metrics
    from training.run_metrics import read_metrics, summarize

    results_dir.mkdir(parents=True, exist_ok=True)
    metrics_path = output_dir / "metrics.jsonl"
    records = read_metrics(metrics_path) if metrics_path.exists() else []
    if metrics_path.exists():
        shutil.copyfile(metrics_path, results_dir / "metrics.jsonl")
    summary = {**summary, **summarize(records)}
    (results_dir / "summary.json").write_text(json.dumps(summary, indent=2, default=str) + "\n")
    plots = plot_metrics(records, results_dir, run_name)
    report(f"results: {results_dir}/ (metrics.jsonl, summary.json, {len(plots)} plots)")


def train(run_args: RunArguments, grpo_args, model_args) -> int:
    """Set up and run one GRPO run; returns the process exit code."""
    from training.checkpoints import CheckpointRetention
    from training.collapse_guard import CollapseGuard
    from training.nonfinite_guard import SkipNonFiniteGradients
    from training.completion_length import max_completion_length, tokens_per_word
    from training.grpo_trainer import ObservedGRPOTrainer
    from training.rollout_observers import CompletionLogObserver, SampleOutputs
    from training.run_lock import hold_run_lock
    from training.run_metrics import MetricsFile
    from training.tasks import task_for
    from training.tracking_run import name_tracking_run

    output_dir = Path(grpo_args.output_dir)
    hold_run_lock(output_dir)  # one run per folder: a second one stops here, naming the first's pid
    run_name = grpo_args.run_name or output_dir.name
    grpo_args.run_name = run_name
    results_dir = Path(run_args.results_dir or Path("results") / run_name)
    task = task_for(run_args)
    checkpoint, marker = resume_checkpoint(run_args, output_dir)
    name_tracking_run(grpo_args, output_dir, run_args.resume)  # trackio: a fresh run never continues an older record
    adapter = initial_adapter(run_args, output_dir)
    prepare_hub_push(grpo_args, task.name)
    model, tokenizer, peft_config = load_policy(model_args, adapter, grpo_args.bf16)

    if run_args.derive_max_completion_length and task.n_words:
        from dataset_builders.corpus import load_corpus

        per_word = tokens_per_word(tokenizer, load_corpus(), "train")
        grpo_args.max_completion_length = max_completion_length(task.n_words, per_word)
    grpo_args.shuffle_dataset = False  # problems are already a keyed permutation; order = data position
    grpo_args.ignore_data_skip = True  # a resumed run restarts the problem stream at its data position instead
    grpo_args.save_total_limit = None  # CheckpointRetention decides what to keep
    if grpo_args.reward_weights is None:
        grpo_args.reward_weights = list(task.reward_weights)

    data_position = int(marker.get("data_position", 0))
    resample_position = int(marker.get("resample_position", 0))
    output_dir.mkdir(parents=True, exist_ok=True)
    guard = CollapseGuard(run_args.collapse_zero_std_fraction, run_args.collapse_warn_after,
                          run_args.collapse_stop_after or 10**9, report=report)
    retention = CheckpointRetention(run_args.reward_save_threshold, report=report)
    nonfinite = SkipNonFiniteGradients(report=report)
    observers = [CompletionLogObserver(output_dir / "completions.jsonl.gz"),
                 SampleOutputs(output_dir / "sample_outputs.log", run_args.sample_outputs_steps),
                 lambda rollouts, final: guard.observe(final.step, final.stats())]
    limits = stage_limits(run_args, task, output_dir)
    trainer = ObservedGRPOTrainer(
        model=model, reward_funcs=list(task.reward_funcs), args=grpo_args,
        train_dataset=task.train_stream(data_position), processing_class=tokenizer, peft_config=peft_config,
        callbacks=[retention, guard, nonfinite, *limits,
                   MetricsFile(output_dir / "metrics.jsonl", grpo_args.max_completion_length,
                                                 report=report)],
        reference_column=task.reference_column, resample_problems=task.resample_problems(resample_position),
        dynamic_sampling_rounds=run_args.dynamic_sampling_rounds, observers=observers, data_position=data_position,
        fast_generation=run_args.fast_generation, fast_generation_compile=run_args.fast_generation_compile,
        resample_position=resample_position, word_credit=run_args.word_credit)
    if run_args.nonfinite_probe_dir:
        from training.nonfinite_probe import NonFiniteProbe

        trainer.nonfinite_probe = nonfinite.probe = NonFiniteProbe(trainer, run_args.nonfinite_probe_dir, report=report)
    retention.extra_state = lambda: {"data_position": trainer.data_position,
                                     "resample_position": trainer.resample_position}

    start = adapter or "a fresh LoRA adapter"
    report(f"run {run_name}: {task.name}, {grpo_args.max_steps} steps, from {start}"
           + (f", resuming {checkpoint.name} at problem {data_position}" if checkpoint else ""))
    report(f"  model {model_args.model_name_or_path}, completions up to {grpo_args.max_completion_length} tokens, "
           f"{grpo_args.generation_batch_size // grpo_args.num_generations} prompts x {grpo_args.num_generations} "
           f"generations per step, output {output_dir}/")
    started = time.time()
    trainer.train(resume_from_checkpoint=str(checkpoint) if checkpoint else None)
    final = write_final_adapter(trainer, output_dir, guard)
    if trainer.accelerator.is_main_process:
        write_results(output_dir, results_dir, run_name, {
            "run": run_name, "task": task.name, "model": model_args.model_name_or_path,
            "init_adapter": str(adapter) if adapter else None, "resumed_from": str(checkpoint) if checkpoint else None,
            "max_steps": grpo_args.max_steps, "global_step": trainer.state.global_step,
            "data_position": trainer.data_position, "resample_position": trainer.resample_position,
            "wall_seconds": time.time() - started, "device": device_name(trainer.accelerator.device),
            "final_adapter": str(final) if final else None,
            "collapse_stopped_at": guard.stopped_at,
            "nonfinite_gradient_steps_skipped": nonfinite.skipped_steps,
            **{limit.summary_key: limit.stopped_at for limit in limits},
            "recipe": dict(vars(run_args)),
            "grpo": {k: getattr(grpo_args, k) for k in (
                "learning_rate", "num_generations", "per_device_train_batch_size", "max_completion_length",
                "temperature", "beta", "loss_type", "scale_rewards", "reward_weights", "seed")},
            "lora": {k: getattr(model_args, k) for k in ("lora_r", "lora_alpha", "lora_dropout", "lora_target_modules")},
        })
    return EXIT_COLLAPSED if guard.stopped_at is not None else 0


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    if argv is None and len(sys.argv) == 1 or argv == []:
        print(__doc__.strip(), file=sys.stderr)
        return EXIT_SETUP_ERROR
    try:
        run_args, grpo_args, model_args = parse_run_arguments(argv)
        return train(run_args, grpo_args, model_args)
    except (RecipeError, FetchError, ModelUnavailable, HubError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_SETUP_ERROR


if __name__ == "__main__":
    sys.exit(main())
