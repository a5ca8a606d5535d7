"""The arithmetic positive control as a ``datasets.GeneratorBasedBuilder``: configs ``3x2`` (default) and other
digit counts.

Used in-process (``datasets`` >= 4 runs no loading scripts)::

    builder = Arithmetic("3x2")                # or Arithmetic(a_digits=6, b_digits=3)
    builder.download_and_prepare(); test = builder.as_dataset("test")
    stream = builder.as_streaming_dataset("train")
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import datasets
from datasets.builder import Key

from dataset_builders.arithmetic.problems import GENERATOR_VERSION, HELD_OUT_PER_SPLIT, ArithmeticProblems
from dataset_builders.fetch import cache_dir
from dataset_builders.indexing import AddressableConfig, check_integer
from dataset_builders.prompts import PROMPT_VERSION

DESCRIPTION = (
    "Integer multiplication a * b with the product as the only answer: the positive control of interleave-grpo. "
    "Test and validation pairs are drawn first and never appear in train."
)
DIGIT_CONFIGS = ((2, 2), (3, 2), (3, 3), (4, 2), (4, 3), (4, 4), (5, 5))

FEATURES = datasets.Features(
    {
        "id": datasets.Value("string"),
        "a": datasets.Value("int64"),
        "b": datasets.Value("int64"),
        "answer": datasets.Value("int64"),
        "prompt": datasets.List({"role": datasets.Value("string"), "content": datasets.Value("string")}),
    }
)


@dataclass
class ArithmeticConfig(AddressableConfig):
    """Digits per operand and the held-out reserve, plus seed, split sizes and first train index."""

    a_digits: int = 3
    b_digits: int = 2
    held_out_per_split: int = HELD_OUT_PER_SPLIT

    def check(self) -> None:
        """Raise ValueError for sizes that make no sense or held-out splits larger than their reserve."""
        super().check()
        for field in ("a_digits", "b_digits", "held_out_per_split"):
            check_integer(field, getattr(self, field), minimum=1)
        for field in ("validation_size", "test_size"):
            if getattr(self, field) > self.held_out_per_split:
                raise ValueError(f"{field} {getattr(self, field)} exceeds held_out_per_split {self.held_out_per_split}")


def digits_config_name(a_digits: int, b_digits: int) -> str:
    """``3x2`` for 3-digit times 2-digit operands."""
    return f"{a_digits}x{b_digits}"


class Arithmetic(datasets.GeneratorBasedBuilder):
    """Multiplication problems generated from a seed; no test or validation pair is ever trained on."""

    VERSION = datasets.Version("1.0.0")
    BUILDER_CONFIG_CLASS = ArithmeticConfig
    BUILDER_CONFIGS = [
        ArithmeticConfig(
            name=digits_config_name(a, b),
            version=datasets.Version("1.0.0"),
            a_digits=a,
            b_digits=b,
            held_out_per_split=512 if (a, b) == (2, 2) else HELD_OUT_PER_SPLIT,  # 4,095 pairs in all
            description=f"{a}-digit x {b}-digit integers",
        )
        for a, b in DIGIT_CONFIGS
    ]
    DEFAULT_CONFIG_NAME = "3x2"

    def __init__(self, config_name: str | None = None, **kwargs):
        kwargs.setdefault("cache_dir", str(cache_dir("datasets")))
        kwargs.setdefault("dataset_name", "arithmetic")
        kwargs.setdefault("hash", f"g{GENERATOR_VERSION}-p{PROMPT_VERSION}")
        super().__init__(config_name=config_name, **kwargs)
        self.config.check()
        c = self.config
        self.problems = ArithmeticProblems(c.a_digits, c.b_digits, c.seed, c.held_out_per_split)

    def _create_builder_config(self, config_name=None, custom_features=None, config_id=None, **config_kwargs):
        digits = (config_kwargs.get("a_digits"), config_kwargs.get("b_digits"))
        named_digits = re.fullmatch(r"(\d+)x(\d+)", config_name or "")
        if named_digits and digits == (None, None) and config_name not in self.builder_configs:
            digits = tuple(int(g) for g in named_digits.groups())  # "6x3" names its own digits
            config_kwargs.update(a_digits=digits[0], b_digits=digits[1])
        if config_name is None and digits != (None, None):
            if None in digits:
                raise ValueError("give both a_digits and b_digits")
            config_name = digits_config_name(*digits)
        if config_name is not None and config_name not in self.builder_configs:
            if config_name != digits_config_name(*digits):
                raise ValueError(
                    f"unknown config {config_name!r}: use one of {list(self.builder_configs)}, "
                    "or pass a_digits=A, b_digits=B (config AxB) for other digit counts"
                )
            config = ArithmeticConfig(
                name=config_name,
                version=self.VERSION,
                description=f"{digits[0]}-digit x {digits[1]}-digit integers",
                **config_kwargs,
            )
            options = {k: v for k, v in config_kwargs.items() if k not in ("a_digits", "b_digits")}
            return config, config.create_config_id(options)
        named = self.builder_configs.get(config_name or self.DEFAULT_CONFIG_NAME)
        if digits != (None, None) and digits != (named.a_digits, named.b_digits):
            raise ValueError(
                f"config {named.name} is {named.a_digits}x{named.b_digits} digits, not {digits[0]}x{digits[1]}"
            )
        config_kwargs.pop("a_digits", None)
        config_kwargs.pop("b_digits", None)
        return super()._create_builder_config(config_name, custom_features, config_id, **config_kwargs)

    def _info(self) -> datasets.DatasetInfo:
        return datasets.DatasetInfo(
            description=DESCRIPTION, features=FEATURES, license="Generated integers: public domain. Code: Apache-2.0."
        )

    def _split_generators(self, dl_manager):
        return self.config.split_generators()

    def _generate_examples(self, split: str, blocks: list[tuple[int, int]]):
        for shard, (start, stop) in enumerate(blocks):
            for index in range(start, stop):
                yield Key(shard, index - start), self.problems.problem(split, index)
