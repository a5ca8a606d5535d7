"""Write the two Hub-layout folders: ``interleave-curriculum/`` and ``arithmetic/`` (parquet, card, license)."""

from __future__ import annotations

import logging
from pathlib import Path

from dataset_builders.arithmetic import Arithmetic
from dataset_builders.arithmetic.task import DATASET_FOLDER as ARITHMETIC_FOLDER
from dataset_builders.corpus import Corpus
from dataset_builders.interleave_curriculum import InterleaveCurriculum, InterleaveProblems
from dataset_builders.interleave_curriculum.task import DATASET_FOLDER as CURRICULUM_FOLDER
from publishing.dataset_folders.cards import LICENSE_NOTE, arithmetic_card, curriculum_card, curriculum_license
from publishing.dataset_folders.parquet import write_config_parquet

logger = logging.getLogger(__name__)

CURRICULUM_CONFIGS = tuple(c.name for c in InterleaveCurriculum.BUILDER_CONFIGS)
ARITHMETIC_CONFIGS = tuple(c.name for c in Arithmetic.BUILDER_CONFIGS)


def _prepare_folder(folder: Path, license_text: str = LICENSE_NOTE + "\n") -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob("data/*/*.parquet"):  # a config left out this time must not linger
        stale.unlink()
    (folder / "LICENSE").write_text(license_text)


def register_shares(folder: Path) -> dict[str, dict[str, float]]:
    """{split: {register: share of its texts}} over every published row (Text A and Text B) of every config."""
    import pyarrow.parquet as pq

    counts: dict[str, dict[str, int]] = {}
    for path in sorted(Path(folder).glob("data/*/*.parquet")):
        split = path.name.rsplit("-", 4)[0]
        table = pq.read_table(path, columns=["register_a", "register_b"])
        for column in ("register_a", "register_b"):
            for register in table.column(column).to_pylist():
                counts.setdefault(split, {}).setdefault(register, 0)
                counts[split][register] += 1
    return {split: {r: n / sum(c.values()) for r, n in sorted(c.items())} for split, c in counts.items()}


def write_curriculum_folder(
    out: Path,
    corpus: Corpus,
    configs=CURRICULUM_CONFIGS,
    seed: int = 0,
    train_size: int = 10_000,
    validation_size: int = 256,
    test_size: int = 512,
    repo: str | None = None,
    command: str = "",
) -> Path:
    """Parquet for each curriculum config and split (``out_of_register`` as large as test,
    ``out_of_register_validation`` as validation), plus README.md and LICENSE, under ``out/interleave-curriculum``."""
    folder = Path(out) / CURRICULUM_FOLDER
    _prepare_folder(folder, curriculum_license(corpus.manifest))
    infos, n_words = {}, {}
    for name in configs:  # out_of_register is as large as test, out_of_register_validation as validation
        builder = InterleaveCurriculum(
            name,
            corpus=corpus,
            seed=seed,
            train_size=train_size,
            validation_size=validation_size,
            test_size=test_size,
            out_of_register_size=test_size,
            out_of_register_validation_size=validation_size,
        )
        logger.info("interleave curriculum %s (%d words per text)", name, builder.config.n_words)
        infos[name] = write_config_parquet(builder, folder)
        n_words[name] = builder.config.n_words
    first = configs[0]
    example = InterleaveProblems(corpus, "test", n_words[first], seed)[0]
    card = curriculum_card(
        infos, n_words, example, repo or str(folder), seed, corpus.manifest, command, register_shares(folder)
    )
    card.save(folder / "README.md")
    return folder


def write_arithmetic_folder(
    out: Path,
    configs=ARITHMETIC_CONFIGS,
    seed: int = 0,
    train_size: int = 10_000,
    validation_size: int = 256,
    test_size: int = 512,
    repo: str | None = None,
    command: str = "",
) -> Path:
    """Parquet for each arithmetic config and split, plus README.md and LICENSE, under ``out/arithmetic``."""
    folder = Path(out) / ARITHMETIC_FOLDER
    _prepare_folder(folder)
    infos, digits, held_out, examples = {}, {}, {}, {}
    for name in configs:
        probe = Arithmetic(name, seed=seed)
        # A published train sample never repeats a pair: small configs get all their train pairs at most.
        builder = Arithmetic(
            name,
            seed=seed,
            train_size=min(train_size, probe.problems.n_train),
            validation_size=validation_size,
            test_size=test_size,
        )
        logger.info("arithmetic %s", name)
        infos[name] = write_config_parquet(builder, folder)
        digits[name] = (builder.config.a_digits, builder.config.b_digits)
        held_out[name] = builder.config.held_out_per_split
        examples[name] = builder.problems.problem("test", 0)
    example = examples.get("3x2", next(iter(examples.values())))
    card = arithmetic_card(infos, digits, held_out, example, repo or str(folder), seed, command)
    card.save(folder / "README.md")
    return folder
