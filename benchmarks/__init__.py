"""Every benchmark of the project (``make bench-metric``, ``make bench-train``, dataset generation speed)."""
