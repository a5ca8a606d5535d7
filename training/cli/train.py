"""``python -m training.cli.train --config training/recipes/<recipe>.yaml [--flag value ...]``: one GRPO run.

Trains a LoRA adapter with TRL's GRPOTrainer on a curriculum stage (or the arithmetic control):
stage N starts from stage N-1's final adapter unless ``--init_adapter`` says otherwise; ``--resume``
continues from the run's latest complete checkpoint, data position included. Everything a run writes
lives in ``output_dir`` (checkpoints, ``final/``, completions.jsonl.gz, sample_outputs.log,
metrics.jsonl); at the end metrics, a summary and plots go to ``<output_dir>/results/`` (``--results_dir``).
Exit codes: 0 trained, 2 a setup error (message, no traceback), 3 stopped by the collapse guard.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import sys
import time
from dataclasses import fields
from pathlib import Path

from base_models.models import ModelUnavailable, check_model_available
from dataset_builders.fetch import FetchError
from dataset_builders.interleave_curriculum.continuation import SLIP_LEAD_WORDS
from dataset_builders.prompts import chat_prompt_ids
from publishing.hub import HubError
from training.core.arguments import RecipeError, RunArguments, parse_run_arguments
from training.core.cpu_cost import cpu_cost_report
from training.core.cuda_memory import allow_expandable_segments
from training.core.gpu_visibility import one_gpu_per_process
from training.core.quiet_warnings import silence_library_deprecations
from training.core.reporting import report
from training.core.run_flags import completion_length_source, settle_grpo_flags
from training.core.runs import adapter_folder, device_name, load_policy, signal_stop
from training.core.stop_signals import StopRequested
from training.core.trl_version import check_trl_version

logger = logging.getLogger("training.cli.train")

EXIT_SETUP_ERROR = 2
EXIT_COLLAPSED = 3


def previous_task_adapter(output_dir: Path, previous: str) -> Path:
    """Where the run of task ``previous`` in the same runs folder leaves its final adapter."""
    return output_dir.parent / previous / "final"


def initial_adapter(run_args: RunArguments, task, output_dir: Path) -> Path | None:
    """The adapter a run starts from: None for a fresh LoRA adapter (the default when the task has no predecessor).
    One that a stop signal cut short (its run's summary says so) is said to be, before anything loads."""
    if run_args.init_adapter not in (None, "", "base"):
        return _note_signal_stop(adapter_folder(run_args.init_adapter))
    if run_args.init_adapter == "base" or task.previous is None:
        return None
    path = previous_task_adapter(output_dir, task.previous)
    if not (path / "adapter_config.json").is_file():
        raise RecipeError(
            f"{task.name} starts from {task.previous}'s final adapter, {path}, which does not exist. Train "
            f"{task.previous} first (its recipe: training/recipes/{task.previous}.yaml), or pass "
            f"INIT_ADAPTER=<adapter folder> (--init_adapter), or INIT_ADAPTER=base for a fresh adapter."
            + _shipped_hint(task.previous)
        )
    return _note_signal_stop(path)


def _note_signal_stop(adapter: Path) -> Path:
    """``adapter``, said first to be cut short where its run (the folder above it) was stopped by a signal."""
    if stopped := signal_stop(adapter.parent):
        report(
            f"note: the start {adapter}/ was {stopped}; to start from its whole run, train that run on first: delete "
            f"{adapter}/ and run it again with RESUME=1 (--resume true; make curriculum adds it), which goes on from "
            "its checkpoints"
        )
    return adapter


def _shipped_hint(previous: str) -> str:
    """Where the adapter shipped with the project is ``previous``'s: say it can be the start."""
    from model_cards.shipped_adapter import SHIPPED_ADAPTER, SHIPPED_ADAPTER_PATH, ShippedAdapterError, load_shipped

    try:
        shipped = load_shipped(SHIPPED_ADAPTER)
    except ShippedAdapterError:
        return ""
    if shipped.task != previous:
        return ""
    return f" The adapter shipped with the project is a {previous} adapter: INIT_ADAPTER={SHIPPED_ADAPTER_PATH}."


def resume_checkpoint(run_args: RunArguments, output_dir: Path) -> tuple[Path | None, dict]:
    """(checkpoint to resume from, its marker) or (None, {}); refuses to mix a new run into an old one."""
    from training.callbacks.checkpoints import COMPLETE_MARKER, latest_resumable_checkpoint, list_checkpoints

    if run_args.resume:
        checkpoint = latest_resumable_checkpoint(output_dir, report)
        if checkpoint is None:
            raise RecipeError(f"nothing to resume: {output_dir} has no complete checkpoint")
        return checkpoint, json.loads((checkpoint / COMPLETE_MARKER).read_text())
    if list_checkpoints(output_dir):
        raise RecipeError(
            f"{output_dir} already holds checkpoints of an earlier run: continue it with RESUME=1 "
            "(--resume true), or move it away / pick another --output_dir to start over"
        )
    return None, {}


def write_final_adapter(trainer, output_dir: Path, guard, average=None) -> Path | None:
    """``output_dir/final``: the trained adapter, or after a collapse the last checkpoint saved before it began.

    With a weight ``average`` (``--weight_average_decay``), ``final`` is the average and ``final-raw`` the last
    trained weights. None when the run collapsed before its first checkpoint (there is no good adapter to hand on).
    """
    from training.callbacks.checkpoints import list_checkpoints

    final, raw = output_dir / "final", output_dir / "final-raw"
    for folder in (final, raw):
        if folder.exists():
            shutil.rmtree(folder)
    if guard.stopped_at is None:
        if average is not None:
            from training.callbacks.weight_average import save_last_and_average

            save_last_and_average(trainer, final, raw, average, report=report)
            return final
        trainer.save_model(str(final))
        return final
    began = guard.stopped_at - guard.collapsed_steps + 1
    good = [c for c in list_checkpoints(output_dir) if c.complete and c.step < began]
    if not good:
        report("collapse: no checkpoint was saved before the collapse began; no final adapter written")
        return None
    kept = shutil.ignore_patterns("optimizer.pt", "scheduler.pt", "rng_state*")
    shutil.copytree(good[-1].path, final, ignore=kept)
    if average is not None:
        from training.callbacks.weight_average import average_into_adapter

        shutil.copytree(good[-1].path, raw, ignore=kept)
        if average_into_adapter(final):
            report(
                f"collapse: final adapter is the weight average saved in {good[-1].path.name}; final-raw its weights"
            )
        else:
            shutil.rmtree(raw)
            report(f"collapse: {good[-1].path.name} holds no weight average of its adapter: final is its weights")
    report(
        f"collapse: final adapter is {good[-1].path.name}, the last checkpoint before the collapse began (step {began})"
    )
    return final


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
        raise RecipeError(
            "--push_to_hub needs --hub_model_id OWNER/NAME (the model repo; each stage pushes to its "
            f"own branch), got {repo_id!r}"
        )
    grpo_args.hub_revision = grpo_args.hub_revision or task_name
    hub = RemoteHub(resolve_token(grpo_args.hub_token), private=bool(grpo_args.hub_private_repo))
    hub.ensure_branch(repo_id, "model", grpo_args.hub_revision)
    report(
        f"pushing to {hub.url(repo_id, 'model')} branch {grpo_args.hub_revision} "
        f"(hub_strategy {grpo_args.hub_strategy.value})"
    )


def stage_limits(run_args: RunArguments, task, output_dir: Path, average=None) -> list:
    """The callbacks that end a run early: promotion at the validation bar, the time budget, and a stop signal.

    With a weight ``average``, promotion scores the average: the adapter the run would ship at that step.
    """
    from dataset_builders import tasks
    from training.callbacks.promotion import StagePromotion, TimeBudget
    from training.callbacks.stop_on_signal import StopOnSignal
    from training.trainer.greedy_eval import ProblemSet, evaluate_sets

    first = run_args.promotion_first_problem
    checked: list[ProblemSet] = []  # drawn at the first check, the same problems at every check

    def score(model, tokenizer, dtype, n_problems):
        """The policy's eval row (greedy) on the task's validation problems ``first .. first + n_problems - 1`` (the
        published validation problems of the task's own seed, as ``make eval`` draws them)."""
        if not checked:
            eval_task = tasks.get(task.name)
            checked.append(
                ProblemSet(eval_task, "validation", list(eval_task.problems("validation", first + n_problems))[first:])
            )
        with average.swapped_in(model) if average is not None else contextlib.nullcontext():
            return evaluate_sets(
                model, tokenizer, checked, "trained", batch_size=n_problems, log=lambda line: None, dtype=dtype
            )[0]

    limits = []
    if run_args.promotion_bar is not None:
        limits.append(
            StagePromotion(
                task.name,
                run_args.promotion_bar,
                run_args.promotion_every,
                run_args.promotion_problems,
                output_dir / "promotion.jsonl",
                score,
                score_label=task.score_label,
                report=report,
                first_problem=first,
            )
        )
    if run_args.max_train_minutes is not None:
        limits.append(TimeBudget(run_args.max_train_minutes, report=report))
    limits.append(StopOnSignal(report=report))  # SIGTERM / Ctrl-C: the step ends, then final/ and the results
    return limits


def cpu_step(model, tokenizer, task, data_position: int, grpo_args):
    """The size of this run's steps on this CPU (``training.core.cpu_cost``): the next problem's prompt tokens."""
    import torch

    from training.core.cpu_cost import CpuStep

    prompt = task.problem("train", data_position)["prompt"]
    ids = tokenizer(prompt)["input_ids"] if isinstance(prompt, str) else chat_prompt_ids(tokenizer, prompt)
    prompt_tokens = len(ids)
    return CpuStep(
        completions=grpo_args.generation_batch_size,
        prompt_tokens=prompt_tokens,
        completion_tokens=grpo_args.max_completion_length,
        parameters=sum(p.numel() for p in model.parameters()),
        threads=torch.get_num_threads(),
    )


def write_results(output_dir: Path, results_dir: Path, run_name: str, summary: dict) -> None:
    """metrics.jsonl, summary.json and PNG plots of the run under ``results_dir``."""
    from training.callbacks.run_metrics import read_metrics, summarize
    from training.core.plots import plot_metrics

    results_dir.mkdir(parents=True, exist_ok=True)
    metrics_path = output_dir / "metrics.jsonl"
    records = read_metrics(metrics_path) if metrics_path.exists() else []
    if metrics_path.exists():
        shutil.copyfile(metrics_path, results_dir / "metrics.jsonl")
    summary = {**summary, **summarize(records)}
    (results_dir / "summary.json").write_text(json.dumps(summary, indent=2, default=str) + "\n")
    plots = plot_metrics(records, results_dir, run_name)
    report(f"results: {results_dir}/ (metrics.jsonl, summary.json, {len(plots)} plots)")


def recipe_record(run_args: RunArguments) -> dict:
    """The run's own arguments, as summary.json records them under ``recipe``."""
    return {f.name: getattr(run_args, f.name) for f in fields(run_args)}


def help_only_summary(run_name: str, task: str, model: str, help_record: dict, final: Path, recipe: dict) -> dict:
    """summary.json of a stage of ``max_steps: 0``: the stage is its supervised help (``help_record``, as
    ``run_supervised_help`` returns it: of several parts, their totals), whose time and device are the stage's; the
    model card reads it as such."""
    return {
        "run": run_name,
        "task": task,
        "model": model,
        "init_adapter": help_record.get("from"),
        "supervised_help": help_record,
        "max_steps": 0,
        "global_step": 0,
        "wall_seconds": help_record.get("wall_seconds"),
        "device": help_record.get("device"),
        "final_adapter": str(final),
        "recipe": recipe,
    }


def finish_help_only(
    output_dir: Path,
    results_dir: Path,
    run_name: str,
    run_args: RunArguments,
    model: str,
    help_record: dict,
    format_start: dict | None,
) -> int:
    """A stage of ``max_steps: 0``: no GRPO step runs, and the supervised help's adapter becomes ``output_dir/final``
    (what the next stage and ``make eval`` read), with a summary.json that says so. Batch 25 chose this for stages
    where GRPO on top of the help did not clear the bar set before the run (results/grpo/batch-25/README.md)."""
    final = output_dir / "final"
    if final.exists():
        shutil.rmtree(final)
    shutil.copytree(help_record["adapter"], final)
    report(f"max_steps 0: no GRPO steps; the stage's final adapter is its supervised help's ({final}/)")
    summary = help_only_summary(run_name, run_args.task, model, help_record, final, recipe_record(run_args))
    write_results(output_dir, results_dir, run_name, {**summary, "format_start": format_start})
    return 0


def train(run_args: RunArguments, grpo_args, model_args) -> int:
    """Set up and run one GRPO run; returns the process exit code."""
    from training.callbacks.checkpoints import CheckpointRetention
    from training.callbacks.collapse_guard import CollapseGuard
    from training.callbacks.nonfinite_guard import SkipNonFiniteGradients
    from training.callbacks.run_eta import RunEta
    from training.callbacks.run_metrics import MetricsFile
    from training.callbacks.weight_average import WeightAverage
    from training.core.format_start import help_parts, names_recipe, run_format_start, run_supervised_help
    from training.core.run_lock import hold_run_lock
    from training.core.run_task import task_for
    from training.core.tracking_run import name_tracking_run
    from training.core.writable import check_writable
    from training.trainer.grpo_trainer import ObservedGRPOTrainer
    from training.trainer.rollout_observers import CompletionLogObserver, SampleOutputs
    from training.trainer.step_progress import StepProgress

    if grpo_args.max_steps == 0 and not names_recipe(run_args.supervised_help):  # before anything trains
        raise RecipeError(
            "--max_steps 0 runs no GRPO step, so the stage is its supervised help alone, and this run names none: "
            "give --supervised_help RECIPE, or --max_steps 1 or more"
        )
    if grpo_args.max_steps == 0 and int(os.environ.get("WORLD_SIZE", "1")) > 1:  # a help trains in one process, and
        # its by-hand route (--supervised_help none after it) would leave this stage no adapter: say so before it
        raise RecipeError(
            "--max_steps 0 runs no GRPO step, so the stage is its supervised help alone, which trains in one process: "
            "run this stage in one (without GPUS=N or accelerate launch)"
        )
    if run_args.shared_prompt_loss:
        from training.trainer.shared_prompt import entropy_bonus_note, shared_prompt_settings

        if why := shared_prompt_settings(grpo_args):
            raise RecipeError(f"--shared_prompt_loss would change what a step learns: {why}")
        if note := entropy_bonus_note(grpo_args):
            report(f"  --shared_prompt_loss: {note}")
    output_dir = Path(grpo_args.output_dir)
    results_dir = Path(run_args.results_dir or output_dir / "results")  # ad hoc, under the ignored runs/
    check_writable(output_dir, "output_dir")
    check_writable(results_dir, "results_dir")  # written at the end: found now, not after training
    hold_run_lock(output_dir)  # one run per folder: a second one stops here, naming the first's pid
    run_name = grpo_args.run_name or output_dir.name
    grpo_args.run_name = run_name
    check_trl_version(allow_untested=run_args.allow_untested_trl)
    task = task_for(run_args)
    settle_grpo_flags(run_args, grpo_args, task)
    checkpoint, marker = resume_checkpoint(run_args, output_dir)
    name_tracking_run(grpo_args, output_dir, run_args.resume)  # trackio: a fresh run never continues an older record
    adapter = initial_adapter(run_args, task, output_dir)
    report_to = (
        ",".join(grpo_args.report_to) if isinstance(grpo_args.report_to, list) else grpo_args.report_to
    ) or "none"
    helped = names_recipe(run_args.supervised_help) and checkpoint is None
    if helped:
        help_parts(run_args.supervised_help)  # every part's recipe found and bounded before anything trains
    check_model_available(model_args.model_name_or_path)  # here, not in a format start's or help's child process
    format_start = None
    if adapter is None and checkpoint is None and names_recipe(run_args.format_start) and not run_args.init_adapter:
        adapter, format_start = run_format_start(
            run_args.format_start, model_args.model_name_or_path, output_dir, report_to
        )
    supervised_help = None
    if helped:
        adapter, supervised_help = run_supervised_help(
            run_args.supervised_help, model_args.model_name_or_path, output_dir, report_to, adapter
        )
    if grpo_args.max_steps == 0:
        return finish_help_only(
            output_dir, results_dir, run_name, run_args, model_args.model_name_or_path, supervised_help, format_start
        )
    prepare_hub_push(grpo_args, task.name)
    model, tokenizer, peft_config = load_policy(model_args, adapter, grpo_args.bf16)

    length_source = completion_length_source(run_args, grpo_args, task, tokenizer)

    data_position = int(marker.get("data_position", 0))
    resample_position = int(marker.get("resample_position", 0))
    output_dir.mkdir(parents=True, exist_ok=True)
    guard = CollapseGuard(
        run_args.collapse_zero_std_fraction,
        run_args.collapse_warn_after,
        run_args.collapse_stop_after or 10**9,
        report=report,
    )
    retention = CheckpointRetention(run_args.reward_save_threshold, report=report)
    average = (
        WeightAverage(
            run_args.weight_average_decay,
            resume_from=checkpoint,
            report=report,
            start=run_args.weight_average_start,
        )
        if run_args.weight_average_decay
        else None
    )
    nonfinite = SkipNonFiniteGradients(report=report)
    observers = [
        CompletionLogObserver(output_dir / "completions.jsonl.gz"),
        SampleOutputs(output_dir / "sample_outputs.log", run_args.sample_outputs_steps),
        lambda rollouts, final: guard.observe(final.step, final.stats()),
    ]
    limits = stage_limits(run_args, task, output_dir, average)
    trainer = ObservedGRPOTrainer(
        model=model,
        reward_funcs=list(task.reward_funcs),
        args=grpo_args,
        train_dataset=task.train_stream(data_position),
        processing_class=tokenizer,
        peft_config=peft_config,
        callbacks=[
            *([average] if average is not None else []),  # first: updated before promotion scores it, saved before
            retention,  # the checkpoint's completion marker
            guard,
            nonfinite,
            *limits,
            MetricsFile(output_dir / "metrics.jsonl", grpo_args.max_completion_length, report=report),
            RunEta(report=report),
        ],
        reference_column=task.reference_column,
        resample_problems=task.resample_problems(resample_position),
        dynamic_sampling_rounds=run_args.dynamic_sampling_rounds,
        observers=observers,
        data_position=data_position,
        fast_generation=run_args.fast_generation,
        fast_generation_compile=run_args.fast_generation_compile,
        resample_position=resample_position,
        word_credit=run_args.word_credit,
        cut_word_credit=run_args.cut_word_credit,
        credit_unit=task.credit_unit,
        keep_word_signal_groups=run_args.keep_word_signal_groups,
        negative_boost_cap=run_args.negative_boost_cap,
        shared_prompt_loss=run_args.shared_prompt_loss,
        prompt_width_hint=task.train_prompt_tokens(tokenizer) if run_args.fast_generation else 0,
        progress=StepProgress(
            enabled=int(os.environ.get("RANK", "0")) == 0, delay=run_args.progress_after_seconds, report=report
        ),
    )
    if average is not None and trainer.is_fsdp_enabled:
        raise RecipeError(
            "--weight_average_decay averages whole weights, and FSDP shards them across processes: use DDP "
            "(training/accelerate/multi_gpu.yaml) or one GPU, or drop the average"
        )
    if run_args.nonfinite_probe_dir:
        from training.callbacks.nonfinite_probe import NonFiniteProbe

        trainer.nonfinite_probe = nonfinite.probe = NonFiniteProbe(trainer, run_args.nonfinite_probe_dir, report=report)
    retention.extra_state = lambda: {
        "data_position": trainer.data_position,
        "resample_position": trainer.resample_position,
    }

    start = adapter or "a fresh LoRA adapter"
    report(
        f"run {run_name}: {task.name}, {grpo_args.max_steps} steps, from {start}"
        + (f", resuming {checkpoint.name} at problem {data_position}" if checkpoint else "")
    )
    report(
        f"  model {model_args.model_name_or_path}, completions up to {grpo_args.max_completion_length} tokens "
        f"({length_source}), "
        f"{grpo_args.generation_batch_size // grpo_args.num_generations} prompts x {grpo_args.num_generations} "
        f"generations per step, output {output_dir}/"
    )
    if run_args.continuation_cuts:
        report(
            f"  continuation windows of {run_args.continuation_words} words: {len(task.continuation_cuts or ())} "
            f"train problems cut {SLIP_LEAD_WORDS} words before the start adapter's first slip "
            f"({run_args.continuation_cuts}), "
            + (
                "those alone, in turn (--continuation_slips_only)"
                if task.continuation_slips_only
                else "the others at a random word"
            )
        )
    if trainer.accelerator.device.type == "cpu":
        for line in cpu_cost_report(
            grpo_args.max_steps, cpu_step(trainer.model, tokenizer, task, data_position, grpo_args)
        ):
            report(line)
    started = time.time()
    trainer.train(resume_from_checkpoint=str(checkpoint) if checkpoint else None)
    final = write_final_adapter(trainer, output_dir, guard, average)
    if trainer.accelerator.is_main_process:
        write_results(
            output_dir,
            results_dir,
            run_name,
            {
                "run": run_name,
                "task": task.name,
                "model": model_args.model_name_or_path,
                "init_adapter": str(adapter) if adapter else None,
                "format_start": format_start,  # the stage's own supervised help, when it ran (or was reused)
                "supervised_help": supervised_help,  # a later stage's bounded supervised help, likewise
                "resumed_from": str(checkpoint) if checkpoint else None,
                "max_steps": grpo_args.max_steps,
                "global_step": trainer.state.global_step,
                "data_position": trainer.data_position,
                "resample_position": trainer.resample_position,
                "wall_seconds": time.time() - started,
                "device": device_name(trainer.accelerator.device),
                "final_adapter": str(final) if final else None,
                "final_raw_adapter": str(output_dir / "final-raw") if (output_dir / "final-raw").is_dir() else None,
                "collapse_stopped_at": guard.stopped_at,
                "nonfinite_gradient_steps_skipped": nonfinite.skipped_steps,
                **{limit.summary_key: limit.stopped_at for limit in limits},
                "recipe": recipe_record(run_args),
                "grpo": {
                    k: getattr(grpo_args, k)
                    for k in (
                        "learning_rate",
                        "num_generations",
                        "per_device_train_batch_size",
                        "max_completion_length",
                        "temperature",
                        "beta",
                        "loss_type",
                        "scale_rewards",
                        "reward_weights",
                        "seed",
                    )
                },
                "lora": {
                    k: getattr(model_args, k) for k in ("lora_r", "lora_alpha", "lora_dropout", "lora_target_modules")
                },
            },
        )
    return EXIT_COLLAPSED if guard.stopped_at is not None else 0


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    silence_library_deprecations()  # before GRPOConfig is built: TRL's use of transformers' deprecated names
    allow_expandable_segments()  # before CUDA starts: fewer out-of-memory deaths from fragmentation (batch 17)
    one_gpu_per_process()  # before CUDA starts: one process sees one GPU (GPUS=N is data-parallel)
    if argv is None and len(sys.argv) == 1 or argv == []:
        print(__doc__.strip(), file=sys.stderr)
        return EXIT_SETUP_ERROR
    try:
        run_args, grpo_args, model_args = parse_run_arguments(argv)
        return train(run_args, grpo_args, model_args)
    except (RecipeError, FetchError, ModelUnavailable, HubError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_SETUP_ERROR
    except StopRequested as exc:  # a stop signal during the format start or supervised help: no GRPO, said so
        print(str(exc), file=sys.stderr)
        return 128 + exc.signum


if __name__ == "__main__":
    sys.exit(main())
