"""The interleave curriculum as a ``datasets.GeneratorBasedBuilder``: configs ``stage-1`` .. ``stage-6`` or any length.

Used in-process (``datasets`` >= 4 runs no loading scripts)::

    builder = InterleaveCurriculum(config_name="stage-3")          # or InterleaveCurriculum(n_words=37)
    builder.download_and_prepare(); test = builder.as_dataset("test")
    stream = builder.as_streaming_dataset("train")                 # problems generated on the fly
"""

from __future__ import annotations

from dataclasses import dataclass

import datasets
from datasets.builder import Key

from dataset_builders.corpus import OUT_OF_REGISTER, OUT_OF_REGISTER_VALIDATION, Corpus, load_corpus
from dataset_builders.fetch import cache_dir
from dataset_builders.indexing import AddressableConfig, check_integer
from dataset_builders.interleave_curriculum.doubles import check_doubled_fraction
from dataset_builders.interleave_curriculum.identifiers import check_identifier_fraction, check_long_identifier_share
from dataset_builders.interleave_curriculum.mix import check_register_weights
from dataset_builders.interleave_curriculum.problems import GENERATOR_VERSION, InterleaveProblems
from dataset_builders.interleave_curriculum.repeats import check_repeated_fraction
from dataset_builders.interleave_curriculum.scramble import check_scrambled_fraction
from dataset_builders.interleave_curriculum.stages import STAGE_WORDS
from dataset_builders.prompts import PROMPT_VERSION

DESCRIPTION = (
    "Pairs of n-word fragments of real text of several registers (speeches, novels, plays, encyclopedia leads, "
    "country fact sheets; technical documentation held out as the out_of_register split) and their word-by-word "
    "interleave a1 b1 a2 b2 ...; problem i of a split is a pure function of (seed, split, i)."
)

MESSAGES = datasets.List({"role": datasets.Value("string"), "content": datasets.Value("string")})

FEATURES = datasets.Features(
    {
        "id": datasets.Value("string"),
        "stage": datasets.Value("int32"),
        "n_words": datasets.Value("int32"),
        "text_a": datasets.Value("string"),
        "text_b": datasets.Value("string"),
        "target": datasets.Value("string"),
        "prompt": MESSAGES,
        "source_a": datasets.Value("string"),
        "source_b": datasets.Value("string"),
        "register_a": datasets.Value("string"),
        "register_b": datasets.Value("string"),
    }
)


@dataclass
class InterleaveCurriculumConfig(AddressableConfig):
    """Words per fragment, plus seed, split sizes and the first train index (to resume a stream).

    ``register_weights`` overrides ``mix.REGISTER_WEIGHTS`` in the train split only (None: the fixed mix); validation,
    test and out_of_register keep the fixed mix, so scores stay comparable. ``scrambled_fraction`` of the train
    problems (0: none) have their texts' words shuffled (``scramble.py``); the other splits keep every text in order.
    ``identifier_fraction`` of the train problems (0: none) have some words replaced by synthetic identifiers built
    from their own words (``identifiers.py``), ``long_identifier_share`` of those identifiers (0: none) long ones of 3
    or 4 components; ``doubled_fraction`` of the train problems (0: none) have words copied so that the target holds
    identical adjacent words (``doubles.py``); ``repeated_fraction`` of them (0: none) have a phrase copied over other
    words of both texts so that it repeats within a text and across the two (``repeats.py``); the other splits keep
    their texts as written.
    """

    n_words: int = 10
    out_of_register_size: int = 512
    out_of_register_validation_size: int = 256
    register_weights: dict[str, int] | None = None
    scrambled_fraction: float = 0.0
    identifier_fraction: float = 0.0
    long_identifier_share: float = 0.0
    doubled_fraction: float = 0.0
    repeated_fraction: float = 0.0

    def check(self) -> None:
        """Raise ValueError for a fragment length, sizes, register weights, a scrambled, identifier, doubled or
        repeated fraction or a long identifier share that make no sense."""
        check_integer("n_words", self.n_words, minimum=1)
        check_integer("out_of_register_size", self.out_of_register_size, minimum=0)
        check_integer("out_of_register_validation_size", self.out_of_register_validation_size, minimum=0)
        if self.register_weights is not None:
            check_register_weights(self.register_weights)
        check_scrambled_fraction(self.scrambled_fraction)
        check_identifier_fraction(self.identifier_fraction)
        check_long_identifier_share(self.long_identifier_share)
        check_doubled_fraction(self.doubled_fraction)
        check_repeated_fraction(self.repeated_fraction)
        super().check()

    def split_register_weights(self, split: str) -> dict[str, int] | None:
        """The register weights of ``split``'s mix: this config's for train, the fixed mix (None) for the others."""
        return self.register_weights if split == "train" else None

    def split_scrambled_fraction(self, split: str) -> float:
        """The share of ``split``'s problems with scrambled texts: this config's for train, none for the others."""
        return self.scrambled_fraction if split == "train" else 0.0

    def split_identifier_fraction(self, split: str) -> float:
        """The share of ``split``'s problems with identifiers: this config's for train, none for the others."""
        return self.identifier_fraction if split == "train" else 0.0

    def split_long_identifier_share(self, split: str) -> float:
        """The share of long identifiers among ``split``'s identifiers: this config's for train, none for the others."""
        return self.long_identifier_share if split == "train" else 0.0

    def split_doubled_fraction(self, split: str) -> float:
        """The share of ``split``'s problems with doubled words: this config's for train, none for the others."""
        return self.doubled_fraction if split == "train" else 0.0

    def split_repeated_fraction(self, split: str) -> float:
        """The share of ``split``'s problems with a repeated phrase: this config's for train, none for the others."""
        return self.repeated_fraction if split == "train" else 0.0


