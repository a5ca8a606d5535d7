"""Turn raw source texts into sections of clean paragraphs (one paragraph = one line of prose)."""

from __future__ import annotations

import re

_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_SPACES = re.compile(r"\s+")

# --- State of the Union -------------------------------------------------------------------------
_BRACKET = re.compile(r"\[([^\[\]]*)\]")
_NOTE_WORDS = re.compile(
    r"applause|laughter|inaudible|app note|audience|delivered|disruption|silence|recorded|released|"
    r"read before|presented|entered|held up|broadcast|exclusive of|in (?:millions|billions)|p\.\s*\d|^\s*on\b",
    re.IGNORECASE,
)


def _bracket_replacement(match: re.Match) -> str:
    """Keep editorial insertions and corrections (``[to]``, ``[we're; White House correction]``), drop notes."""
    inner = match.group(1).strip()
    if ";" in inner and "correction" in inner.lower():
        return inner.split(";", 1)[0].strip()
    words = inner.split()
    if not words or _NOTE_WORDS.search(inner) or re.fullmatch(r"[\d\s.,:/=-]+", inner):
        return " "
    if len(words) <= 4 and not inner.endswith("."):
        return inner
    return " "


def clean_sotu(text: str) -> list[str]:
    """Paragraphs of one address, bracketed notes such as ``[Applause]`` removed."""
    paragraphs = []
    for block in _BLANK_LINE.split(text.replace("\r\n", "\n")):
        para = _SPACES.sub(" ", _BRACKET.sub(_bracket_replacement, block)).strip()
        if para and re.search(r"[A-Za-z]", para):
            paragraphs.append(para)
    return paragraphs


# --- Project Gutenberg (NLTK selection) ---------------------------------------------------------
_FOOTER = re.compile(
    r"^\s*(\*+\s*)?(end of (the )?project gutenberg|\*?end\*?\s*the small print|end of this project gutenberg"
    r"|\*\*\*\s*end of)",
    re.IGNORECASE | re.MULTILINE,
)
_HEADING_START = re.compile(r"^(volume|book|part|chapter|stave)\s+([ivxlc]+|\d+)\b", re.IGNORECASE)
_ROMAN_HEADING = re.compile(r"^[IVXLC]+(\.\s|\.?$)")
_SEPARATOR = re.compile(r"^[\s*.\-_=~#]+$")
_ILLUSTRATION = re.compile(r"^\[(illustration|footnote)\b.*\]$", re.IGNORECASE | re.DOTALL)
_HEADING_MAX_WORDS = 12


def _is_heading(para: str) -> bool:
    words = para.split()
    if not words or len(words) > _HEADING_MAX_WORDS:
        return False
    if _HEADING_START.match(para) or _ROMAN_HEADING.match(para):
        return True
    letters = [c for c in para if c.isalpha()]
    return bool(letters) and all(c.isupper() for c in letters)


def _is_subtitle(para: str) -> bool:
    """A short Title Case line right after a chapter heading (``Loomings.``) is the chapter's title, not prose."""
    words = [w.strip(".,:;!?-'\"()") for w in para.split()]
    return len(words) <= 8 and all(w[:1].isupper() for w in words if len(w) >= 4)


def clean_gutenberg(text: str) -> tuple[str, list[list[str]]]:
    """(title, sections): the ``[Title by Author Year]`` line, then paragraphs split at chapter headings.

    Removes Gutenberg boilerplate after the end marker, joins wrapped lines, drops ``_`` italics marks,
    scene separators and illustration notes, and starts a new section at each heading.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    footer = _FOOTER.search(text)
    if footer:
        text = text[: footer.start()]
    blocks = [b.strip() for b in _BLANK_LINE.split(text) if b.strip()]
    title = ""
    if blocks and blocks[0].startswith("[") and blocks[0].endswith("]"):
        title = blocks.pop(0)[1:-1].strip()
    sections: list[list[str]] = [[]]
    after_heading = False
    for block in blocks:
        para = _SPACES.sub(" ", block.replace("_", "")).strip()
        if not para or _SEPARATOR.match(para) or _ILLUSTRATION.match(para):
            continue
        if _is_heading(para) or (after_heading and _is_subtitle(para)):
            if sections[-1]:
                sections.append([])
            after_heading = True
            continue
        after_heading = False
        sections[-1].append(para)
    return title, [s for s in sections if s]


def clean_plain(text: str) -> list[str]:
    """Paragraphs of a plain text (blank-line separated, wrapped lines joined)."""
    text = text.replace("\r\n", "\n")
    return [p for p in (_SPACES.sub(" ", b).strip() for b in _BLANK_LINE.split(text)) if p]
