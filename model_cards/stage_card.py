"""The model card of a stage checkpoint, rendered from the run's ``summary.json`` and its eval file.

Every number on the card comes from those two files; a stage with no eval file gets "not evaluated yet"
and no ``model-index``.
"""

from __future__ import annotations

from pathlib import Path

from huggingface_hub import EvalResult, ModelCard, ModelCardData

from dataset_builders import tasks
from dataset_builders.arithmetic.task import DATASET_FOLDER as ARITHMETIC_FOLDER
from dataset_builders.interleave_curriculum.task import DATASET_FOLDER as CURRICULUM_FOLDER
from model_cards.eval_results import CARD_SPLITS, EvalResults

TEMPLATE = Path(__file__).resolve().parent / "templates" / "stage_checkpoint.md"
TAGS = ["trl", "grpo", "interleaving", "lora", "peft", "text-generation"]
METRIC_NAMES = {"nw_score": "NW score", "exact_match": "Exact match", "partial_credit": "Partial credit"}


def stage_task(summary: dict):
    """The curriculum stage task a run trained (its summary's ``task``)."""
    name = summary.get("task", "")
    try:
        task = tasks.get(name)
    except tasks.UnknownTask:
        task = None
    if task is None or task.curriculum_stage is None:
        raise ValueError(f"summary of run {summary.get('run')!r} is not a curriculum stage run (task {name!r})")
    return task


def eval_results_metadata(results: EvalResults, dataset_repos: dict[str, str]) -> list[EvalResult]:
    """``model-index`` entries: each score of the trained adapter on each task's test split, then on its
    out_of_register split (texts of the registers held out of training) where evaluated.

    ``dataset_repos``: the repo id of each published dataset (``Task.dataset_folder``).
    """
    entries = []
    for row in [row for split in CARD_SPLITS for row in results.rows_for("trained", split)]:
        task = tasks.get(row.task)
        for key, name in METRIC_NAMES.items():
            if getattr(row, key) is None:
                continue
            entries.append(
                EvalResult(
                    task_type="text-generation",
                    task_name=task.description,
                    dataset_type=dataset_repos[task.dataset_folder],
                    dataset_name=task.dataset_title,
                    dataset_config=task.dataset_config,
                    dataset_split=row.split,
                    metric_type={"nw_score": "needleman_wunsch"}.get(key, key),
                    metric_name=name,
                    metric_value=round(getattr(row, key), 4),
                )
            )
    return entries


def _score(row) -> str:
    """The row's NW score, or for arithmetic its partial credit (marked)."""
    if row.score is None:
        return "-"
    return f"{row.score:.3f}" + (" (partial credit)" if row.nw_score is None else "")


def _on_devices(device: str) -> str:
    """``one DEVICE``, or, for the devices of a help of several parts (``combined_help_record`` joins them with
    ", "), ``DEVICE_1, then DEVICE_2``: each part ran on one GPU."""
    devices = device.split(", ")
    return f"one {devices[0]}" if len(devices) == 1 else "one " + ", then one ".join(devices)


def _training_time(summary: dict) -> str:
    seconds = summary.get("wall_seconds")
    if seconds is None:
        return "not recorded"
    device = summary.get("device")
    if device and device != "cpu":
        return f"{seconds / 60:.1f} GPU minutes on {_on_devices(device)} (wall clock)"
    return f"{seconds / 60:.1f} minutes (wall clock{', CPU' if device == 'cpu' else ''})"


def _help_text(summary: dict, minutes: bool) -> str | None:
    """The card's "supervised help" cell: the help's recipe and steps (and ``minutes``), or of a help of several parts
    (``parts`` in its record, training/core/format_start.py) each part's in turn, minutes included; None without one."""
    helped = summary.get("supervised_help")
    if not isinstance(helped, dict):
        return None

    def part(record: dict, minutes: bool) -> str:
        text = f"`training/recipes/{Path(str(record.get('recipe'))).stem}.yaml`, {record.get('steps')} steps"
        seconds = record.get("wall_seconds")
        return text + (f", {seconds / 60:.1f} minutes" if minutes and seconds is not None else "")

    parts = helped.get("parts") or [helped]
    if len(parts) == 1:
        return part(parts[0], minutes)
    return f"{len(parts)} parts, each continuing the one before: " + "; then ".join(part(p, True) for p in parts)


def _rewards(summary: dict) -> str:
    keys = ("reward_first", "reward_last", "reward_best", "reward_best_step")
    if any(summary.get(k) is None for k in keys):
        return "not recorded"
    return (
        f"{summary['reward_first']:.3f}, {summary['reward_last']:.3f}, "
        f"{summary['reward_best']:.3f} at step {summary['reward_best_step']}"
    )


def curriculum_span(stage: int) -> str:
    """What a stage's adapter was trained on, in words: "curriculum stage 1 only", or "curriculum stages 1-N" for a
    later stage, which continues the stage before it (`make train-stage N`, runs/stage-(N-1)/final)."""
    return "curriculum stage 1 only" if stage == 1 else f"curriculum stages 1-{stage}"


