"""The experiment tracker's name for a run: a fresh run starts its own record, a resumed run continues its own.

transformers starts trackio with ``resume="allow"`` and the run's name (``run_name``, default the output folder's
name), so a fresh ``stage-1`` run after an earlier one (killed, or moved away) was appended to that older record
("Resumed existing run: stage-1"). A fresh run whose name trackio already holds gets the next free suffix
(``stage-1-2``); the name is kept in the run folder, so ``--resume`` continues the same record.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from pathlib import Path

logger = logging.getLogger(__name__)

NAME_FILE = ".tracking_run_name"


def tracking_run_name(output_dir: str | Path, run_name: str, resume: bool, taken: Iterable[str]) -> str:
    """``run_name``, or for a fresh run whose name is ``taken`` the first free ``run_name-N``; a resumed run gets
    the name its fresh start chose (kept in ``output_dir``)."""
    path = Path(output_dir) / NAME_FILE
    if resume:
        return (path.read_text(encoding="utf-8").strip() if path.is_file() else "") or run_name
    taken, name, suffix = set(taken), run_name, 2
    while name in taken:
        name, suffix = f"{run_name}-{suffix}", suffix + 1
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(name + "\n", encoding="utf-8")
    return name


def trackio_run_names(project: str) -> list[str]:
    """The run names trackio's local store (``TRACKIO_DIR``) holds for ``project``."""
    from trackio.sqlite_storage import SQLiteStorage

    return SQLiteStorage.get_runs(project)


def name_tracking_run(args, output_dir: str | Path, resume: bool) -> None:
    """Set ``args.run_name`` (TrainingArguments) to the run's tracker name when it reports to trackio."""
    report_to = [args.report_to] if isinstance(args.report_to, str) else list(args.report_to or [])
    if "trackio" not in report_to and "all" not in report_to:
        return
    name = tracking_run_name(output_dir, args.run_name, resume, [] if resume else trackio_run_names(args.project))
    if name != args.run_name:
        logger.info(
            "trackio already holds a run named %s (project %s): this run is %s", args.run_name, args.project, name
        )
    args.run_name = name
