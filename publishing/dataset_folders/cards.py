"""Dataset cards (README.md with YAML metadata) for the published curriculum and arithmetic folders.

The YAML ``configs:`` section maps each config to its parquet files, so ``load_dataset(folder_or_repo, config)``
works without a loading script; ``dataset_info:`` records the features and the rows per split.
"""

from __future__ import annotations

import json

import datasets
from datasets.info import DatasetInfosDict
from datasets.utils.metadata import MetadataConfigs
from huggingface_hub import DatasetCard, DatasetCardData

from dataset_builders.corpus import HELD_OUT_VALIDATION_SOURCES
from dataset_builders.prompts import ARITHMETIC_INSTRUCTION, INTERLEAVE_INSTRUCTION, PROMPT_VERSION
from publishing.dataset_folders.parquet import data_files

SPLIT_ORDER = ("train", "validation", "test", "out_of_register", "out_of_register_validation")  # tables' columns
LICENSE_NOTE = (
    "The texts are in the public domain (US State of the Union addresses are works of the US government; "
    "the Gutenberg texts are public-domain books). The generated pairs, targets and numbers add no "
    "copyrightable expression. The code that generates them is Apache-2.0."
)


def curriculum_license(corpus_manifest: dict) -> str:
    """The curriculum's LICENSE: each source's licence (and the notice it asks to be passed on), from the manifest."""
    sources = corpus_manifest.get("sources_read", {})
    lines = [
        "Each text of this dataset (text_a, text_b, and so the target and prompt) comes from one corpus "
        "source, named by its source id (source_a, source_b), under that source's licence:",
        "",
    ]
    lines += [
        f"- {name} ({info.get('register', name)}): {info.get('license') or 'see the source'}"
        for name, info in sources.items()
    ]
    notices = [(name, info["license_text"].strip()) for name, info in sources.items() if info.get("license_text")]
    for name, text in notices:
        lines += ["", f"Notice for {name}:", "", text]
    lines += [
        "",
        "The generated pairs, targets and prompts add no copyrightable expression. "
        "The code that generates them is Apache-2.0.",
    ]
    return "\n".join(lines) + "\n"


def register_table(corpus_manifest: dict, shares: dict[str, dict[str, float]]) -> str:
    """Registers with their sources, corpus words per split and share of the published texts per split."""
    sources: dict[str, list[str]] = {}
    for name, info in corpus_manifest.get("sources_read", {}).items():
        sources.setdefault(info.get("register", name), []).append(name)
    words = {(r["register"], r["split"]): r["words"] for r in corpus_manifest.get("register_counts", [])}
    splits = [s for s in SPLIT_ORDER if s in shares]
    header = (
        f"| register | sources | corpus words ({' / '.join(SPLIT_ORDER)}) | "
        + " | ".join(f"share of {s} texts" for s in splits)
        + " |"
    )
    lines = [header, "|" + "---|" * (3 + len(splits))]
    for register in sorted(sources):
        counts = " / ".join(f"{words.get((register, s), 0):,}" for s in SPLIT_ORDER)
        cells = " | ".join(f"{shares[s].get(register, 0.0):.1%}" for s in splits)
        lines.append(f"| {register} | {', '.join(sources[register])} | {counts} | {cells} |")
    return "\n".join(lines)


def size_category(rows: int) -> str:
    """The Hub's ``size_categories`` label for ``rows`` examples."""
    for limit, label in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M")):
        if rows < limit:
            return label
    return "1M<n<10M"


def _card(card_data: DatasetCardData, infos: dict[str, datasets.DatasetInfo], default: str, body: str) -> DatasetCard:
    default = default if default in infos else next(iter(infos))
    configs = {
        name: {"data_files": data_files(name, info.splits), **({"default": True} if name == default else {})}
        for name, info in infos.items()
    }
    MetadataConfigs(configs).to_dataset_card_data(card_data)
    DatasetInfosDict({name: info for name, info in infos.items()}).to_dataset_card_data(card_data)
    return DatasetCard(f"---\n{card_data.to_yaml()}\n---\n\n{body.strip()}\n")


def _rows_table(infos: dict[str, datasets.DatasetInfo], first_column: str, describe) -> str:
    splits = [s for s in SPLIT_ORDER if any(s in i.splits for i in infos.values())]
    lines = [f"| {first_column} | " + " | ".join(splits) + " |", "|---|" + "---|" * len(splits)]
    for name, info in infos.items():
        rows = {s: f"{i.num_examples:,}" for s, i in info.splits.items()}
        counts = " | ".join(rows.get(split, "-") for split in splits)
        lines.append(f"| `{name}` ({describe(name)}) | {counts} |")
    return "\n".join(lines)


def _example_block(example: dict) -> str:
    return "```json\n" + json.dumps(example, indent=1, ensure_ascii=False) + "\n```"


