"""Flags of a GRPO run small enough for a CPU test: the tiny random model, 2 prompts x 2 generations of 8 tokens."""

STAGE_1 = ["--config", "training/recipes/stage-1.yaml"]
TINY_GRPO = [
    *("--model", "tiny-random-llama", "--per_device_train_batch_size", "4", "--num_generations", "2"),
    *("--report_to", "none", "--derive_max_completion_length", "false", "--max_completion_length", "8"),
    *("--init_adapter", "base"),  # a fresh adapter as given: stage 1's format start is its own test (test_train_run)
]
