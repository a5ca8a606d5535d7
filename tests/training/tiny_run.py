"""Flags of a GRPO run small enough for a CPU test: the tiny random model, 2 prompts x 2 generations of 8 tokens."""

STAGE_1 = ["--config", "training/recipes/stage-1.yaml"]
TINY_GRPO = [
    *("--model", "tiny-random-llama", "--per_device_train_batch_size", "4", "--num_generations", "2"),
    *("--report_to", "none", "--derive_max_completion_length", "false", "--max_completion_length", "8"),
    *("--init_adapter", "base"),  # a fresh adapter as given: stage 1's format start is its own test (test_train_run)
]
# A tiny stage-1 run that learns in a few steps: a toy reward, a high constant learning rate, one resampling round.
TINY_RUN = [
    *STAGE_1,
    *TINY_GRPO,
    *("--reward_funcs", "tests.training.toy_rewards.letter_reward", "--learning_rate", "0.05"),
    *("--warmup_steps", "0", "--dynamic_sampling_rounds", "1"),
]


def tiny_grpo_config(output_dir, **overrides):
    """TRL's GRPOConfig for a CPU step of the tiny model: 4 completions (2 prompts x 2) of up to 6 tokens, one step,
    nothing saved or reported; ``overrides`` change or add settings."""
    from trl import GRPOConfig

    settings = {
        "output_dir": str(output_dir),
        "max_steps": 1,
        "per_device_train_batch_size": 4,
        "num_generations": 2,
        "max_completion_length": 6,
        "report_to": [],
        "save_strategy": "no",
        "use_cpu": True,
        "disable_tqdm": True,
    }
    return GRPOConfig(**{**settings, **overrides})
