"""A made-up corpus (three-word sentences of a few works) and a small builder over it, whose default config's rows
are pinned by digest: the train-split levers (register weights, scrambled texts) must leave them byte for byte."""

import hashlib
import json
from pathlib import Path

from dataset_builders.corpus import Corpus, Passage
from dataset_builders.interleave_curriculum import InterleaveCurriculum

# work id -> (register, split, three-word sentences)
WORKS = {
    "s1": ("speech", "train", 40),
    "s2": ("speech", "train", 30),
    "n1": ("numeric", "train", 20),
    "n2": ("numeric", "train", 25),
    "t1": ("technical", "train", 30),
    "t2": ("technical", "train", 30),
    "s3": ("speech", "validation", 20),
    "s4": ("speech", "validation", 20),
    "n3": ("numeric", "validation", 20),
}
# sha256 of the rows of made_up_builder(), taken before the config had register weights: the default config's data. A
# change here means the published data changed (then bump GENERATOR_VERSION or PROMPT_VERSION and pin the new digests).
DIGESTS = {
    "train": "7d75eaef4dfbb9eb4fc8af8769967c8b6a991cf94cc1ddb92f11b9fc64b08d78",
    "validation": "b207b86ae4d994daccc77b3ad8e4ff44ecd24f8abe9a25620c439a753b99ae9d",
}


def made_up_corpus() -> Corpus:
    passages = []
    for work_id, (register, split, n) in WORKS.items():
        text = " ".join(f"{work_id.capitalize()}{k} ends here." for k in range(n))
        passages.append(Passage(f"{work_id}/0000", work_id, "made-up", split, 3 * n, text, register))
    return Corpus(passages, {"sources": ["made-up"], "fingerprint": "made-up"}, Path("."))


def made_up_builder(**config) -> InterleaveCurriculum:
    return InterleaveCurriculum(
        corpus=made_up_corpus(), n_words=3, train_size=50, validation_size=20, test_size=0, **config
    )


def split_rows(builder: InterleaveCurriculum, split: str) -> list[dict]:
    return list(builder.as_streaming_dataset(split=split))


def digest(rows: list[dict]) -> str:
    return hashlib.sha256(json.dumps(rows, sort_keys=True).encode()).hexdigest()
