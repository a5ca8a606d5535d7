"""Interleave problems from the user's own texts (``make eval DATA=...``), with the curriculum's columns.

``DATA`` is one of:

- a folder of ``.txt`` files (searched recursively): each file is one text. Problem ``i`` of a stage pairs an n-word
  fragment of one file (Text A) with one of another file (Text B), each starting at a sentence start, as the
  curriculum does; the pairs go through a keyed permutation of all such pairs, so a seed gives the same problems
  on every machine and no pair repeats.
- a ``.jsonl`` file of ``{"text_a": ..., "text_b": ...}`` lines: each line is one problem, used as given except
  that each text is cut to the stage's words (its first n words). The first ``n`` lines make a stage's problems; a
  text shorter than a stage asks for is an error (choose STAGES that fit).
- a dataset: a local dataset folder (parquet, csv, json ... that ``datasets.load_dataset`` reads) or a Hub id
  ``owner/name[:config]``. Its text column (``column``, default ``text``) gives one text per row, paired across rows
  like the files of a folder; without ``column``, a dataset with ``text_a`` and ``text_b`` and no ``text`` column
  gives pairs like a JSONL.

Every problem in the input is checked before a model is loaded: ``UserTextError`` names the file, line or column
and what is wrong (an empty file, a text shorter than the stage, a missing column, binary data).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path

from dataset_builders.corpus.cleaning import clean_plain
from dataset_builders.corpus.passages import Passage
from dataset_builders.indexing import KeyedPermutation
from dataset_builders.interleave_curriculum.fragments import FragmentPairs, FragmentSlots
from dataset_builders.interleave_curriculum.problems import stage_of
from dataset_builders.prompts import interleave_prompt, interleave_target

logger = logging.getLogger(__name__)

SPLIT = "data"  # the split name of problems made from the user's texts (eval rows carry it)
CONTROL_SHARE = 0.01  # more control characters than this (besides tab, newlines, form feed) means binary data
_TEXT_CONTROLS = {"\t", "\n", "\r", "\f", "\v"}


class UserTextError(ValueError):
    """Input that cannot make problems; the message names the file, line or column and what is wrong."""


def _stage_name(n_words: int) -> str:
    """``stage 2`` for a curriculum stage's length, else ``25 words per text``."""
    return f"stage {stage_of(n_words)}" if stage_of(n_words) else f"{n_words} words per text"


def decode_text(data: bytes, where: str) -> str:
    """``data`` as text (UTF-8, else Latin-1); a UserTextError for binary data or an empty or blank text."""
    nul = data.find(b"\x00")
    if nul >= 0:
        raise UserTextError(f"{where} is binary data, not text (a NUL byte at offset {nul})")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    controls = sum(1 for ch in text if ord(ch) < 32 and ch not in _TEXT_CONTROLS)
    if text and controls / len(text) > CONTROL_SHARE:
        raise UserTextError(f"{where} is binary data, not text ({controls} control characters in {len(text)})")
    if not text.strip():
        raise UserTextError(f"{where} is empty" + (" (only whitespace)" if text else ""))
    return text


@dataclass(frozen=True)
class GivenPair:
    """A problem given as two texts (a JSONL line or a dataset row), and where it came from."""

    where: str  # e.g. "pairs.jsonl line 3"
    text_a: str
    text_b: str


