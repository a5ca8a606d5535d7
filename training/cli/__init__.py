"""Entry points (``python -m training.cli.X``, behind the make targets): train, warm_start, evaluate, curriculum."""
