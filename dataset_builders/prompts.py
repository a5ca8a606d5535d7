"""The one prompt template of the project: the interleave and arithmetic prompts and the interleave target.

The datasets, the trainer, evaluation and the demo all import from here, so a prompt is written once.
Prompts are chat messages in TRL's conversational format: ``[{"role": "user", "content": ...}]``.
"""

from __future__ import annotations

from collections.abc import Sequence

PROMPT_VERSION = 1  # bump when a template changes: published datasets record it

INTERLEAVE_INSTRUCTION = (
    "You run two processes in parallel. Process A reads Text A and process B reads Text B. "
    "They take turns, each emitting one word of its text per turn: A's first word, then B's first word, "
    "then A's second word, then B's second word, and so on. When one text runs out of words, the other "
    "process goes on alone with the rest of its words. Do this all in one turn. "
    "Output only the interleaved words, separated by single spaces."
)

ARITHMETIC_INSTRUCTION = "What is {a} * {b}? Reply with the product only: digits only, no working, no words."


def _words(text: str | Sequence[str]) -> list[str]:
    return text.split() if isinstance(text, str) else list(text)


def interleave_words(words_a: str | Sequence[str], words_b: str | Sequence[str]) -> list[str]:
    """a1 b1 a2 b2 ... while both have words, then the rest of the longer one (a string is split on whitespace)."""
    a, b = _words(words_a), _words(words_b)
    common = min(len(a), len(b))
    out = [word for pair in zip(a[:common], b[:common]) for word in pair]
    return out + a[common:] + b[common:]


def interleave_target(words_a: str | Sequence[str], words_b: str | Sequence[str]) -> str:
    """The interleave of two texts as one string of words joined by single spaces: the one target."""
    return " ".join(interleave_words(words_a, words_b))


def interleave_user_message(text_a: str, text_b: str) -> str:
    """The user turn of the interleave prompt: the instruction, then Text A and Text B."""
    return f"{INTERLEAVE_INSTRUCTION}\n\nText A:\n{text_a}\n\nText B:\n{text_b}"


def interleave_prompt(text_a: str, text_b: str) -> list[dict[str, str]]:
    """Chat messages asking to interleave ``text_a`` and ``text_b`` word by word."""
    return [{"role": "user", "content": interleave_user_message(text_a, text_b)}]


def arithmetic_user_message(a: int, b: int) -> str:
    """The user turn of the arithmetic prompt: the product of ``a`` and ``b``, digits only."""
    return ARITHMETIC_INSTRUCTION.format(a=a, b=b)


def arithmetic_prompt(a: int, b: int) -> list[dict[str, str]]:
    """Chat messages asking for ``a * b`` as digits only."""
    return [{"role": "user", "content": arithmetic_user_message(a, b)}]


def completion_text(completion: str | Sequence[dict]) -> str:
    """The text of a completion: the string itself, or its assistant messages' contents joined by newlines.

    A message's content may be a string or a list of parts (``{"type": "text", "text": ...}``), concatenated.
    """
    if isinstance(completion, str):
        return completion
    texts = []
    for message in completion:
        if message.get("role", "assistant") != "assistant":
            continue
        content = message.get("content") or ""
        texts.append(content if isinstance(content, str) else "".join(part.get("text", "") for part in content))
    return "\n".join(texts)


def ends_with_open_turn(prompt) -> bool:
    """Whether chat ``prompt`` ends with an assistant turn (a continuation problem: the start of the answer, given),
    which the model continues instead of answering in a new turn."""
    return isinstance(prompt, list) and bool(prompt) and prompt[-1].get("role") == "assistant"


def chat_prompt_ids(tokenizer, prompt: Sequence[dict]) -> list[int]:
    """The token ids of chat ``prompt`` with the generation prompt, whether the tokenizer's ``apply_chat_template``
    returns ids or a mapping holding them (transformers versions differ). A prompt that ends with an assistant turn
    (``ends_with_open_turn``) is left open for the model to continue that turn."""
    open_turn = ends_with_open_turn(list(prompt))
    ids = tokenizer.apply_chat_template(
        list(prompt), add_generation_prompt=not open_turn, continue_final_message=open_turn, tokenize=True
    )
    return list(ids["input_ids"] if hasattr(ids, "keys") else ids)


def end_token_ids(model, tokenizer) -> list[int]:
    """Every token id that ends a completion: the tokenizer's eos, each one the model's generation config declares,
    and the tokenizer's other special tokens. An answer here is plain text, so any special token means it is over; a
    chat marker such as ``<|im_start|>`` opens the next turn. Training, evaluation and the demo stop at the same ids.

    A narrower rule broke portability: converted from the GGUF by transformers 5.17 (the GPU machines), SmolLM2's
    tokenizer declared ``<|im_start|>`` as its eos, so rollouts stopped there and GRPO taught the shipped adapter to
    end with ``\\n<|im_start|>``; converted by transformers 5.23, eos is ``<|im_end|>``, and the same adapter ran on to
    the token limit on CPU (0 of 64 test problems ended, NW 0.09 where the GPU measured 0.97).
    """
    declared = getattr(getattr(model, "generation_config", None), "eos_token_id", None)
    declared = [] if declared is None else [declared] if isinstance(declared, int) else list(declared)
    special = [i for i in getattr(tokenizer, "all_special_ids", None) or [] if i is not None]
    first = [tokenizer.eos_token_id] if tokenizer.eos_token_id is not None else []
    return list(dict.fromkeys(first + declared + sorted(special)))
