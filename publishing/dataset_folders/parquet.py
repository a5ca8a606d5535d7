"""Write every split of one builder config as parquet in the Hub layout
``data/<config>/<split>-NNNNN-of-NNNNN.parquet``."""

from __future__ import annotations

import logging
import re
import shutil
import tempfile
from pathlib import Path

import datasets

logger = logging.getLogger(__name__)


def write_config_parquet(builder: datasets.DatasetBuilder, folder: Path) -> datasets.DatasetInfo:
    """Generate the builder's splits into ``folder/data/<config>/``; return its info (features, rows per split)."""
    config = builder.config.name
    dest = Path(folder) / "data" / config
    # Prepared next to the folder, not in it: an interrupted run must leave nothing that gets uploaded.
    with tempfile.TemporaryDirectory(dir=Path(folder).parent, prefix=f".{Path(folder).name}-prepare-") as tmp:
        prepared = Path(tmp) / "prepared"
        builder.download_and_prepare(output_dir=str(prepared), file_format="parquet")
        shutil.rmtree(dest, ignore_errors=True)
        dest.mkdir(parents=True)
        for split in builder.info.splits:
            # datasets names them NAME-SPLIT.parquet or NAME-SPLIT-NNNNN-of-NNNNN.parquet: matched whole, so that
            # out_of_register does not take out_of_register_validation's files
            shard = re.compile(rf"{re.escape(builder.dataset_name)}-{re.escape(split)}(-\d{{5}}-of-\d{{5}})?\.parquet")
            files = sorted(path for path in prepared.glob("*.parquet") if shard.fullmatch(path.name))
            if not files:
                raise RuntimeError(f"{config}: datasets wrote no parquet file for split {split} in {prepared}")
            for k, path in enumerate(files):
                shutil.move(str(path), dest / f"{split}-{k:05d}-of-{len(files):05d}.parquet")
    builder.info.download_size = sum(f.stat().st_size for f in dest.glob("*.parquet"))
    logger.info("%s: %s", config, ", ".join(f"{s} {i.num_examples:,} rows" for s, i in builder.info.splits.items()))
    return builder.info


def data_files(config: str, splits) -> list[dict[str, str]]:
    """The ``data_files`` entry of a card's ``configs:`` for one config."""
    return [{"split": split, "path": f"data/{config}/{split}-*.parquet"} for split in splits]
