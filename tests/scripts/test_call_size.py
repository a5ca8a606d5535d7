"""scripts/gpu/call_size.py counts files as a tar archive holds them: never less than tar itself writes, apart from
the archive's closing blocks (a record of at most 10 KiB) and long-name headers."""

import io
import tarfile

from tests.conftest import REPO_ROOT
from tests.scripts import load_script

call_size = load_script("scripts/gpu/call_size.py")


def test_the_estimate_is_the_size_of_a_tar_of_the_files(tmp_path):
    sizes = [0, 1, 511, 512, 513, 4096, 100_000]
    for i, size in enumerate(sizes):
        (tmp_path / f"f{i}").write_bytes(b"x" * size)
    files = call_size.files_under(tmp_path)
    estimate = call_size.tar_bytes(files)
    assert estimate == sum(512 + -(-s // 512) * 512 for s in sizes) > sum(sizes)
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for path in files:
            tar.add(path, arcname=path.name)
    assert estimate <= len(buffer.getvalue()) <= estimate + 10240


def test_the_tree_is_what_git_would_send(tmp_path):
    files = {p.relative_to(REPO_ROOT).as_posix() for p in call_size.tree_files(REPO_ROOT)}
    assert "Makefile" in files and "scripts/gpu/call_size.py" in files
    assert not any(name.startswith((".venv/", ".gpu/", ".carry/")) for name in files)  # ignored: never sent


def test_tree_bytes_is_what_every_call_carries(capsys):
    assert call_size.main(["--tree_bytes"]) == 0
    assert int(capsys.readouterr().out) == sum(call_size.always_carried().values()) > 0
