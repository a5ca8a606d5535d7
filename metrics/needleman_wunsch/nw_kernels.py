"""Needleman-Wunsch dynamic programs over integer ids: score and traceback, one kernel per backend.

Backends, fastest first: numba (anti-diagonal SIMD score, compiled lazily on first use and cached
on disk), rapidfuzz (weighted Levenshtein, score only; first for LCS-like scores, where it is
bit-parallel), numpy (row-wise with a prefix max) and plain Python. All return the exact textbook
score for integral scoring parameters; fractional ones run on numpy and Python (float64).
"""

from __future__ import annotations

import logging
import math
import numbers
import os
from dataclasses import dataclass
from functools import cached_property

import numpy as np

logger = logging.getLogger(__name__)

MATCH, SUBSTITUTE, INSERT, DELETE = 0, 1, 2, 3
OP_NAMES = ("match", "substitute", "insert", "delete")
SCORE_BACKENDS = ("numba", "rapidfuzz", "numpy", "python")
TRACEBACK_BACKENDS = ("numba", "numpy", "python")
BACKEND_ENV = "NEEDLEMAN_WUNSCH_BACKEND"
_INT32_LIMIT = 2**31 - 1


@dataclass(frozen=True)
class Scoring:
    """Linear-gap global alignment: score per matched, mismatched and gapped word."""

    match: float = 1
    mismatch: float = -1
    gap: float = -1

    def __post_init__(self):
        for name in ("match", "mismatch", "gap"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
                raise ValueError(f"{name} must be a finite number, got {value!r}")

    @cached_property
    def integral(self) -> bool:
        return all(float(x).is_integer() for x in (self.match, self.mismatch, self.gap))

    def as_ints(self) -> tuple[int, int, int]:
        return int(self.match), int(self.mismatch), int(self.gap)

    def bound(self, n: int, m: int) -> float:
        """An upper bound on |score| of any cell of an n x m alignment."""
        return (n + m + 1) * max(abs(self.match), abs(self.mismatch), abs(self.gap))


DEFAULT_SCORING = Scoring()


# --- plain Python: the textbook recurrence -------------------------------------------------


def score_python(a, b, scoring: Scoring = DEFAULT_SCORING):
    """Optimal global alignment score of id sequences ``a`` and ``b`` (row-wise textbook DP)."""
    ma, mi, g = _native(scoring)
    m = len(b)
    prev = [j * g for j in range(m + 1)]
    for i in range(1, len(a) + 1):
        ai = a[i - 1]
        left = i * g
        cur = [left]
        for j in range(1, m + 1):
            v = prev[j - 1] + (ma if ai == b[j - 1] else mi)
            up = prev[j] + g
            if up > v:
                v = up
            if left + g > v:
                v = left + g
            cur.append(v)
            left = v
        prev = cur
    return prev[m]


def traceback_python(a, b, scoring: Scoring = DEFAULT_SCORING):
    """Score and op codes (start to end) of the optimal alignment; full matrix in Python lists."""
    ma, mi, g = _native(scoring)
    n, m = len(a), len(b)
    h = [[j * g for j in range(m + 1)]]
    for i in range(1, n + 1):
        prev, ai = h[-1], a[i - 1]
        cur = [i * g]
        for j in range(1, m + 1):
            cur.append(max(prev[j - 1] + (ma if ai == b[j - 1] else mi), prev[j] + g, cur[j - 1] + g))
        h.append(cur)
    return h[n][m], _walk(lambda i, j: h[i][j], a, b, ma, mi, g)


def _walk(cell, a, b, ma, mi, g) -> np.ndarray:
    """Walk back from the last cell: diagonal first, then insert (prediction word), then delete."""
    i, j = len(a), len(b)
    ops = []
    while i > 0 or j > 0:
        v = cell(i, j)
        if i > 0 and j > 0 and v == cell(i - 1, j - 1) + (ma if a[i - 1] == b[j - 1] else mi):
            ops.append(MATCH if a[i - 1] == b[j - 1] else SUBSTITUTE)
            i, j = i - 1, j - 1
        elif i > 0 and (j == 0 or v == cell(i - 1, j) + g):
            ops.append(INSERT)
            i -= 1
        else:
            ops.append(DELETE)
            j -= 1
    return np.array(ops[::-1], dtype=np.uint8)


def _native(scoring: Scoring):
    """Python ints for integral scoring (exact arithmetic), floats otherwise."""
    if scoring.integral:
        return scoring.as_ints()
    return float(scoring.match), float(scoring.mismatch), float(scoring.gap)


# --- numpy: one row at a time, horizontal gaps resolved with a running maximum -------------


def _numpy_rows(a, b, scoring: Scoring, keep_rows: bool):
    ma, mi, g = _native(scoring)
    dtype = np.int64 if scoring.integral else np.float64
    a = np.asarray(a)
    b = np.asarray(b)
    n, m = len(a), len(b)
    jg = np.arange(m + 1, dtype=dtype) * g
    pair_score = np.array([mi, ma], dtype=dtype)
    rows = np.empty((n + 1, m + 1), dtype) if keep_rows else None
    prev = jg.copy()
    if keep_rows:
        rows[0] = prev
    t = np.empty(m + 1, dtype)
    for i in range(1, n + 1):
        np.add(prev[:-1], pair_score[(b == a[i - 1]).view(np.uint8)], out=t[1:])
        np.maximum(t[1:], prev[1:] + g, out=t[1:])
        t[0] = i * g
        t -= jg
        cur = rows[i] if keep_rows else prev
        # H[i, j] = max_k<=j (t[k] + (j - k) g): the horizontal gaps of a whole row at once.
        np.maximum.accumulate(t, out=cur)
        cur += jg
        prev = cur
    return prev, rows


def score_numpy(a, b, scoring: Scoring = DEFAULT_SCORING):
    """Optimal global alignment score, row-wise in numpy (int64, or float64 for fractional scores)."""
    last, _ = _numpy_rows(a, b, scoring, keep_rows=False)
    return _to_native(last[len(b)], scoring)


def traceback_numpy(a, b, scoring: Scoring = DEFAULT_SCORING):
    """Score and op codes of the optimal alignment: the numpy matrix, then a walk back in Python."""
    ma, mi, g = _native(scoring)
    last, rows = _numpy_rows(a, b, scoring, keep_rows=True)
    a_list = a.tolist() if isinstance(a, np.ndarray) else list(a)
    b_list = b.tolist() if isinstance(b, np.ndarray) else list(b)
    return _to_native(last[len(b)], scoring), _walk(lambda i, j: rows[i, j], a_list, b_list, ma, mi, g)


def _to_native(value, scoring: Scoring):
    return int(value) if scoring.integral else float(value)


# --- rapidfuzz: S = (match * (n + m) - d) / 2, d a weighted Levenshtein distance -------------

try:
    from rapidfuzz import process as _rapidfuzz_process
    from rapidfuzz.distance import Levenshtein as _Levenshtein
except Exception:  # noqa: BLE001 - absent or broken: the other backends take over
    _rapidfuzz_process = _Levenshtein = None


def rapidfuzz_weights(scoring: Scoring):
    """(insert, delete, substitute) costs whose distance d gives S = (match * (n + m) - d) / 2, or None."""
    if not scoring.integral:
        return None
    ma, mi, g = scoring.as_ints()
    indel, sub = ma - 2 * g, 2 * (ma - mi)
    if indel < 0 or sub < 0:
        return None
    return indel, indel, sub


def score_rapidfuzz(a, b, scoring: Scoring = DEFAULT_SCORING):
    """Optimal global alignment score through rapidfuzz's weighted Levenshtein distance (C++)."""
    weights = rapidfuzz_weights(scoring)
    if weights is None:
        raise ValueError(f"rapidfuzz cannot express {scoring}")
    a = a.tolist() if isinstance(a, np.ndarray) else a
    b = b.tolist() if isinstance(b, np.ndarray) else b
    d = _Levenshtein.distance(a, b, weights=weights)
    return (scoring.as_ints()[0] * (len(a) + len(b)) - d) // 2


# --- numba: anti-diagonal score (SIMD), row-wise traceback with predecessor flags ------------

try:
    import numba as _numba
except Exception as error:  # noqa: BLE001 - a broken numba install must not break the metric
    _numba = None
    if not isinstance(error, ImportError):
        logger.warning("numba failed to import (%s); using the other backends", error)


def _njit(**options):
    """numba.njit with an on-disk cache, or without one where no cache folder is writable."""

    def decorate(fn):
        try:
            return _numba.njit(cache=True, **options)(fn)
        except RuntimeError:
            return _numba.njit(**options)(fn)

    return decorate


if _numba is not None:

    @_njit(inline="always")
    def _nb_diagonal(cur, up_left, up, diag, a, b_rev, ma, mi, g):  # pragma: no cover - compiled
        # One anti-diagonal: every cell depends only on the two previous diagonals, so this
        # loop has no carried dependency and LLVM vectorizes it. Casts keep the lanes int32.
        for k in range(cur.shape[0]):
            v = np.int32(diag[k] + (ma if a[k] == b_rev[k] else mi))
            x = up_left[k]
            y = up[k]
            u = np.int32((x if x > y else y) + g)
            cur[k] = v if v > u else u

    @_njit()
    def _nb_score(a, b, ma, mi, g):  # pragma: no cover - compiled
        n, m = a.shape[0], b.shape[0]
        if n == 0 or m == 0:
            return (n + m) * g
        b_rev = b[::-1].copy()
        d2 = np.empty(n + 1, np.int32)  # diagonal d - 2, indexed by row i
        d1 = np.empty(n + 1, np.int32)  # diagonal d - 1
        cur = np.empty(n + 1, np.int32)
        ma32, mi32, g32 = np.int32(ma), np.int32(mi), np.int32(g)
        d2[0] = 0
        d1[0] = g32
        d1[1] = g32
        for d in range(2, n + m + 1):
            lo = max(1, d - m)
            hi = min(n, d - 1)
            if hi >= lo:
                # cell (i, d - i) for i in [lo, hi]; b[d - i - 1] == b_rev[m - d + i]
                _nb_diagonal(
                    cur[lo : hi + 1],
                    d1[lo - 1 : hi],
                    d1[lo : hi + 1],
                    d2[lo - 1 : hi],
                    a[lo - 1 : hi],
                    b_rev[m - d + lo : m - d + hi + 1],
                    ma32,
                    mi32,
                    g32,
                )
            if d <= m:
                cur[0] = d * g32
            if d <= n:
                cur[d] = d * g32
            spare = d2
            d2 = d1
            d1 = cur
            cur = spare
        return d1[n]

    @_njit()
    def _nb_traceback(a, b, ma, mi, g):  # pragma: no cover - compiled
        n, m = a.shape[0], b.shape[0]
        # flags[i, j]: bit 0 diagonal, bit 1 up (insert), bit 2 left (delete) reach the optimum
        flags = np.zeros((n + 1, m + 1), np.uint8)
        prev = np.empty(m + 1, np.int64)
        cur = np.empty(m + 1, np.int64)
        for j in range(m + 1):
            prev[j] = j * g
        for i in range(1, n + 1):
            cur[0] = i * g
            ai = a[i - 1]
            for j in range(1, m + 1):
                dg = prev[j - 1] + (ma if ai == b[j - 1] else mi)
                up = prev[j] + g
                left = cur[j - 1] + g
                v = dg if dg > up else up
                v = v if v > left else left
                f = 0
                if dg == v:
                    f |= 1
                if up == v:
                    f |= 2
                if left == v:
                    f |= 4
                flags[i, j] = f
                cur[j] = v
            spare = prev
            prev = cur
            cur = spare
        ops = np.empty(n + m, np.uint8)
        k = 0
        i, j = n, m
        while i > 0 or j > 0:
            if i > 0 and j > 0 and flags[i, j] & 1:
                ops[k] = 0 if a[i - 1] == b[j - 1] else 1
                i -= 1
                j -= 1
            elif i > 0 and (j == 0 or flags[i, j] & 2):
                ops[k] = 2
                i -= 1
            else:
                ops[k] = 3
                j -= 1
            k += 1
        return prev[m], ops[:k][::-1].copy()


_numba_ready = False


def _numba_fits(a, b, scoring: Scoring) -> bool:
    return scoring.integral and scoring.bound(len(a), len(b)) < _INT32_LIMIT


def _numba_warm_up():
    """Compile (or load from the on-disk cache) both numba kernels once, and say so."""
    global _numba_ready
    if not _numba_ready:
        logger.info("needleman_wunsch: loading the numba kernels (compiled on first use, then cached)")
        tiny = np.zeros(2, np.int32)
        _nb_score(tiny, tiny, 1, -1, -1)
        _nb_traceback(tiny, tiny, 1, -1, -1)
        _numba_ready = True


def score_numba(a, b, scoring: Scoring = DEFAULT_SCORING):
    """Optimal global alignment score, anti-diagonal SIMD DP compiled by numba (int32 cells)."""
    _numba_warm_up()
    ma, mi, g = scoring.as_ints()
    return int(_nb_score(_int32(a), _int32(b), ma, mi, g))


def traceback_numba(a, b, scoring: Scoring = DEFAULT_SCORING):
    """Score and op codes of the optimal alignment, compiled by numba (one flag byte per cell)."""
    _numba_warm_up()
    ma, mi, g = scoring.as_ints()
    score, ops = _nb_traceback(_int32(a), _int32(b), ma, mi, g)
    return int(score), ops


def _int32(x) -> np.ndarray:
    return x if isinstance(x, np.ndarray) and x.dtype == np.int32 else np.asarray(x, dtype=np.int32)


# --- backend choice -------------------------------------------------------------------------

SCORE_KERNELS = {"numba": score_numba, "rapidfuzz": score_rapidfuzz, "numpy": score_numpy, "python": score_python}
TRACEBACK_KERNELS = {"numba": traceback_numba, "numpy": traceback_numpy, "python": traceback_python}
_broken: set[str] = set()  # installed, but failed at first use
_INSTALLED = {"numba": _numba is not None, "rapidfuzz": _Levenshtein is not None, "numpy": True, "python": True}


def _installed(name: str) -> bool:
    return _INSTALLED[name] and name not in _broken


def available_backends(kind: str = "score") -> list[str]:
    """Installed backends for ``kind`` ("score" or "traceback"), fastest first."""
    return [name for name in (SCORE_BACKENDS if kind == "score" else TRACEBACK_BACKENDS) if _installed(name)]


def _applies(name: str, a, b, scoring: Scoring) -> bool:
    if name == "numba":
        return _numba_fits(a, b, scoring)
    if name == "rapidfuzz":
        return rapidfuzz_weights(scoring) is not None
    if name == "numpy":
        return not scoring.integral or scoring.bound(len(a), len(b)) < 2**62
    return True


def _candidates(kind: str, backend: str, a, b, scoring: Scoring) -> list[str]:
    requested = os.environ.get(BACKEND_ENV, "auto") if backend == "auto" else backend
    order = SCORE_BACKENDS if kind == "score" else TRACEBACK_BACKENDS
    if requested != "auto":
        if requested not in order:
            raise ValueError(f"unknown {kind} backend {requested!r}; choose from {order} or 'auto'")
        if not _installed(requested):
            raise ImportError(f"the {requested} backend is not installed")
        if not _applies(requested, a, b, scoring):
            raise ValueError(f"the {requested} backend cannot score {scoring} for lengths {len(a)}, {len(b)}")
        return [requested]
    if kind == "score" and _lcs_like(scoring):
        order = ("rapidfuzz", *(name for name in order if name != "rapidfuzz"))
    return [name for name in order if _installed(name) and _applies(name, a, b, scoring)]


def _lcs_like(scoring: Scoring) -> bool:
    """Substitutions never pay: rapidfuzz then runs its bit-parallel LCS, faster than the numba DP."""
    weights = rapidfuzz_weights(scoring)
    return weights is not None and weights[2] >= 2 * weights[0]


def _pick(kind: str, backend: str, a, b, scoring: Scoring) -> str:
    """The backend to run: the requested one, or the first candidate that works (numba may fail to compile)."""
    candidates = _candidates(kind, backend, a, b, scoring)
    for name in candidates:
        if name == "numba" and len(candidates) > 1 and not _numba_ready:
            try:
                _numba_warm_up()
            except Exception as error:  # noqa: BLE001 - fall back to the next backend
                logger.warning("needleman_wunsch: numba kernels failed to compile (%s); falling back", error)
                _broken.add("numba")
                continue
        return name
    raise RuntimeError(f"no {kind} backend applies to {scoring}")


def alignment_score(a, b, scoring: Scoring = DEFAULT_SCORING, backend: str = "auto"):
    """Optimal global alignment score S of two id sequences, on the fastest applicable backend."""
    return SCORE_KERNELS[_pick("score", backend, a, b, scoring)](a, b, scoring)


def alignment_scores(pairs, scoring: Scoring = DEFAULT_SCORING, backend: str = "auto", workers: int = 1) -> list:
    """S of each (a, b) pair of id sequences; on rapidfuzz, ``workers`` threads (-1: every core) share the batch."""
    pairs = list(pairs)
    if not pairs:
        return []
    longest = max(pairs, key=lambda pair: len(pair[0]) + len(pair[1]))
    name = _pick("score", backend, *longest, scoring)
    if name == "rapidfuzz" and workers != 1 and hasattr(_rapidfuzz_process, "cpdist"):
        distances = _rapidfuzz_process.cpdist(
            [list(a) for a, _ in pairs],
            [list(b) for _, b in pairs],
            scorer=_Levenshtein.distance,
            workers=workers,
            scorer_kwargs={"weights": rapidfuzz_weights(scoring)},
        )
        match = scoring.as_ints()[0]
        return [(match * (len(a) + len(b)) - int(d)) // 2 for (a, b), d in zip(pairs, distances)]
    kernel = SCORE_KERNELS[name]
    return [kernel(a, b, scoring) for a, b in pairs]


def alignment_traceback(a, b, scoring: Scoring = DEFAULT_SCORING, backend: str = "auto"):
    """(S, op codes from start to end) of the optimal alignment; ties prefer diagonal, insert, delete."""
    return TRACEBACK_KERNELS[_pick("traceback", backend, a, b, scoring)](a, b, scoring)
