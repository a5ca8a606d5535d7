"""The embedded corpus: real text of several registers cut into passages, split by work (and by register)."""

from dataset_builders.corpus.build import (
    DEFAULT_HELD_OUT_REGISTERS,
    Corpus,
    build_corpus,
    count_table,
    format_count_table,
    load_corpus,
    read_corpus,
)
from dataset_builders.corpus.passages import (
    ALL_SPLITS,
    HELD_OUT_VALIDATION_SOURCES,
    OUT_OF_REGISTER,
    OUT_OF_REGISTER_VALIDATION,
    SPLITS,
    Passage,
)
from dataset_builders.corpus.sources import DEFAULT_SOURCES, SOURCES

__all__ = [
    "ALL_SPLITS",
    "Corpus",
    "DEFAULT_HELD_OUT_REGISTERS",
    "DEFAULT_SOURCES",
    "HELD_OUT_VALIDATION_SOURCES",
    "OUT_OF_REGISTER",
    "OUT_OF_REGISTER_VALIDATION",
    "Passage",
    "SOURCES",
    "SPLITS",
    "build_corpus",
    "count_table",
    "format_count_table",
    "load_corpus",
    "read_corpus",
]
