"""The embedded corpus: real public-domain prose cut into passages, split by work."""

from dataset_builders.corpus.build import (
    Corpus,
    build_corpus,
    count_table,
    format_count_table,
    load_corpus,
    read_corpus,
)
from dataset_builders.corpus.passages import SPLITS, Passage
from dataset_builders.corpus.sources import DEFAULT_SOURCES

__all__ = [
    "Corpus", "DEFAULT_SOURCES", "Passage", "SPLITS",
    "build_corpus", "count_table", "format_count_table", "load_corpus", "read_corpus",
]
