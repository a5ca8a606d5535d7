"""scripts/compress_results.py: bulky logs become .gz with the same bytes inside; plots become palette PNGs."""

import gzip
from pathlib import Path

from PIL import Image

from tests.scripts import load_script

compress_results = load_script("scripts/compress_results.py")


def _plot(path: Path) -> None:
    """A plot-like RGB image: a white field, two coloured lines and a grey grid."""
    image = Image.new("RGB", (400, 300), "white")
    pixels = image.load()
    for x in range(400):
        pixels[x, 150 + x // 10 % 50] = (31, 119, 180)
        pixels[x, 60] = (255, 127, 14)
        if x % 40 == 0:
            for y in range(300):
                pixels[x, y] = (220, 220, 220)
    image.save(path)


def test_logs_are_gzipped_and_plots_become_palette_images(tmp_path):
    log = tmp_path / "run" / "train.log"
    log.parent.mkdir()
    text = "".join(f"step {i} reward 0.{i % 10}\n" for i in range(20000))
    log.write_text(text)
    small = tmp_path / "run" / "metrics.jsonl"
    small.write_text('{"step": 1}\n')
    plot = tmp_path / "run" / "reward.png"
    _plot(plot)
    before = Image.open(plot).convert("RGB")

    assert compress_results.main([str(tmp_path), "--min_kb", "100"]) == 0

    assert not log.exists() and gzip.decompress((log.parent / "train.log.gz").read_bytes()).decode() == text
    assert small.exists()  # under the size bar: kept as it is
    after = Image.open(plot)
    assert after.mode == "P" and after.convert("RGB").tobytes() == before.tobytes()  # a few colours: lossless here

    saved = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    compress_results.main([str(tmp_path)])
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == saved  # a second pass changes nothing
