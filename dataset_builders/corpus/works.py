"""What every corpus source yields: whole works (a speech, a book, a document), each of one register."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Work:
    """One work: the unit that is assigned to a split, so test text is never seen in training."""

    work_id: str
    source: str
    title: str
    sections: tuple[tuple[str, ...], ...]
    register: str = ""

    def __post_init__(self):
        if not self.register:  # a source without registers of its own is its own register
            object.__setattr__(self, "register", self.source)


@dataclass
class SourceResult:
    """What a source read: its works, the files it read (name -> sha256), and notes for the manifest."""

    name: str
    works: list[Work] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)
    origin: str = ""
    register: str = ""
    license: str = ""
    license_text: str = ""  # the licence's own words where it asks to be passed on (BSD's notice)
    notes: list[str] = field(default_factory=list)
