"""``python -m training.train``: prepare corpus and model for a curriculum stage and report the plan.

GRPO itself is not wired in yet (issue 5): this entry point prepares everything a stage needs
(corpus, model, device) and prints what it would train, so `make train-stage N=...` works end to end.
"""

from __future__ import annotations

import argparse
import logging
import sys

from dataset_builders.corpus import SPLITS, load_corpus
from dataset_builders.fetch import FetchError
from dataset_builders.interleave_curriculum import STAGE_WORDS, stage_words
from training.completion_length import max_completion_length, tokens_per_word
from training.models import EMBEDDED_MODEL, ModelUnavailable, load_model, pick_device, resolve_model

logger = logging.getLogger(__name__)


def describe_plan(stage: int, model_name: str, device: str | None = None) -> dict:
    """Prepare corpus + model for ``stage`` and return what a run would train on."""
    n_words = stage_words(stage)
    corpus = load_corpus()
    usable = {split: len(corpus.split(split, min_words=n_words)) for split in SPLITS}
    device = pick_device(device)
    model, tokenizer = load_model(model_name, device=device)
    per_word = tokens_per_word(tokenizer, corpus, "train")
    return {
        "stage": stage,
        "n_words": n_words,
        "model": model_name,
        "model_path": resolve_model(model_name),
        "parameters": sum(p.numel() for p in model.parameters()),
        "dtype": str(model.dtype).removeprefix("torch."),
        "device": device,
        "corpus": str(corpus.path),
        "corpus_sources": corpus.sources,
        "passages_with_enough_words": usable,
        "tokens_per_word": per_word,
        "max_completion_length": max_completion_length(n_words, per_word),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.train", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--stage", type=int, required=True, choices=sorted(STAGE_WORDS), help="curriculum stage")
    parser.add_argument("--model", default=EMBEDDED_MODEL, help=f"{EMBEDDED_MODEL} (default), a local folder or a Hub id")
    parser.add_argument("--device", default=None, help="cpu, cuda, cuda:1 ... (default: cuda if present, else cpu)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        plan = describe_plan(args.stage, args.model, args.device)
    except (FetchError, ModelUnavailable) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"stage {plan['stage']}: interleave two fragments of {plan['n_words']} words each")
    print(f"model   {plan['model']} ({plan['parameters'] / 1e6:.1f}M parameters, {plan['dtype']}) from {plan['model_path']}")
    print(f"device  {plan['device']}")
    print(f"corpus  {', '.join(plan['corpus_sources'])} at {plan['corpus']}")
    print("passages long enough for this stage: "
          + ", ".join(f"{split} {n:,}" for split, n in plan["passages_with_enough_words"].items()))
    print(f"completions up to {plan['max_completion_length']} tokens "
          f"({plan['tokens_per_word']:.2f} tokens per word on this tokenizer, x 2 x {plan['n_words']} words, +30% + 16)")
    print("GRPO training is not implemented yet (issue 5): corpus and model are ready, nothing was trained.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
