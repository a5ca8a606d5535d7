"""Addressable problem indices: a keyed pseudo-random permutation of ``range(n)``, index blocks, split generators.

The permutation maps problem ``i`` to a distinct position in O(1): a balanced Feistel network on the
smallest even number of bits that covers ``n``, BLAKE2b as the round function, cycle-walking back into
``range(n)``. It depends only on the key string and ``n`` (no interpreter hash seed, no library RNG
stream), so every process and every Python version agrees.
"""

from __future__ import annotations

import hashlib
import numbers
from dataclasses import dataclass

import datasets

ROUNDS = 6


class KeyedPermutation:
    """A bijection of ``range(n)`` chosen by ``key``: ``perm(i)`` for ``0 <= i < n`` are all distinct."""

    def __init__(self, n: int, key: str):
        if n < 1:
            raise ValueError(f"a permutation needs n >= 1, got {n}")
        self.n = n
        self.key = key
        bits = max(2, (n - 1).bit_length())
        bits += bits % 2
        self._half = bits // 2
        self._mask = (1 << self._half) - 1
        self._round_keys = [hashlib.sha256(f"{key}/round{r}".encode()).digest()[:32] for r in range(ROUNDS)]

    def _round(self, r: int, value: int) -> int:
        digest = hashlib.blake2b(value.to_bytes(16, "little"), key=self._round_keys[r], digest_size=16).digest()
        return int.from_bytes(digest, "little") & self._mask

    def _encrypt(self, x: int) -> int:
        left, right = x >> self._half, x & self._mask
        for r in range(ROUNDS):
            left, right = right, left ^ self._round(r, right)
        return (left << self._half) | right

    def __call__(self, i: int) -> int:
        if not 0 <= i < self.n:
            raise IndexError(f"position {i} outside range({self.n})")
        x = self._encrypt(i)
        while x >= self.n:  # cycle-walk: the walk from a point inside range(n) always comes back inside
            x = self._encrypt(x)
        return x

    def __len__(self) -> int:
        return self.n


def keyed_int(key: str, n: int) -> int:
    """A pseudo-random integer in ``range(n)`` fixed by ``key`` (SHA-256, bias below 2**-190)."""
    return int.from_bytes(hashlib.sha256(key.encode()).digest(), "little") % n


def index_blocks(start: int, count: int, block: int = 1000) -> list[tuple[int, int]]:
    """``[start, start + count)`` cut into ``(start, stop)`` blocks: the shards of a builder split."""
    if start < 0 or count < 0:
        raise ValueError(f"start and count must be >= 0, got {start} and {count}")
    return [(s, min(s + block, start + count)) for s in range(start, start + count, block)]


def split_generators(train: tuple[int, int], validation: int, test: int, **held_out: int) -> list:
    """``datasets.SplitGenerator`` s for addressable problems: train ``(start, count)``, validation, test and any
    other held-out split (``out_of_register=512``) from 0.

    Each passes ``split`` and index ``blocks`` to ``_generate_examples``; empty splits are left out.
    """
    generators = []
    sizes = {"train": train, "validation": (0, validation), "test": (0, test)}
    sizes.update({split: (0, count) for split, count in held_out.items()})
    for split, (start, count) in sizes.items():
        if count > 0:
            generator = datasets.SplitGenerator(
                name=split, gen_kwargs={"split": split, "blocks": index_blocks(start, count)}
            )
            generator.split_info.num_examples = count  # progress bars show a total
            generators.append(generator)
    return generators


def check_integer(name: str, value, minimum: int | None = None) -> None:
    """A ValueError naming ``name`` unless ``value`` is an int >= ``minimum`` (not a bool, float or numeric string)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer, got {value!r} ({type(value).__name__})")
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")


@dataclass
class AddressableConfig(datasets.BuilderConfig):
    """Seed, split sizes and the first train index of a builder whose problem i is a function of (seed, split, i)."""

    seed: int = 0
    train_size: int = 10_000
    validation_size: int = 256
    test_size: int = 512
    start_index: int = 0

    def __post_init__(self):
        super().__post_init__()
        self.check()

    def check(self) -> None:
        """Raise ValueError for a seed or sizes that make no sense (named configs are checked again after overrides)."""
        check_integer("seed", self.seed)
        for field in ("train_size", "validation_size", "test_size", "start_index"):
            check_integer(field, getattr(self, field), minimum=0)

    def split_generators(self, **held_out: int) -> list:
        """The split generators of these sizes, plus any other held-out split (see :func:`split_generators`)."""
        return split_generators((self.start_index, self.train_size), self.validation_size, self.test_size, **held_out)


def split_dataset(builder: datasets.GeneratorBasedBuilder, split: str) -> datasets.Dataset:
    """All problems of one split of ``builder`` (its configured size), generated in order, as an in-memory
    ``Dataset``."""
    rows = list(builder.as_streaming_dataset(split=split))
    return datasets.Dataset.from_list(rows, features=builder.info.features, split=split)


def size_override(
    split: str, size: int | None, splits: tuple[str, ...] = ("train", "validation", "test")
) -> dict[str, int]:
    """Config kwargs that set ``split``'s size (none when ``size`` is None); rejects split names not in ``splits``."""
    if split not in splits:
        raise ValueError(f"unknown split {split!r}; expected one of {', '.join(splits)}")
    return {f"{split}_size": size} if size is not None else {}