def _limitations(counts: dict) -> str:
    """Corpus imbalances worth knowing, computed from the corpus manifest's counts."""
    lines = []
    total = counts.get(("all", "all"), {}).get("words")
    if total and ("sotu", "all") in counts:
        share = counts[("sotu", "all")]["words"] / total
        lines.append(
            f"- State of the Union addresses are {share:.0%} of the corpus words; the register mix, not the "
            "word count, decides how often they are drawn."
        )
    if ("gutenberg", "test") in counts:
        g = {s: counts[("gutenberg", s)]["works"] for s in ("all", "test", "validation")}
        lines.append(
            f"- The Gutenberg part has {g['all']} prose works: {g['test']} in test and {g['validation']} in "
            "validation, so its held-out text comes from few books."
        )
    return "\n".join(lines) or "- None recorded."


def _held_out_text(held_out: dict[str, int]) -> str:
    by_size: dict[int, list[str]] = {}
    for name, h in held_out.items():
        by_size.setdefault(h, []).append(f"`{name}`")
    return "; ".join(f"{h:,} for {', '.join(names)}" for h, names in by_size.items())


def curriculum_card(
    infos: dict[str, datasets.DatasetInfo],
    n_words: dict[str, int],
    example: dict,
    repo: str,
    seed: int,
    corpus_manifest: dict,
    command: str,
    shares: dict[str, dict[str, float]] | None = None,
) -> DatasetCard:
    """The card of the interleave curriculum folder; ``shares`` is {split: {register: share of its texts}}."""
    total = sum(s.num_examples for info in infos.values() for s in info.splits.values())
    data = DatasetCardData(
        language="en",
        license="other",
        license_name="per-source",
        license_link="LICENSE",
        pretty_name="Interleave curriculum",
        size_categories=size_category(total),
        task_categories=["text-generation"],
        source_datasets=["original"],
        tags=["interleaving", "working-memory", "grpo", "curriculum", "synthetic"],
    )
    sources = corpus_manifest.get("sources_read", {})
    counts = {(r["source"], r["split"]): r for r in corpus_manifest.get("counts", [])}
    attribution = "\n".join(
        f"- **{name}** ({info.get('register', name)}): {info['origin']}, {info['works']} works"
        + (
            f" ({counts[(name, 'test')]['works']} test, {counts[(name, 'validation')]['works']} validation)"
            if (name, "test") in counts
            else ""
        )
        + "".join(
            f" (all {counts[(name, split)]['works']} {split})"
            for split in ("out_of_register", "out_of_register_validation")
            if (name, split) in counts
        )
        + f". Licence: {info.get('license') or 'see the source'}."
        for name, info in sources.items()
    )
    held_out = ", ".join(corpus_manifest.get("held_out_registers", [])) or "none"
    registers = register_table(corpus_manifest, shares or {})
    body = f"""
# Interleave curriculum

Two texts, held at once: given Text A and Text B of *n* words each, write `A1 B1 A2 B2 ...` word by word.
Six stages of 10, 25, 50, 100, 200 and 500 words per text, cut from real text of several registers (speeches,
novels, plays, encyclopedia leads, country fact sheets, and held out, technical documentation); made by the
interleave-grpo project to train the skill with GRPO and to measure it.

```python
from datasets import load_dataset

test = load_dataset("{repo}", "stage-3", split="test")
print(test[0]["prompt"], test[0]["target"])
```

## Configs and rows

{_rows_table(infos, "config", lambda name: f"{n_words[name]} words per text")}

`validation`, `test`, `out_of_register` and `out_of_register_validation` are complete; `train` is a fixed sample of
the problems that the generator produces on the fly for training (problem *i* for *i* = 0, 1, ...).
`out_of_register` holds texts only from the register(s) held out of the other splits ({held_out}): scores on it
beside `test` tell whether a model learned the skill or the training registers. `out_of_register_validation` holds
texts of the same held-out register(s) from another source (other documents): choose recipes aimed at the held-out
register on it, as on `validation` in register, and keep `out_of_register` for reporting.

## Registers

Each text comes from one register. The generator draws the register of Text A and of Text B independently with
fixed, equal weights, stratified (every run of consecutive problems holds each register pair exactly its share), so
a register's share does not follow its word count. A register pair with no fragment pair (a register with one work
in a split, such as the novels in `test`) is left out, which shifts the shares a little. Shares of the texts in the
published rows (all configs):

{registers}

## Fields

| field | type | what |
|---|---|---|
| `id` | string | stable id `<n>w-<split>-seed<seed>-<index>`: the problem can be regenerated from it |
| `stage` | int32 | curriculum stage 1-6 (0 for a custom length) |
| `n_words` | int32 | words in each of `text_a` and `text_b` |
| `text_a`, `text_b` | string | exactly `n_words` whitespace-separated words each, joined by single spaces |
| `target` | string | `a1 b1 a2 b2 ...` joined by single spaces |
| `prompt` | list of `{{role, content}}` | the chat prompt (TRL conversational format) |
| `source_a`, `source_b` | string | ids of the corpus passages the texts were cut from (`<source>/<work>/<passage>`) |
| `register_a`, `register_b` | string | the register of each text (speech, fiction, dialogue, reference, numeric, technical) |

An example (`{example["id"]}`):

{_example_block(example)}

## How it was generated

- **Corpus**: whole paragraphs joined into passages of about 1,000 words, never across a chapter or speech.
  *Works*, not passages, are split into train, validation and test (by the SHA-256 of the work id, about
  10% of each source's words each for test and validation), so `test` and `validation` text comes only from
  works that never appear in `train`. Corpus fingerprint `{corpus_manifest.get("fingerprint", "")[:16]}`.
- **Registers**: works of {held_out} never enter train, validation or test; they make the `out_of_register`
  split whole, but for those of {", ".join(HELD_OUT_VALIDATION_SOURCES)}, which make `out_of_register_validation`.
- **Fragments** start at a sentence start and take the next *n* words of one passage. Text A and Text B
  come from passages of two different works of the same split.
- **Problem i** of a split is a pure function of (seed, split, i): *i* picks a register pair (the stratified
  mix above), then the *k*-th problem of that pair goes through a keyed pseudo-random permutation (a Feistel
  network over BLAKE2b) of all its ordered cross-work fragment pairs. So the problems of a run never repeat,
  any problem can be regenerated from its index, and a run can resume from any index. Seed {seed}; prompt
  template version {PROMPT_VERSION}.
- **Prompt** (user message; Text A and Text B follow it):

> {INTERLEAVE_INSTRUCTION}

Made by `{command}`.

## Sources and license

{attribution}

The LICENSE file lists each source's licence and the notices they ask to be passed on: rows holding Wikipedia
text are CC BY-SA 4.0, rows holding Django documentation carry its BSD-3-Clause notice. The generated pairs,
targets and prompts add no copyrightable expression; the code that generates them is Apache-2.0.

## Limitations

{_limitations(counts)}
"""
    return _card(data, infos, "stage-1", body)