def _made(provenance: dict, stage: int, words: int) -> list[tuple[str, str]]:
    """The rows of the card's "How it was made" table, from a shipped adapter's provenance."""
    conversion, weights = provenance["conversion"], provenance["weights"]
    trained = [provenance.get("trained_on"), provenance.get("device") and _on_devices(provenance["device"])]
    if provenance.get("training_minutes") is not None:
        trained.append(f"{provenance['training_minutes']:g} minutes of training (wall clock)")
    size = f"{weights['bytes'] / 1e6:.1f} MB, " if weights.get("bytes") else ""
    rows = [
        (
            "trained on",
            f"{curriculum_span(stage)} ({words} words per text at stage {stage}): task `{provenance['task']}`",
        ),
        ("code", f"interleave-grpo at commit `{provenance['git_commit']}`"),
        ("recipe", f"`{provenance['recipe']}`"),
        ("commands", " then ".join(f"`{c}`" for c in provenance["commands"]) or "not recorded"),
        ("trained", ", ".join(part for part in trained if part) or "not recorded"),
        ("conversion", f"{conversion.get('from')} to {conversion.get('to')}: {conversion.get('method', '')}"),
        ("weights", f"`{weights.get('file')}`, {size}sha256 `{weights.get('sha256')}`"),
    ]
    if provenance.get("eval_sources"):
        rows.append(("scores", "merged from " + ", ".join(f"`{s}`" for s in provenance["eval_sources"])))
    if provenance.get("shipped_by"):
        rows.append(("folder written by", "`python -m publishing.ship_adapter` (`shipped_by` in `provenance.json`)"))
    return rows


def _limitations(summary: dict, stage: int, words: int, evaluated: bool, base_model_note: str | None) -> list[str]:
    lines = [
        f"Trained up to stage {stage} ({words} words per text); longer texts are the later stages' work.",
        "Texts are English, from the curriculum's corpus (the dataset card lists its registers and their "
        "shares). Out-of-register scores, where the results show them, measure a register held out of "
        "training; other languages are untested.",
        "A word is a whitespace token: punctuation attached to a word is part of it.",
    ]
    if base_model_note:
        lines.append(base_model_note)
    if summary.get("collapse_stopped_at") is not None:
        lines.append(
            f"The run was stopped by its collapse guard at step {summary['collapse_stopped_at']} (no "
            "reward variance within the groups); the adapter is the last checkpoint saved before the "
            "collapse began."
        )
    if not evaluated:
        lines.append("Not evaluated yet: the training reward is the only measurement of this adapter.")
    return lines


def render_stage_card(
    summary: dict,
    *,
    repo_id: str,
    base_model: str,
    datasets_repo: str,
    arithmetic_repo: str,
    metric_repo: str,
    license: str,
    eval_results: EvalResults | None = None,
    eval_source: str | None = None,
    plots: list[str] = (),
    base_model_note: str | None = None,
    trl_version: str = "",
    tokenizer_in_repo: bool = True,
    provenance: dict | None = None,
) -> ModelCard:
    """The README.md of a stage checkpoint repo (YAML header with ``model-index`` when evaluated).

    ``provenance``: the ``provenance.json`` of an adapter shipped with the project (``model_cards.shipped_adapter``),
    which the card then says how it was made from.
    """
    task = stage_task(summary)
    stage, words = task.curriculum_stage, task.words
    repo_name = repo_id.split("/")[-1]
    trained = eval_results.rows_for("trained", "test") if eval_results else []
    baseline = {}
    if trained:
        for row in eval_results.rows_for("baseline", "test"):
            baseline[row.task] = f"{_score(row)} | {row.exact_match:.3f}"
        if baseline:
            baseline = {row.task: baseline.get(row.task, "- | -") for row in trained}
    held_out = {}
    if trained:
        for row in eval_results.rows_for("trained", "out_of_register"):
            held_out[row.task] = f"{row.n} | {_score(row)} | {row.exact_match:.3f}"
        if held_out:
            held_out = {row.task: held_out.get(row.task, "- | - | -") for row in trained}
    data = ModelCardData(
        base_model=base_model,
        library_name="peft",
        license=license,
        language="en",
        datasets=[datasets_repo],
        metrics=[metric_repo, "exact_match"],
        pipeline_tag="text-generation",
        tags=list(TAGS),
        model_name=repo_name,
        eval_results=eval_results_metadata(
            eval_results, {CURRICULUM_FOLDER: datasets_repo, ARITHMETIC_FOLDER: arithmetic_repo}
        )
        if trained
        else None,
    )
    helped = summary.get("supervised_help")
    init = helped.get("from") if isinstance(helped, dict) else summary.get("init_adapter")  # the help's start
    start = (provenance or {}).get("started_from") or (
        f"stage {stage - 1}'s final adapter (`{Path(init).parent.name}/final`)"
        if init and stage > 1
        else (f"adapter `{init}`" if init else "a fresh LoRA adapter on the base model")
    )
    plots = [str(p) for p in plots]
    reward_plot = next((p for p in plots if Path(p).name == "reward.png"), None)
    return ModelCard.from_template(
        data,
        template_path=str(TEMPLATE),
        repo_id=repo_id,
        repo_name=repo_name,
        stage=stage,
        words=words,
        datasets_repo=datasets_repo,
        metric_repo=metric_repo,
        summary=summary,
        grpo=summary.get("grpo") or {},
        lora=summary.get("lora") or {},
        start=start,
        training_time=_training_time(summary),
        rewards=_rewards(summary),
        trl_version=trl_version,
        max_new_tokens=summary.get("completion_budget") or (summary.get("grpo") or {}).get("max_completion_length"),
        trained_rows=trained,
        baseline=baseline,
        held_out=held_out,
        eval=eval_results,
        eval_source=eval_source,
        score=_score,
        reward_plot=reward_plot,
        tokenizer_in_repo=tokenizer_in_repo,
        reward_funcs=", ".join(
            (summary.get("recipe") or {}).get("reward_funcs") or [f.__name__ for f in task.reward_funcs]
        ),
        other_plots=[p for p in plots if p != reward_plot],
        limitations=_limitations(summary, stage, words, bool(trained), base_model_note),
        provenance=provenance,
        made=_made(provenance, stage, words) if provenance else [],
        help_only=summary.get("max_steps") == 0 and bool(summary.get("supervised_help")),
        help_text=_help_text(summary, minutes=summary.get("max_steps") != 0),  # alone, its time is the stage's
    )
