"""Every relative link of the READMEs (top level, results/, spaces/, metrics/) names a file or folder that exists,
and every in-page anchor names a heading of its page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

READMES = sorted(
    [
        REPO_ROOT / "README.md",
        *(p for folder in ("results", "spaces", "metrics") for p in (REPO_ROOT / folder).rglob("README.md")),
    ]
)
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)|!\[[^\]]*\]\(([^)\s]+)\)")
CODE = re.compile(r"```.*?```|`[^`\n]*`", re.DOTALL)


def links(readme: Path) -> list[str]:
    text = CODE.sub("", readme.read_text(encoding="utf-8"))
    return [a or b for a, b in LINK.findall(text)]


def anchors(readme: Path) -> set[str]:
    """GitHub's heading anchors: lowercase, punctuation dropped, spaces to hyphens."""
    headings = re.findall(r"^#{1,6}\s+(.+?)\s*$", CODE.sub("", readme.read_text(encoding="utf-8")), re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-") for h in headings}


def test_the_readmes_are_found():
    assert REPO_ROOT / "README.md" in READMES and len(READMES) > 5


@pytest.mark.parametrize("readme", READMES, ids=lambda p: str(p.relative_to(REPO_ROOT)))
def test_relative_links_resolve(readme):
    broken = []
    for target in links(readme):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:, ...
            continue
        path, _, anchor = target.partition("#")
        if not path:
            if anchor not in anchors(readme):
                broken.append(f"{target} (no such heading)")
            continue
        if not (readme.parent / path).exists():
            broken.append(target)
    assert not broken, f"{readme.relative_to(REPO_ROOT)}: broken links {broken}"


def test_readme_commands_run_python_from_the_venv():
    """A bare `python -m ...` fails with ModuleNotFoundError unless the venv is active; the README names .venv/bin."""
    for readme in (REPO_ROOT / "README.md", REPO_ROOT / "spaces" / "interleave_demo" / "README.md"):
        text = readme.read_text(encoding="utf-8")
        bare = [
            m.group(0)
            for m in re.finditer(r"(?<![\w/.])python3? (-m \S+|\S+\.py)", text)
            if "activate" not in text[max(0, m.start() - 80) : m.start()]
        ]
        assert not bare, f"{readme.relative_to(REPO_ROOT)}: {bare}"


def test_the_local_hub_snippet_loads_only_repos_the_readme_publishes_before_it():
    text = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("**A local hub: `HUB=local`.**") :]
    commands = re.search(r"```bash\n(.*?)```", section, re.DOTALL)
    snippet = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert commands and commands.start() < snippet.start(), "no commands before the snippet"
    commands = commands.group(1)
    published_by = {
        "interleave-curriculum": "make publish HUB=local",
        "arithmetic": "make publish HUB=local",
        "needleman_wunsch": "make publish HUB=local",
    }
    for name in set(re.findall(r'"local/([\w.-]+)"', snippet.group(1))):
        needed = published_by.get(name, f"make publish-base-model HUB=local MODEL={name}")
        assert needed in commands, f"the snippet loads local/{name}, which none of the commands publishes"
