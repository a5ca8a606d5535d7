"""GRPO training of the interleave curriculum and the arithmetic control (TRL + peft LoRA)."""
