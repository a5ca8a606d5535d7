"""The GRPO trainer and what it samples with: TRL's GRPOTrainer subclass, the graph sampler, dynamic sampling,
rollout records and observers, and greedy evaluation on the same sampler."""
