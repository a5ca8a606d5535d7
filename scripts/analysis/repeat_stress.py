"""A stress test of holding one's place where a text repeats itself: the same held-out problems twice, as drawn and
with a repeated phrase (``repeats.py``: a 2-4 word phrase of one text copied over other words of both, ~15% of their
words), written as two ``make eval DATA=...`` JSONL files of ``text_a``/``text_b`` pairs in the same order. Scoring an
adapter on both and pairing the scores (``scripts/paired_scores.py``: the problems of both files have the same ids)
says what repeated phrases cost it, problem by problem, in register: the cause that batch 34-35's first slips point to
(a third or more of them fall where the stream's place repeats), tested by changing only that.

    .venv/bin/python scripts/analysis/repeat_stress.py --words 50 --n 128 --out DIR   # DIR/{plain,repeated}.jsonl
    .venv/bin/python -m training.cli.evaluate --adapter ADAPTER --stages 3 --n 128 --data DIR/plain.jsonl \\
        --completions --out DIR/ADAPTER-plain                                        # the same for repeated.jsonl
    .venv/bin/python scripts/paired_scores.py DIR/ADAPTER-plain DIR/ADAPTER-repeated

The phrase of problem ``i`` is keyed by ``repeat-stress/split=SPLIT/n_words=N/index=i``, so the files are the same on
every machine. Also written: ``DIR/stress.json``, where each problem's phrase is (its source text, length, start and
the copies' starts in each text).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a script from anywhere


def stress_pairs(split: str, n_words: int, n: int, seed: int = 0) -> tuple[list[dict], list[dict], list[dict]]:
    """(the first ``n`` problems of ``split`` at ``n_words`` words as drawn, the same with a repeated phrase each, where
    each phrase went), as ``text_a``/``text_b`` pairs."""
    from dataset_builders.corpus import load_corpus
    from dataset_builders.interleave_curriculum.problems import InterleaveProblems
    from dataset_builders.interleave_curriculum.repeats import repeated_spans, repeated_texts

    problems = InterleaveProblems(load_corpus(), split, n_words, seed)
    plain, repeated, where = [], [], []
    for index in range(n):
        row = problems[index]
        key = f"repeat-stress/split={split}/n_words={n_words}/index={index}"
        text_a, text_b = repeated_texts(row["text_a"], row["text_b"], key)
        plain.append({"text_a": row["text_a"], "text_b": row["text_b"], "id": row["id"]})
        repeated.append({"text_a": text_a, "text_b": text_b, "id": row["id"]})
        source, length, start, copies = repeated_spans(key, len(row["text_a"].split()), len(row["text_b"].split()))
        where.append({"id": row["id"], "source": source, "length": length, "start": start, "copies": copies})
    return plain, repeated, where


def write_jsonl(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--words", type=int, required=True, help="words per text (a stage's: 10, 25, 50, ...)")
    parser.add_argument("--n", type=int, default=128, help="problems (default 128)")
    parser.add_argument("--split", default="validation", help="a held-out split (default validation)")
    parser.add_argument("--out", type=Path, required=True, help="the folder for plain.jsonl, repeated.jsonl")
    args = parser.parse_args(argv)
    if args.split == "train":
        parser.error("--split train: the stress test reads held-out problems (validation, test, out_of_register)")
    plain, repeated, where = stress_pairs(args.split, args.words, args.n)
    args.out.mkdir(parents=True, exist_ok=True)
    write_jsonl(args.out / "plain.jsonl", plain)
    write_jsonl(args.out / "repeated.jsonl", repeated)
    (args.out / "stress.json").write_text(json.dumps(where, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(plain)} pairs of {args.words} words ({args.split}) to {args.out}/plain.jsonl and repeated.jsonl")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
