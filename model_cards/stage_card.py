"""The model card of a stage checkpoint, rendered from the run's ``summary.json`` and its eval file.

Every number on the card comes from those two files; a stage with no eval file gets "not evaluated yet"
and no ``model-index``.
"""

from __future__ import annotations

from pathlib import Path

from huggingface_hub import EvalResult, ModelCard, ModelCardData

from model_cards.eval_results import EvalResults

TEMPLATE = Path(__file__).resolve().parent / "templates" / "stage_checkpoint.md"
TAGS = ["trl", "grpo", "interleaving", "lora", "peft", "text-generation"]
METRIC_NAMES = {"nw_score": "NW score", "exact_match": "Exact match", "partial_credit": "Partial credit"}


def stage_of(summary: dict) -> int:
    """The curriculum stage a run trained (from its recipe)."""
    stage = (summary.get("recipe") or {}).get("stage")
    task = summary.get("task", "")
    if stage is None and task.startswith("stage-"):
        stage = int(task.removeprefix("stage-"))
    if not isinstance(stage, int):
        raise ValueError(f"summary of run {summary.get('run')!r} is not a curriculum stage run (task {task!r})")
    return stage


def eval_results_metadata(results: EvalResults, datasets_repo: str, arithmetic_repo: str) -> list[EvalResult]:
    """``model-index`` entries: NW score and exact match of the trained adapter on each test split evaluated."""
    entries = []
    for row in results.rows_for("trained", "test"):
        curriculum = row.task != "arithmetic"
        for key, name in METRIC_NAMES.items():
            if getattr(row, key) is None:
                continue
            entries.append(EvalResult(
                task_type="text-generation", task_name="Interleaving two texts" if curriculum else "Multiplication",
                dataset_type=datasets_repo if curriculum else arithmetic_repo,
                dataset_name=f"Interleave curriculum {row.task}" if curriculum else "Arithmetic control",
                dataset_config=row.task if curriculum else None, dataset_split=row.split,
                metric_type={"nw_score": "needleman_wunsch"}.get(key, key), metric_name=name,
                metric_value=round(getattr(row, key), 4),
            ))
    return entries


def _score(row) -> str:
    """The row's NW score, or for arithmetic its partial credit (marked)."""
    if row.score is None:
        return "-"
    return f"{row.score:.3f}" + (" (partial credit)" if row.nw_score is None else "")


def _training_time(summary: dict) -> str:
    seconds = summary.get("wall_seconds")
    if seconds is None:
        return "not recorded"
    device = summary.get("device")
    if device and device != "cpu":
        return f"{seconds / 60:.1f} GPU minutes on one {device} (wall clock)"
    return f"{seconds / 60:.1f} minutes (wall clock{', CPU' if device == 'cpu' else ''})"


def _rewards(summary: dict) -> str:
    keys = ("reward_first", "reward_last", "reward_best", "reward_best_step")
    if any(summary.get(k) is None for k in keys):
        return "not recorded"
    return (f"{summary['reward_first']:.3f}, {summary['reward_last']:.3f}, "
            f"{summary['reward_best']:.3f} at step {summary['reward_best_step']}")


def _limitations(summary: dict, stage: int, words: int, evaluated: bool, base_model_note: str | None) -> list[str]:
    lines = [f"Trained on stage {stage} only ({words} words per text); longer texts are the later stages' work.",
             "Texts are public-domain English prose (US State of the Union addresses, Gutenberg novels); other "
             "genres and languages are untested.",
             "A word is a whitespace token: punctuation attached to a word is part of it."]
    if base_model_note:
        lines.append(base_model_note)
    if summary.get("collapse_stopped_at") is not None:
        lines.append(f"The run was stopped by its collapse guard at step {summary['collapse_stopped_at']} (no "
                     "reward variance within the groups); the adapter is the last checkpoint saved before the "
                     "collapse began.")
    if not evaluated:
        lines.append("Not evaluated yet: the training reward is the only measurement of this adapter.")
    return lines


def render_stage_card(summary: dict, *, repo_id: str, base_model: str, datasets_repo: str, arithmetic_repo: str,
                      metric_repo: str, license: str, eval_results: EvalResults | None = None,
                      eval_source: str | None = None, plots: list[str] = (), base_model_note: str | None = None,
                      trl_version: str = "", tokenizer_in_repo: bool = True) -> ModelCard:
    """The README.md of a stage checkpoint repo (YAML header with ``model-index`` when evaluated)."""
    from dataset_builders.interleave_curriculum import STAGE_WORDS
    from dataset_builders.interleave_curriculum.rewards import INTERLEAVE_REWARDS

    stage = stage_of(summary)
    words = STAGE_WORDS[stage]
    repo_name = repo_id.split("/")[-1]
    trained = eval_results.rows_for("trained", "test") if eval_results else []
    baseline = {}
    if trained:
        for row in eval_results.rows_for("baseline", "test"):
            baseline[row.task] = f"{_score(row)} | {row.exact_match:.3f}"
        if baseline:
            baseline = {row.task: baseline.get(row.task, "- | -") for row in trained}
    data = ModelCardData(
        base_model=base_model, library_name="peft", license=license, language="en",
        datasets=[datasets_repo], metrics=[metric_repo, "exact_match"], pipeline_tag="text-generation",
        tags=list(TAGS), model_name=repo_name,
        eval_results=eval_results_metadata(eval_results, datasets_repo, arithmetic_repo) if trained else None,
    )
    init = summary.get("init_adapter")
    start = (f"stage {stage - 1}'s final adapter (`{Path(init).parent.name}/final`)" if init and stage > 1
             else (f"adapter `{init}`" if init else "a fresh LoRA adapter on the base model"))
    plots = [str(p) for p in plots]
    reward_plot = next((p for p in plots if Path(p).name == "reward.png"), None)
    return ModelCard.from_template(
        data, template_path=str(TEMPLATE), repo_id=repo_id, repo_name=repo_name, stage=stage, words=words,
        datasets_repo=datasets_repo, metric_repo=metric_repo, summary=summary,
        grpo=summary.get("grpo") or {}, lora=summary.get("lora") or {}, start=start,
        training_time=_training_time(summary), rewards=_rewards(summary), trl_version=trl_version,
        max_new_tokens=(summary.get("grpo") or {}).get("max_completion_length") or 2 * words * 3,
        trained_rows=trained, baseline=baseline, eval=eval_results, eval_source=eval_source, score=_score,
        reward_plot=reward_plot, tokenizer_in_repo=tokenizer_in_repo,
        reward_funcs=", ".join((summary.get("recipe") or {}).get("reward_funcs")
                               or [f.__name__ for f in INTERLEAVE_REWARDS]), other_plots=[p for p in plots if p != reward_plot],
        limitations=_limitations(summary, stage, words, bool(trained), base_model_note),
    )