def arithmetic_card(
    infos: dict[str, datasets.DatasetInfo],
    digits: dict[str, tuple[int, int]],
    held_out: dict[str, int],
    example: dict,
    repo: str,
    seed: int,
    command: str,
) -> DatasetCard:
    """The card of the arithmetic folder."""
    total = sum(s.num_examples for info in infos.values() for s in info.splits.values())
    data = DatasetCardData(
        language="en",
        license="other",
        license_name="public-domain",
        license_link="LICENSE",
        pretty_name="Arithmetic positive control (a * b, answer only)",
        size_categories=size_category(total),
        task_categories=["text-generation"],
        source_datasets=["original"],
        tags=["arithmetic", "multiplication", "grpo", "synthetic"],
    )
    body = f"""
# Arithmetic positive control

Integer multiplication `a * b`, answered with the product only. The interleave-grpo project trains it
with the same GRPO pipeline as the interleave curriculum, to show that the pipeline learns at all. The default
config `3x2` is a 3-digit times a 2-digit integer (a in 100..999, b in 10..99).

```python
from datasets import load_dataset

test = load_dataset("{repo}", "3x2", split="test")
```

## Configs and rows

{_rows_table(infos, "config", lambda name: f"{digits[name][0]}-digit x {digits[name][1]}-digit")}

## Fields

| field | type | what |
|---|---|---|
| `id` | string | stable id `<A>x<B>-<split>-seed<seed>-<index>` |
| `a`, `b` | int64 | the operands |
| `answer` | int64 | `a * b` |
| `prompt` | list of `{{role, content}}` | the chat prompt (TRL conversational format) |

An example (`{example["id"]}`):

{_example_block(example)}

## How it was generated

All operand pairs of a config are numbered and put through one keyed pseudo-random permutation per seed
(a Feistel network over BLAKE2b). The first *h* positions are reserved for `test` (its problems are
positions 0, 1, ...), the next *h* for `validation`, and `train` walks all other positions through a second
permutation; *h* is {_held_out_text(held_out)}. So no test or validation pair ever appears in train, train repeats
no pair before all are used, and problem *i* of a split is a pure function of (seed, split, i). When both
operands have the same number of digits, `a * b` and `b * a` count as one pair. Seed {seed}.

Prompt (user message), template version {PROMPT_VERSION}:

> {ARITHMETIC_INSTRUCTION.format(a="<a>", b="<b>")}

Scoring (`dataset_builders/arithmetic/scoring.py` in the code) reads the answer after the last `=` or else
the last number, accepting thousands separators, a trailing period, surrounding words and unicode minus
signs; partial credit is the mean of digit-by-digit closeness and `1 - relative error`.

Made by `{command}`.

## License

{LICENSE_NOTE}
"""
    return _card(data, infos, "3x2", body)
