"""Metrics of interleave-grpo; each sub-folder is a standalone `evaluate` module."""
