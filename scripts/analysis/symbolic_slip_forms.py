"""Which forms of code-like word answers first slip on: for evaluation folders with ``problems.jsonl`` (their
``first_slip_word``), the first slips per task, how many fall on a symbolic word (``is_symbolic``), and those sorted by
form: a URL, LaTeX (a backslash, or braces back to back), a reST role or backtick markup, an angle-bracket tag or
placeholder, or a code-like word of another form (what the synthetic identifiers of
``dataset_builders/interleave_curriculum/identifiers.py`` build: snake_case, dotted names, calls, paths, options,
scopes, ...). Issue 18: whether the out-of-register first slips fall on forms the identifier problems train.

    .venv/bin/python scripts/analysis/symbolic_slip_forms.py FOLDER ... [--stages 4-6] [--out FILE.md]

The forms are read from the slipped word alone, first match in ``FORMS``' order. No GPU; a second.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a script from anywhere
from scripts.analysis.emit import emit  # noqa: E402
from scripts.summarize_runs import read_jsonl  # noqa: E402
from training.cli.evaluate import parse_stages  # noqa: E402  (the eval's own reading of a stages spec)
from training.core.slip_diagnostics import is_symbolic  # noqa: E402

# form -> what marks it, tried in this order; a symbolic word that matches none is "code-like"
FORMS = {
    "URL": re.compile(r"https?://|www\.", re.IGNORECASE),
    "LaTeX": re.compile(r"\\|\}\{"),
    "reST role or backticks": re.compile(r"`|(?<![:\w]):[a-z][\w-]*:"),
    "angle brackets": re.compile(r"<[^<>]*>"),
}
OTHER = "code-like"


def form(word: str) -> str:
    """The form of a symbolic word: the first of ``FORMS`` it matches, else ``OTHER``."""
    return next((name for name, mark in FORMS.items() if mark.search(word)), OTHER)


def stage_tasks(spec: str | None) -> set[str] | None:
    """The task names of the stages ``spec`` gives (``4-6``: stage-4 to stage-6), or None (every task) without one."""
    return {f"stage-{n}" for n in parse_stages(spec)} if spec else None


def count_forms(folder: Path, tasks: set[str] | None) -> dict:
    """{first slips, on symbolic words, by form} over the trained rows of ``folder`` (the tasks given, or all)."""
    rows = read_jsonl(folder / "problems.jsonl")
    if not rows:
        raise SystemExit(f"{folder}: no problems.jsonl or problems.jsonl.gz")
    slipped = [
        r["first_slip_word"]
        for r in rows
        if r.get("label", "trained") == "trained" and r.get("first_slip_word") and (tasks is None or r["task"] in tasks)
    ]
    symbolic = [w for w in slipped if is_symbolic(w)]
    return {"first_slips": len(slipped), "symbolic": len(symbolic), "forms": Counter(form(w) for w in symbolic)}


def render(counts: list[tuple[Path, dict]], stages: str | None) -> str:
    names = [*FORMS, OTHER]
    lines = [
        f"First slips{f' at stages {stages}' if stages else ''}, and those on a symbolic word by form:",
        "",
        "| folder | first slips | on a symbolic word | " + " | ".join(names) + " |",
        "| --- | --- | --- | " + " | ".join("---" for _ in names) + " |",
    ]
    for folder, c in counts:
        by_form = " | ".join(str(c["forms"].get(name, 0)) for name in names)
        lines.append(f"| `{folder}` | {c['first_slips']} | {c['symbolic']} | {by_form} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--stages", help="curriculum stages, e.g. 6 or 4-6 (default: every task)")
    parser.add_argument("--out", type=Path, help="also write the table here (markdown)")
    args = parser.parse_args(argv)
    try:
        tasks = stage_tasks(args.stages)
    except ValueError as error:
        parser.error(str(error))
    emit(render([(f, count_forms(f, tasks)) for f in args.folders], args.stages), args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
