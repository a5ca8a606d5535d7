"""Benchmark of the NW core against a pure Python DP, Biopython and rapidfuzz.

    python -m benchmarks.bench_metric --results DIR     (make bench-metric)


Pairs of n-word texts (a reference and a prediction with ~20% of its words edited), the process
pinned to one core (but for the rows that say otherwise); every time is the best of several samples
of enough calls to take >= 20 ms.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import random
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from metrics.needleman_wunsch.nw_alignment import nw_score, nw_scores, sequence_scores, split_words, to_ids
from metrics.needleman_wunsch.nw_kernels import (
    DEFAULT_SCORING,
    SCORE_KERNELS,
    TRACEBACK_KERNELS,
    Scoring,
    alignment_score,
    available_backends,
)

logger = logging.getLogger(__name__)
SIZES = (10, 100, 500, 1000)
BATCH = 128
LCS = Scoring(1, 0, 0)


def textbook_dp(a, b) -> int:
    """The pure Python baseline: the full matrix, one max() per cell, on the words themselves."""
    h = [[-j for j in range(len(b) + 1)]]
    for i in range(1, len(a) + 1):
        row = [-i]
        for j in range(1, len(b) + 1):
            row.append(max(h[i - 1][j - 1] + (1 if a[i - 1] == b[j - 1] else -1), h[i - 1][j] - 1, row[j - 1] - 1))
        h.append(row)
    return h[-1][-1]


def make_pair(n: int, rng: random.Random) -> tuple[str, str]:
    """A reference of n words from a Zipf-like 5,000-word vocabulary and a prediction with ~20% edits."""
    vocab = [f"w{i}" for i in range(5000)]
    weights = [1 / (i + 1) for i in range(len(vocab))]
    ref = rng.choices(vocab, weights, k=n)
    pred = []
    for word in ref:
        r = rng.random()
        if r < 0.07:
            continue  # deleted
        pred.append(rng.choices(vocab, weights)[0] if r < 0.14 else word)
        if r > 0.93:
            pred.append(rng.choices(vocab, weights)[0])  # inserted
    return " ".join(pred), " ".join(ref)


def best_time(fn, min_sample_s: float = 0.02, samples: int = 5) -> float:
    """Seconds per call: the best of ``samples`` samples, each of enough calls to last ``min_sample_s``."""
    fn()
    loops, elapsed = 1, 0.0
    while True:
        start = time.perf_counter()
        for _ in range(loops):
            fn()
        elapsed = time.perf_counter() - start
        if elapsed >= min_sample_s:
            break
        loops *= 2 if elapsed == 0 else max(2, int(min_sample_s / elapsed) + 1)
    best = elapsed / loops
    for _ in range(samples - 1):
        start = time.perf_counter()
        for _ in range(loops):
            fn()
        best = min(best, (time.perf_counter() - start) / loops)
    return best


def biopython_aligner():
    try:
        from Bio.Align import PairwiseAligner
    except ImportError:
        return None
    return PairwiseAligner(mode="global", match_score=1, mismatch_score=-1, open_gap_score=-1, extend_gap_score=-1)


def pair_rows(n: int, pred: str, ref: str) -> dict[str, float]:
    """Seconds per pair for every method on one n-word pair; checks that all agree on S first."""
    p, r = split_words(pred), split_words(ref)
    a, b = to_ids(p, r)
    expected = textbook_dp(p, r)
    methods = {"this implementation (auto, from strings)": lambda: nw_score(pred, ref)}
    arrays = np.array(a, np.int32), np.array(b, np.int32)
    for name in available_backends("score"):
        ids = arrays if name in ("numba", "numpy") else (a, b)
        methods[f"kernel: {name} (ids as {'int32 arrays' if ids is arrays else 'lists'})"] = (
            lambda k=SCORE_KERNELS[name], ids=ids: k(*ids, DEFAULT_SCORING)
        )
        assert SCORE_KERNELS[name](*ids, DEFAULT_SCORING) == expected, name
    methods["pure Python textbook DP (on words)"] = lambda: textbook_dp(p, r)
    aligner = biopython_aligner()
    if aligner is not None:
        chars_a, chars_b = "".join(chr(0x100 + i) for i in a), "".join(chr(0x100 + i) for i in b)
        assert aligner.score(p, r) == aligner.score(chars_a, chars_b) == expected
        methods["Biopython PairwiseAligner (word lists)"] = lambda: aligner.score(p, r)
        methods["Biopython PairwiseAligner (words as characters)"] = lambda: aligner.score(chars_a, chars_b)
    for name in available_backends("traceback"):
        ids = arrays if name in ("numba", "numpy") else (a, b)
        methods[f"traceback: {name} (S and ops)"] = lambda k=TRACEBACK_KERNELS[name], ids=ids: k(*ids, DEFAULT_SCORING)
        assert TRACEBACK_KERNELS[name](*ids, DEFAULT_SCORING)[0] == expected, name
    return {name: best_time(fn, samples=5 if n < 1000 or "ython" not in name else 2) for name, fn in methods.items()}


def batch_rows(n: int, rng: random.Random, all_cores: set[int]) -> dict[str, float]:
    """Seconds for a batch of BATCH n-word pairs: NW scores from strings, and the dense reward's trigram LCS."""
    pairs = [make_pair(n, rng) for _ in range(BATCH)]
    preds, refs = [p for p, _ in pairs], [r for _, r in pairs]
    trigrams = [(_trigrams(p), _trigrams(r)) for p, r in pairs]
    jobs = {
        "nw_scores (from strings)": lambda backend, workers: nw_scores(preds, refs, backend=backend, workers=workers),
        "LCS of word trigrams (the dense reward's core)": lambda backend, workers: sequence_scores(
            trigrams, LCS, backend, workers
        ),
    }
    rows = {}
    for label, job in jobs.items():
        for backend in ["auto", *available_backends("score")]:
            if backend != "python":
                rows[f"{label}, {backend}, one core"] = best_time(
                    lambda job=job, backend=backend: job(backend, 1), samples=5
                )
        if "rapidfuzz" in available_backends("score") and hasattr(os, "sched_setaffinity") and len(all_cores) > 1:
            pinned = os.sched_getaffinity(0)
            os.sched_setaffinity(0, all_cores)
            rows[f"{label}, rapidfuzz, workers=-1 ({len(all_cores)} cores)"] = best_time(
                lambda job=job: job("rapidfuzz", -1), samples=5
            )
            os.sched_setaffinity(0, pinned)
    return rows