@dataclass
class UserTexts:
    """What DATA held: texts to pair across (a folder, a dataset's text column) or given pairs (a JSONL)."""

    source: str
    kind: str  # "folder", "jsonl" or "dataset"
    texts: dict[str, str] = field(default_factory=dict)  # name -> text, for a folder or a text column
    pairs: list[GivenPair] = field(default_factory=list)
    details: dict = field(default_factory=dict)  # e.g. the dataset's split and column

    def describe(self, seed: int) -> dict:
        """What eval.json records about the input."""
        counts = {"texts": len(self.texts)} if self.texts else {"pairs": len(self.pairs)}
        return {
            "source": self.source,
            "kind": self.kind,
            **self.details,
            **counts,
            **({"seed": seed} if self.texts else {}),
        }

    def problems(self, n_words: int, n: int, seed: int = 0) -> list[dict]:
        """Up to ``n`` problems of ``n_words`` words per text (fewer when the texts hold fewer distinct pairs)."""
        if self.texts:
            return self._paired_across(n_words, n, seed)
        return self._given(n_words, n)

    def _given(self, n_words: int, n: int) -> list[dict]:
        rows = []
        for index, pair in enumerate(self.pairs[:n]):
            for column, text in (("text_a", pair.text_a), ("text_b", pair.text_b)):
                words = len(text.split())
                if words < n_words:
                    raise UserTextError(
                        f"{pair.where}: {column} has {words} words, {_stage_name(n_words)} needs "
                        f"{n_words} (each text is cut to the stage's words): choose STAGES whose words fit, or "
                        "give longer texts"
                    )
            text_a = " ".join(pair.text_a.split()[:n_words])
            text_b = " ".join(pair.text_b.split()[:n_words])
            rows.append(_row(f"data-{n_words}w-{index:07d}", n_words, text_a, text_b, pair.where, pair.where))
        return rows

    def _paired_across(self, n_words: int, n: int, seed: int) -> list[dict]:
        passages = [
            Passage(name, name, self.source, SPLIT, len(text.split()), text, SPLIT) for name, text in self.texts.items()
        ]
        pairs = FragmentPairs(FragmentSlots(passages, n_words))
        if pairs.n_pairs == 0:
            long_enough = [p for p in passages if p.n_words >= n_words]
            longest = ", ".join(f"{p.id} ({p.n_words} words)" for p in sorted(passages, key=lambda p: -p.n_words)[:3])
            raise UserTextError(
                f"{self.source}: {_stage_name(n_words)} needs two texts of at least {n_words} words "
                f"(a fragment starts at a sentence start; text A and text B come from different texts); "
                f"{len(long_enough)} of {len(passages)} are that long (longest: {longest}): choose STAGES whose "
                "words fit, or give longer texts"
            )
        permutation = KeyedPermutation(pairs.n_pairs, f"user-texts/v1/seed={seed}/n_words={n_words}")
        if n > pairs.n_pairs:
            logger.warning(
                "%s: only %d distinct pairs of %d-word fragments; %s gets %d problems, not %d",
                self.source,
                pairs.n_pairs,
                n_words,
                _stage_name(n_words),
                pairs.n_pairs,
                n,
            )
        rows = []
        for index in range(min(n, pairs.n_pairs)):
            fragment_a, fragment_b = pairs.pair(permutation(index))
            rows.append(
                _row(
                    f"data-{n_words}w-seed{seed}-{index:07d}",
                    n_words,
                    fragment_a.text,
                    fragment_b.text,
                    f"{fragment_a.passage.id}@{fragment_a.offset}",
                    f"{fragment_b.passage.id}@{fragment_b.offset}",
                )
            )
        return rows


def _row(problem_id: str, n_words: int, text_a: str, text_b: str, source_a: str, source_b: str) -> dict:
    """A problem with the curriculum's columns (``source_a``/``source_b``: file or line, and word offset)."""
    return {
        "id": problem_id,
        "stage": stage_of(n_words),
        "n_words": n_words,
        "text_a": text_a,
        "text_b": text_b,
        "target": interleave_target(text_a, text_b),
        "prompt": interleave_prompt(text_a, text_b),
        "source_a": source_a,
        "source_b": source_b,
        "register_a": SPLIT,
        "register_b": SPLIT,
    }


def _text_of(text: str) -> str:
    """A text as the curriculum keeps a passage: paragraphs (wrapped lines joined) separated by blank lines."""
    return "\n\n".join(clean_plain(text))


def read_folder_texts(folder: Path) -> UserTexts:
    """Every ``*.txt`` file under ``folder`` as one text; at least two are needed."""
    files = sorted(p for p in folder.rglob("*.txt") if p.is_file())
    texts = {}
    for path in files:
        name = path.relative_to(folder).as_posix()
        texts[name] = _text_of(decode_text(path.read_bytes(), str(path)))
    if len(texts) < 2:
        raise UserTextError(
            f"{folder} holds {len(texts)} .txt file(s); pairs need at least two (text A comes from "
            "one file, text B from another)"
        )
    return UserTexts(str(folder), "folder", texts=texts)


def read_jsonl_pairs(path: Path) -> UserTexts:
    """One problem per line: a JSON object with ``text_a`` and ``text_b`` strings; blank lines are skipped."""
    content = decode_text(path.read_bytes(), str(path))
    pairs = []
    for number, line in enumerate(content.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path} line {number}"
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise UserTextError(
                f'{where} is not JSON ({exc.msg}); each line is {{"text_a": "...", "text_b": "..."}}'
            ) from None
        if not isinstance(item, dict):
            raise UserTextError(f"{where} holds a {type(item).__name__}, not an object with text_a and text_b")
        pairs.append(_given_pair(item, where))
    return UserTexts(str(path), "jsonl", pairs=pairs)


