"""How often each register's words are symbolic (code-like or numeric: ``slip_diagnostics.is_symbolic``) and
identifier-like (camelCase, a dot between letters, or an underscore), per corpus split: do the training registers
hold the kind of word that out-of-register answers first slip on (session 22, results/grpo/batch-27/README.md)?

    .venv/bin/python scripts/analysis/register_symbols.py > results/corpus/symbolic-words.md
"""

import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from dataset_builders.corpus import load_corpus  # noqa: E402
from training.core.slip_diagnostics import EDGE_PUNCTUATION, is_symbolic  # noqa: E402

IDENTIFIER = re.compile(r"[a-z][A-Z]|[A-Za-z]\.[A-Za-z]|_")


def main() -> int:
    corpus = load_corpus()
    counts: dict[tuple[str, str], Counter] = defaultdict(Counter)
    for split in ("train", "validation", "test", "out_of_register"):
        for passage in corpus.split(split):
            tally = counts[(split, passage.register)]
            for word in passage.text.split():
                tally["words"] += 1
                tally["symbolic"] += is_symbolic(word)
                tally["identifier"] += bool(IDENTIFIER.search(word.strip(EDGE_PUNCTUATION)))
    print("| split | register | words | symbolic | identifier-like |")
    print("| --- | --- | --- | --- | --- |")
    for (split, register), t in sorted(counts.items()):
        symbolic, identifier = t["symbolic"] / t["words"], t["identifier"] / t["words"]
        print(f"| {split} | {register} | {t['words']:,} | {symbolic:.1%} | {identifier:.2%} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