def _trigrams(text: str) -> list[tuple]:
    words = ["<s>", *text.split(), "</s>"]
    return list(zip(words, words[1:], words[2:]))


def numba_warm_up_seconds() -> dict[str, float]:
    """First-call time of the numba kernels in fresh processes: compiled into an empty cache, then loaded."""
    if "numba" not in available_backends("score"):
        return {}
    import tempfile

    code = (
        "import time; from metrics.needleman_wunsch import nw_kernels as k; t = time.perf_counter(); "
        "k._numba_warm_up(); print(time.perf_counter() - t)"
    )
    root = Path(__file__).resolve().parents[1]
    out = {}
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        for label in ("empty cache (compiles)", "cached (loads)"):
            result = subprocess.run(
                [sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True, check=True
            )
            out[label] = float(result.stdout.strip().splitlines()[-1])
    return out


def machine() -> dict:
    cpu = platform.processor() or platform.machine()
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    versions = {}
    for module in ("numpy", "numba", "rapidfuzz", "Bio"):
        try:
            versions[module] = __import__(module).__version__
        except ImportError:
            versions[module] = None
    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(), "versions": versions}


def markdown(result: dict) -> str:
    sizes = [str(n) for n in result["sizes"]]
    base = "this implementation (auto, from strings)"
    lines = [
        "Time per n x n-word pair (ms, best of 5) and its ratio to this implementation (auto, from strings).",
        "",
        "| method | " + " | ".join(f"{n} words" for n in sizes) + " |",
        "|---|" + "---|" * len(sizes),
    ]
    for method in result["pairs"][sizes[0]]:
        cells = []
        for n in sizes:
            t, t0 = result["pairs"][n][method], result["pairs"][n][base]
            cells.append(f"{t * 1e3:.3g} ms ({t / t0:.2g}x)")
        lines.append(f"| {method} | " + " | ".join(cells) + " |")
    lines += [
        "",
        f"Batches of {BATCH} pairs of {result['batch_words']} words (seconds per batch, best of 5):",
        "",
        "| batch, backend, cores | seconds |",
        "|---|---|",
    ]
    lines += [f"| {name} | {t:.3f} |" for name, t in result["batch"].items()]
    if result["numba_warm_up"]:
        lines += [
            "",
            "First call of the numba kernels in a fresh process:",
            "",
            "| numba cache | seconds |",
            "|---|---|",
        ]
        lines += [f"| {name} | {t:.2f} |" for name, t in result["numba_warm_up"].items()]
    m = result["machine"]
    lines += [
        "",
        f"Machine: {m['cpu']}, {m['cores']} cores (the benchmark pinned to one), Python {m['python']}, "
        + ", ".join(f"{k} {v}" for k, v in m["versions"].items() if v)
        + ".",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--results", type=Path, help="write bench.json, bench.md and command.txt here")
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    all_cores = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else set()
    if all_cores:
        os.sched_setaffinity(0, {min(all_cores)})
    rng = random.Random(args.seed)
    alignment_score([1, 2], [1, 3])  # numba's one-time load happens here, not in a timing
    result = {"sizes": args.sizes, "pairs": {}, "machine": machine(), "seed": args.seed}
    for n in args.sizes:
        logger.info("timing %d-word pairs", n)
        result["pairs"][str(n)] = pair_rows(n, *make_pair(n, rng))
    result["batch_words"] = max(args.sizes)
    logger.info("timing batches of %d pairs of %d words", BATCH, result["batch_words"])
    result["batch"] = batch_rows(result["batch_words"], rng, all_cores)
    result["numba_warm_up"] = numba_warm_up_seconds()
    table = markdown(result)
    print(table)
    if args.results:
        args.results.mkdir(parents=True, exist_ok=True)
        (args.results / "bench.json").write_text(json.dumps(result, indent=2) + "\n")
        (args.results / "bench.md").write_text(table)
        command = "python -m benchmarks.bench_metric " + " ".join(argv if argv is not None else sys.argv[1:])
        (args.results / "command.txt").write_text(f"make bench-metric  # {command}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