def _given_pair(item: dict, where: str) -> GivenPair:
    texts = []
    for column in ("text_a", "text_b"):
        if column not in item:
            raise UserTextError(f"{where} has no {column} (it has {', '.join(map(str, item)) or 'no keys'})")
        value = item[column]
        if isinstance(value, bytes):
            value = decode_text(value, f"{where}, {column}")
        if not isinstance(value, str):
            raise UserTextError(f"{where}: {column} is {type(value).__name__}, not text")
        if not value.strip():
            raise UserTextError(f"{where}: {column} is empty")
        if "\x00" in value:
            raise UserTextError(f"{where}: {column} is binary data, not text (a NUL character)")
        texts.append(value)
    return GivenPair(where, *texts)


def read_dataset_texts(spec: str, column: str | None = None, split: str | None = None) -> UserTexts:
    """A dataset's rows: one text per row of ``column`` (default ``text``), or ``text_a``/``text_b`` pairs.

    ``spec``: a local dataset folder or a Hub id ``owner/name[:config]``. ``split``: default ``test`` when the dataset
    has one, else its only split.
    """
    import datasets  # heavy: only for this kind of input

    path, _, config = spec.partition(":") if not Path(spec).exists() else (spec, "", "")
    try:
        loaded = datasets.load_dataset(path, config or None)
    except Exception as exc:  # datasets raises many types for an unknown, unreachable or unreadable dataset
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise UserTextError(f"could not load dataset {spec!r}: {first}") from None
    splits = list(loaded) if isinstance(loaded, datasets.DatasetDict) else [None]
    if split is None:
        split = "test" if "test" in splits else splits[0] if len(splits) == 1 else None
        if split is None:
            raise UserTextError(f"dataset {spec!r} has the splits {', '.join(splits)}: choose one with --data_split")
    elif split not in splits:
        raise UserTextError(f"dataset {spec!r} has no split {split!r}; its splits: {', '.join(map(str, splits))}")
    table = loaded[split] if split is not None else loaded
    columns = table.column_names
    details = {"split": split}
    if column is None and "text" not in columns and {"text_a", "text_b"} <= set(columns):
        pairs = [
            _given_pair(row, f"{spec} row {i}") for i, row in enumerate(table.select_columns(["text_a", "text_b"]))
        ]
        if not pairs:
            raise UserTextError(f"dataset {spec!r}, split {split}, is empty")
        return UserTexts(spec, "dataset", pairs=pairs, details={**details, "columns": ["text_a", "text_b"]})
    column = column or "text"
    if column not in columns:
        raise UserTextError(
            f"dataset {spec!r} has no column {column!r}; its columns: {', '.join(columns)} (choose "
            "one with --data_column; or give text_a and text_b columns for pairs)"
        )
    texts, empty = {}, 0
    for index, value in enumerate(table[column]):
        where = f"{spec} row {index}, column {column!r}"
        if isinstance(value, bytes):
            value = decode_text(value, where)
        if value is None or (isinstance(value, str) and not value.strip()):
            empty += 1
            continue
        if not isinstance(value, str):
            raise UserTextError(f"{where} is {type(value).__name__}, not text")
        if "\x00" in value:
            raise UserTextError(f"{where} is binary data, not text (a NUL character)")
        texts[f"row {index}"] = _text_of(value)
    if empty:
        logger.info("%s: %d empty rows of column %r skipped", spec, empty, column)
    if len(texts) < 2:
        raise UserTextError(
            f"dataset {spec!r}, split {split}, column {column!r} has {len(texts)} non-empty text(s); "
            "pairs need at least two (text A comes from one row, text B from another)"
        )
    return UserTexts(spec, "dataset", texts=texts, details={**details, "column": column})


def read_user_texts(spec: str, column: str | None = None, split: str | None = None) -> UserTexts:
    """The texts of ``DATA``: a folder of .txt files, a .jsonl of pairs, a local dataset folder or a Hub id."""
    path = Path(spec).expanduser()
    if path.is_dir():
        if any(p.is_file() for p in path.rglob("*.txt")):
            return read_folder_texts(path)
        if not any(p.is_file() for p in path.rglob("*")):
            raise UserTextError(
                f"{path} is an empty folder: give .txt files (two or more), a .jsonl of pairs or a dataset"
            )
        return read_dataset_texts(str(path), column, split)
    if path.is_file():
        if path.suffix in (".jsonl", ".json"):
            return read_jsonl_pairs(path)
        if path.suffix == ".txt":
            raise UserTextError(
                f"{path} is one .txt file; give a folder of .txt files (text A comes from one file, "
                "text B from another) or a .jsonl of text_a/text_b pairs"
            )
        raise UserTextError(
            f"{path} is neither a folder of .txt files nor a .jsonl of pairs: give one of those, a "
            "dataset folder or a Hub dataset id"
        )
    if spec.startswith((".", "/", "~")) or spec.count("/") > 1 or path.suffix in (".txt", ".jsonl", ".json"):
        raise UserTextError(f"{spec} does not exist")
    return read_dataset_texts(spec, column, split)
