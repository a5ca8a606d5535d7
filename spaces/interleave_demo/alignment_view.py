"""The word alignment drawn as HTML: match, wrong word, missing, extra, by colour and by a mark readable without it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from html import escape

from dataset_builders.prompts import interleave_words
from metrics.needleman_wunsch.nw_alignment import AlignedPair

# op -> (css class, name shown in the legend and summary)
KINDS = {
    "match": ("nw-match", "match"),
    "substitute": ("nw-wrong", "wrong word"),
    "delete": ("nw-missing", "missing"),
    "insert": ("nw-extra", "extra"),
}

STYLE = """
<style>
.nw-view { line-height: 2.1; font-size: 0.95rem; }
.nw-view .nw { display: inline-block; padding: 0 0.3em; margin: 0 0.12em; border-radius: 4px; color: #111; }
.nw-match { background: #c8f0cf; }
.nw-wrong { background: #ffd8a8; border: 1px solid #d9480f; }
.nw-missing { background: #e7f0ff; border: 1px dashed #1c4fa0; font-style: italic; }
.nw-extra { background: #ffc9c9; border: 1px solid #c92a2a; }
.nw-view del { color: #7a1f00; }
.nw-view .nw-mark { font-weight: bold; }
.nw-legend { margin: 0.3em 0 0.6em 0; font-size: 0.85rem; }
</style>
"""


def origin_labels(n_a: int, n_b: int) -> list[str]:
    """Where each target word comes from (``A3``, ``B3``, ...), by the one interleave function."""
    return interleave_words([f"A{i}" for i in range(1, n_a + 1)], [f"B{j}" for j in range(1, n_b + 1)])


def _word(pair: AlignedPair, where: str | None) -> str:
    css, name = KINDS[pair.op]
    title = f"{name}" + (f", target word {where}" if where else "")
    if pair.op == "match":
        body = escape(pair.reference)
    elif pair.op == "substitute":
        body = f'<span class="nw-mark">✗</span><del>{escape(pair.prediction)}</del>→{escape(pair.reference)}'
    elif pair.op == "delete":
        body = f'<span class="nw-mark">−</span>{escape(pair.reference)}'
    else:
        body = f'<span class="nw-mark">+</span>{escape(pair.prediction)}'
    return f'<span class="nw {css}" title="{escape(title)}">{body}</span>'


LEGEND = (
    '<div class="nw-legend">'
    '<span class="nw nw-match">word</span> match &nbsp; '
    '<span class="nw nw-wrong"><span class="nw-mark">✗</span><del>wrote</del>→expected</span> wrong word &nbsp; '
    '<span class="nw nw-missing"><span class="nw-mark">−</span>word</span> missing (in the target, not written) &nbsp; '
    '<span class="nw nw-extra"><span class="nw-mark">+</span>word</span> extra (written, not in the target)'
    "</div>"
)


def alignment_html(pairs: Sequence[AlignedPair], n_a: int, n_b: int) -> str:
    """The alignment word by word, with a legend; each target word's tooltip names its place (``A3``, ``B7``)."""
    origins = iter(origin_labels(n_a, n_b))
    words = [_word(p, next(origins) if p.reference is not None else None) for p in pairs]
    body = " ".join(words) if words else "<em>nothing to align</em>"
    return f'{STYLE}<div class="nw-view">{LEGEND}<div>{body}</div></div>'


def alignment_summary(pairs: Sequence[AlignedPair], n_a: int, n_b: int) -> str:
    """Counts per kind, and where the output first left the target (the target word due there and its place)."""
    counts = Counter(p.op for p in pairs)
    line = (
        f"{n_a + n_b} target words: "
        + ", ".join(f"{counts.get(op, 0)} {name}" for op, (_, name) in KINDS.items())
        + "."
    )
    first_slip = next((i for i, p in enumerate(pairs) if p.op != "match"), None)
    if first_slip is None:
        return line + (" No slip." if pairs else "")
    done = sum(p.reference is not None for p in pairs[:first_slip])  # target words written correctly before it
    if done == n_a + n_b:
        return line + f" All target words written, then {KINDS[pairs[first_slip].op][1]} words past the end."
    where = origin_labels(n_a, n_b)[done]
    expected = [p.reference for p in pairs if p.reference is not None][done]
    return line + (
        f" First slip at target word {done + 1} (Text {where[0]}'s word {where[1:]}, "
        f"{expected!r}): {KINDS[pairs[first_slip].op][1]}."
    )
