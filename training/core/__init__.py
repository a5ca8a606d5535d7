"""The bottom layer of training: recipe and argument parsing, the run's task, reports, plots and run helpers.

Rooms of ``training/``, upper over lower: ``cli`` > ``trainer`` > ``callbacks`` > ``core``; a room imports only
rooms below it (tests/test_import_layers.py checks).
"""
