"""Datasets of interleave-grpo: the embedded corpus, the interleave curriculum and the arithmetic control."""