def custom_config_name(n_words: int) -> str:
    """The config name for a fragment length outside the curriculum, e.g. ``words-37``."""
    return f"words-{n_words}"


def config_name_for(n_words: int) -> str:
    """``stage-N`` for a curriculum length, else ``words-N``."""
    stage = next((s for s, w in STAGE_WORDS.items() if w == n_words), None)
    return f"stage-{stage}" if stage else custom_config_name(n_words)


class InterleaveCurriculum(datasets.GeneratorBasedBuilder):
    """Interleave problems generated from the embedded corpus; test/validation use only held-out works, and the
    ``out_of_register`` split only the held-out registers, ``out_of_register_validation`` (their choice split) only
    the held-out register's other source (each left out when the corpus holds none)."""

    VERSION = datasets.Version("1.0.0")
    BUILDER_CONFIG_CLASS = InterleaveCurriculumConfig
    BUILDER_CONFIGS = [
        InterleaveCurriculumConfig(
            name=f"stage-{stage}",
            version=datasets.Version("1.0.0"),
            n_words=words,
            description=f"curriculum stage {stage}: {words} words per fragment",
        )
        for stage, words in STAGE_WORDS.items()
    ]
    DEFAULT_CONFIG_NAME = "stage-1"

    def __init__(self, config_name: str | None = None, *, corpus: Corpus | None = None, **kwargs):
        self.corpus = corpus if corpus is not None else load_corpus()
        kwargs.setdefault("cache_dir", str(cache_dir("datasets")))
        kwargs.setdefault("dataset_name", "interleave_curriculum")
        # The corpus and the generator code decide the examples: both go into the cache key.
        kwargs.setdefault("hash", f"{self.corpus.manifest['fingerprint'][:16]}-g{GENERATOR_VERSION}-p{PROMPT_VERSION}")
        super().__init__(config_name=config_name, **kwargs)
        self.config.check()
        self._problems: dict[str, InterleaveProblems] = {}

    def _create_builder_config(self, config_name=None, custom_features=None, config_id=None, **config_kwargs):
        # No weights is the fixed mix: the config id (and cache folder) of before; weights go in sorted, so the order
        # they were given in does not change it. No scrambled problems, none with identifiers, no long identifiers, none
        # with doubled words or none with a repeated phrase, likewise (a long share without identifiers changes no
        # text: dropped); 1 and 1.0 are one config.
        weights = config_kwargs.pop("register_weights", None)
        if weights is not None:
            check_register_weights(weights)
            config_kwargs["register_weights"] = dict(sorted(weights.items()))
        for name, check in (
            ("scrambled_fraction", check_scrambled_fraction),
            ("identifier_fraction", check_identifier_fraction),
            ("long_identifier_share", check_long_identifier_share),
            ("doubled_fraction", check_doubled_fraction),
            ("repeated_fraction", check_repeated_fraction),
        ):
            fraction = config_kwargs.pop(name, 0.0)
            check(fraction)
            if fraction and (name != "long_identifier_share" or config_kwargs.get("identifier_fraction")):
                config_kwargs[name] = float(fraction)
        n_words = config_kwargs.get("n_words")
        if config_name is None and n_words is not None:
            config_name = config_name_for(n_words)
        if config_name is not None and config_name not in self.builder_configs:
            if n_words is None or config_name != custom_config_name(n_words):
                raise ValueError(
                    f"unknown config {config_name!r}: use one of {list(self.builder_configs)}, "
                    "or pass n_words=N (config words-N) for another fragment length"
                )
            config = InterleaveCurriculumConfig(
                name=config_name, version=self.VERSION, description=f"{n_words} words per fragment", **config_kwargs
            )
            return config, config.create_config_id({k: v for k, v in config_kwargs.items() if k != "n_words"})
        named = self.builder_configs.get(config_name or self.DEFAULT_CONFIG_NAME)
        if n_words is not None and n_words != named.n_words:
            raise ValueError(f"config {named.name} has {named.n_words} words per fragment, not {n_words}")
        config_kwargs.pop("n_words", None)
        return super()._create_builder_config(config_name, custom_features, config_id, **config_kwargs)

    def _info(self) -> datasets.DatasetInfo:
        licenses = "; ".join(
            f"{name}: {info.get('license') or 'see the corpus manifest'}"
            for name, info in self.corpus.manifest.get("sources_read", {}).items()
        )
        return datasets.DatasetInfo(
            description=DESCRIPTION, features=FEATURES, license=f"Texts: {licenses}. Code: Apache-2.0."
        )

    def problems(self, split: str) -> InterleaveProblems:
        """The problem generator of ``split`` for this config (built once per builder)."""
        if split not in self._problems:
            self._problems[split] = InterleaveProblems(
                self.corpus,
                split,
                self.config.n_words,
                self.config.seed,
                self.config.split_register_weights(split),
                self.config.split_scrambled_fraction(split),
                self.config.split_identifier_fraction(split),
                self.config.split_long_identifier_share(split),
                self.config.split_doubled_fraction(split),
                self.config.split_repeated_fraction(split),
            )
        return self._problems[split]

    def _split_generators(self, dl_manager):
        sizes = {
            OUT_OF_REGISTER: self.config.out_of_register_size,
            OUT_OF_REGISTER_VALIDATION: self.config.out_of_register_validation_size,
        }  # each left out when the corpus holds no text of it
        return self.config.split_generators(**{s: n if self.corpus.split(s) else 0 for s, n in sizes.items()})

    def _generate_examples(self, split: str, blocks: list[tuple[int, int]]):
        problems = self.problems(split)
        for shard, (start, stop) in enumerate(blocks):
            for index in range(start, stop):
                yield Key(shard, index - start), problems[index]
