"""The tables of ``make eval``: ``eval.md`` (scores per split, in register vs out of register, slips) and
``samples.md``."""

from __future__ import annotations

from model_cards.eval_results import EvalResults

LABELS = ("baseline", "trained")
SPLIT_TITLES = {
    "test": "test split: in register (held-out works of the training registers)",
    "out_of_register": "out_of_register split: the registers held out of training",
    "out_of_register_validation": "out_of_register_validation split: other documents of the held-out registers, "
    "to choose recipes on",
    "validation": "validation split",
    "data": "the user's texts (DATA)",
}


def _score_table(results: EvalResults, split: str) -> list[str]:
    rows = [r for r in results.rows if r.split == split]
    labels = [label for label in LABELS if any(r.label == label for r in rows)]
    header = " | ".join(f"{label} {metric}" for label in labels for metric in ("score", "exact"))
    lines = [f"| task | words | n | {header} |", "|" + " --- |" * (3 + 2 * len(labels))]
    by_key = {(r.label, r.task): r for r in rows}
    for task in dict.fromkeys(r.task for r in rows):
        first = next(r for r in rows if r.task == task)
        cells = []
        for label in labels:
            scored = by_key.get((label, task))
            cells += [f"{scored.score:.3f}", f"{scored.exact_match:.1%}"] if scored else ["", ""]
        lines.append(
            f"| {task} | {first.words if first.words is not None else '-'} | {first.n} | {' | '.join(cells)} |"
        )
    return lines


def _register_gap_table(results: EvalResults) -> list[str]:
    """Per task and label, the test score beside the out_of_register score and their difference."""
    by_key = {(r.label, r.split, r.task): r for r in results.rows}
    labels = [
        label
        for label in LABELS
        if any((label, "out_of_register", r.task) in by_key and (label, "test", r.task) in by_key for r in results.rows)
    ]
    if not labels:
        return []
    tasks = [t for t in dict.fromkeys(r.task for r in results.rows if r.split == "out_of_register")]
    header = " | ".join(f"{label} {column}" for label in labels for column in ("test", "out_of_register", "difference"))
    lines = [
        "## In register vs out of register",
        "",
        "Score on the test split beside the score on the out_of_register split (out_of_register - test).",
        "",
        f"| task | words | {header} |",
        "|" + " --- |" * (2 + 3 * len(labels)),
    ]
    for task in tasks:
        cells = []
        for label in labels:
            inside, outside = by_key.get((label, "test", task)), by_key.get((label, "out_of_register", task))
            cells += (
                [f"{inside.score:.3f}", f"{outside.score:.3f}", f"{outside.score - inside.score:+.3f}"]
                if inside and outside
                else ["", "", ""]
            )
        words = by_key.get((labels[0], "out_of_register", task))
        lines.append(f"| {task} | {words.words if words and words.words is not None else '-'} | {' | '.join(cells)} |")
    return lines + [""]


def _slips_table(diagnostics: dict) -> list[str]:
    groups = [g for g in diagnostics.get("groups", []) if "first_slip" in g]
    if not groups:
        return []
    lines = [
        "## Slips",
        "",
        "A target word slips when the NW alignment does not match it; the first slip's stream is the text (A or "
        "B) that target word belongs to. Median first slip: its position as a fraction of the target. Token "
        f"limit: completions that ran to the budget without ending. Repeated phrase: the completion repeats a "
        f"{diagnostics['repeat_ngram']}-word phrase the target does not. On a symbolic word: first slips on a "
        "code-like or numeric word (digits, dots, underscores, slashes, brackets or camelCase inside it), and such "
        "words' share of the target. Rates by position and by tokens per word: `diagnostics.json`, `slips.png`.",
        "",
        "| label | split | task | problems | with a slip | first slip in A / B | median first slip | "
        "on a symbolic word (share of words) | token limit | repeated phrase |",
        "|" + " --- |" * 10,
    ]
    for g in groups:
        first = g["first_slip"]
        median = "-" if first["median_position"] is None else f"{first['median_position']:.2f}"
        share = first.get("symbolic_share_of_target_words")
        symbolic = "-" if share is None else f"{first.get('on_symbolic_words', 0)} ({share:.1%})"
        lines.append(
            f"| {g['label']} | {g['split']} | {g['task']} | {g['problems']} | {first['problems']} | "
            f"{first['stream']['A']} / {first['stream']['B']} | {median} | {symbolic} | {g['token_limit']['runs']} | "
            f"{g['repeated_phrase']['runs']} |"
        )
    return lines + [""]


def render_markdown(results: EvalResults, diagnostics: dict | None = None, notes: list[str] = ()) -> str:
    """``eval.md``: one score table per split (baseline vs trained), test vs out_of_register, then the slips."""
    title = f"# Evaluation: {results.model}" + (f" + {results.adapter}" if results.adapter else "")
    lines = [
        title,
        "",
        f"Greedy, {results.device}, {results.generated_at}. Score: NW score for curriculum stages, "
        "partial credit for arithmetic.",
        "",
    ]
    if results.data:
        data = results.data
        counted = (
            f"{data['texts']} texts, paired across texts (seed {data['seed']})"
            if "texts" in data
            else f"{data['pairs']} given pairs"
        )
        lines += [f"Data: `{data['source']}` ({data['kind']}, {counted}).", ""]
    lines += [f"- {note}" for note in notes] + ([""] if notes else [])
    for split in results.splits:
        lines += [f"## {SPLIT_TITLES.get(split, split)}", "", *_score_table(results, split), ""]
    lines += _register_gap_table(results)
    lines += _slips_table(diagnostics or {})
    return "\n".join(lines).rstrip() + "\n"


def render_samples(samples: list[dict]) -> str:
    """Markdown: per task, split and label, the prompt, the reference and the greedy completion, with its score (the
    ``score`` of its problem record, named by the task)."""
    lines = ["# Greedy samples", ""]
    for sample in samples:
        split = f", {sample['split']}" if sample.get("split") else ""
        lines += [
            f"## {sample['task']}{split}, {sample['label']}, {sample['score_label']} {sample['score']:.3f}",
            "",
            "Prompt:",
            "",
            "```",
            sample["prompt"],
            "```",
            "",
            "Reference:",
            "",
            "```",
            sample["reference"],
            "```",
            "",
            "Completion:",
            "",
            "```",
            sample["completion"],
            "```",
            "",
        ]
    return "\n".join(lines)
