"""Every relative link of the project's Markdown files points at a file or folder that exists."""

import re
import subprocess

from tests.conftest import REPO_ROOT

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def tracked_markdown() -> list[str]:
    listed = subprocess.run(["git", "ls-files", "*.md"], cwd=REPO_ROOT, capture_output=True, text=True, check=True)
    return [name for name in listed.stdout.split() if (REPO_ROOT / name).is_file()]


def test_relative_links_resolve():
    broken = []
    for name in tracked_markdown():
        path = REPO_ROOT / name
        for target in LINK.findall(path.read_text(encoding="utf-8")):
            target = target.split("#")[0]
            if not target or "://" in target or target.startswith(("mailto:", "{{")):
                continue
            if not (path.parent / target).exists():
                broken.append(f"{name}: {target}")
    assert not broken, "broken links:\n" + "\n".join(broken)
