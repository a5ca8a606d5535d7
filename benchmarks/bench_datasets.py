"""``python -m benchmarks.bench_datasets --out results/datasets``: measure how fast problems are generated.

Per curriculum stage and for arithmetic: the generator's one-off set-up time and problems per second, and for
the ``IterableDataset`` that training reads the seconds to its first problem and problems per second after it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from itertools import islice
from pathlib import Path

from dataset_builders.arithmetic import ArithmeticProblems, arithmetic_stream
from dataset_builders.interleave_curriculum import STAGE_WORDS, InterleaveProblems, curriculum_stream


def _rate(make_items, count: int) -> float:
    started = time.perf_counter()
    n = sum(1 for _ in make_items(count))
    return n / (time.perf_counter() - started)


def _stream_rate(stream, count: int) -> tuple[float, float]:
    """(seconds to the first problem, problems/s after it) of an IterableDataset."""
    started = time.perf_counter()
    items = iter(stream)
    next(items)
    first = time.perf_counter() - started
    return first, _rate(lambda n: islice(items, n), count)


def _cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def measure(count: int = 3000) -> list[dict]:
    """One row per dataset config: set-up seconds and problems/s (generator, IterableDataset)."""
    from dataset_builders.corpus import load_corpus

    corpus = load_corpus()
    rows = []
    for stage, words in STAGE_WORDS.items():
        started = time.perf_counter()
        problems = InterleaveProblems(corpus, "train", words)
        setup = time.perf_counter() - started
        stream_first, stream_rate = _stream_rate(curriculum_stream(stage=stage, corpus=corpus), count)
        rows.append(
            {
                "dataset": "interleave-curriculum",
                "config": f"stage-{stage}",
                "setup_s": round(setup, 3),
                "generator_per_s": round(_rate(lambda n, problems=problems: (problems[i] for i in range(n)), count)),
                "stream_first_s": round(stream_first, 3),
                "stream_per_s": round(stream_rate),
            }
        )
    started = time.perf_counter()
    arithmetic = ArithmeticProblems()
    setup = time.perf_counter() - started
    rows.append(
        {
            "dataset": "arithmetic",
            "config": "3x2",
            "setup_s": round(setup, 3),
            "generator_per_s": round(_rate(lambda n: (arithmetic.problem("train", i) for i in range(n)), count)),
        }
    )
    rows[-1]["stream_first_s"], rate = (round(v, 3) for v in _stream_rate(arithmetic_stream(), count))
    rows[-1]["stream_per_s"] = round(rate)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_datasets", description=__doc__)
    parser.add_argument("--out", type=Path, help="write speed.json and speed.md into this folder")
    parser.add_argument("--count", type=int, default=3000, help="problems generated per measurement")
    args = parser.parse_args(argv)
    rows = measure(args.count)
    lines = [
        "| dataset | config | generator set-up s | problems/s (generator) | stream: s to first problem "
        "| problems/s (stream) |",
        "|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {r['dataset']} | {r['config']} | {r['setup_s']:.2f} | {r['generator_per_s']:,} "
        f"| {r['stream_first_s']:.2f} | {r['stream_per_s']:,} |"
        for r in rows
    ]
    table = "\n".join(lines)
    print(table)
    if args.out:
        command = "python -m benchmarks.bench_datasets " + " ".join(argv if argv is not None else sys.argv[1:])
        machine = f"{_cpu_name()} ({os.cpu_count()} cores), Python {platform.python_version()}, one process"
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "speed.json").write_text(
            json.dumps({"command": command.strip(), "machine": machine, "count": args.count, "rows": rows}, indent=1)
            + "\n"
        )
        (args.out / "speed.md").write_text(f"{table}\n\nMade by `{command.strip()}` on {machine}.\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
