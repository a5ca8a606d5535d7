"""Trainer callbacks and guards: checkpoints and retention, collapse and non-finite guards, promotion and time budget,
the metrics file and the completion log."""
