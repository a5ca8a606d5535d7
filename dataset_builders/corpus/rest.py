"""reStructuredText (Sphinx) to paragraphs of plain text, roughly as a reader sees the rendered page.

Kept: prose paragraphs, list items and definitions (one paragraph each), the text of admonitions and of
object descriptions, whose signature (``QuerySet.filter(*args, **kwargs)``) stays as its own paragraph.
Dropped: code (``.. code-block::``, ``.. console::``, literal blocks after ``::``, ``>>>`` sessions), tables,
section headings, comments, link targets, toctrees and images. Inline markup is unwrapped: roles show their
text (``:class:`~django.db.models.Model``` -> ``Model``), ````literals```` and links their words.
"""

from __future__ import annotations

import re

# Directives whose whole block is dropped (code, tables, navigation, pictures).
DROPPED_DIRECTIVES = frozenset(
    {
        "code-block",
        "code",
        "sourcecode",
        "console",
        "literalinclude",
        "parsed-literal",
        "highlight",
        "doctest",
        "testcode",
        "toctree",
        "image",
        "figure",
        "raw",
        "include",
        "csv-table",
        "list-table",
        "table",
        "graphviz",
        "productionlist",
        "index",
        "contents",
        "module",
        "currentmodule",
        "program",
        "default-role",
        "only",
        "snippet",
    }
)
# Directives that describe an object: the signature is kept as a paragraph, then the description.
OBJECT_DIRECTIVES = frozenset(
    {
        "class",
        "method",
        "function",
        "attribute",
        "data",
        "exception",
        "decorator",
        "classmethod",
        "staticmethod",
        "setting",
        "django-admin",
        "django-admin-option",
        "templatetag",
        "templatefilter",
        "fieldlookup",
        "envvar",
        "option",
        "describe",
        "object",
    }
)
# Directives whose argument is a title worth keeping (other kept directives keep only their content).
TITLED_DIRECTIVES = frozenset({"admonition", "rubric", "topic", "sidebar"})

_DIRECTIVE = re.compile(r"^(\s*)\.\.\s+([A-Za-z][\w:-]*)::\s*(.*)$")
_EXPLICIT = re.compile(r"^(\s*)\.\.(\s|$)")  # comments, link targets, substitution definitions, footnotes
_ADORNMENT = re.compile(r"^\s*([=\-~^\"'`#*+<>_:.])\1{2,}\s*$")
_SIMPLE_TABLE = re.compile(r"^\s*=+( +=+)+\s*$")
_GRID_TABLE = re.compile(r"^\s*\+[-=+]+\+\s*$")
_BULLET = re.compile(r"^(\s*)(?:[*+\-\u2022]|#\.|\d+\.|\(?\d+\)|[a-z]\.)\s+")
_FIELD = re.compile(r"^(\s*):([^:\s][^:]*):(\s+|$)")
_OPTION_LINE = re.compile(r"^\s+:[\w-]+:")

_INLINE = re.compile(
    r"``(?P<literal>.+?)``"
    r"|:(?P<role>[\w.:+-]+):`(?P<role_text>[^`]+)`"
    r"|`(?P<link>[^`]+?)`__?"
    r"|`(?P<interpreted>[^`]+)`"
    r"|\*\*(?P<strong>[^*]+?)\*\*"
    r"|(?<![\w*\\])\*(?P<emphasis>[^*\s](?:[^*]*[^*\s])?)\*(?![\w*])"
    r"|\[(?:#|\*|\d+|#?[\w-]+)\]_"
    r"|\|(?P<substitution>[\w -]+)\|(?:__?)?"
    r"|\b(?P<reference>[A-Za-z0-9][\w.-]*?)__?(?![\w`])"
)
_SPACES = re.compile(r"\s+")


# Roles that Sphinx shows with a prefix: :ticket:`123` -> "#123", :cve:`2023-1` -> "CVE-2023-1".
PREFIXED_ROLES = {"ticket": "#", "cve": "CVE-", "pep": "PEP ", "rfc": "RFC "}


def _role_text(text: str, role: str = "", references: dict[str, str] | None = None, doc: str = "") -> str:
    """What Sphinx shows for a role: the title of ``title <target>``, the last part of ``~a.b.c``, the title
    of the section or document that ``:ref:``/``:doc:`` point at (when ``references`` knows it)."""
    target = re.fullmatch(r"(.*?)\s*<([^<>]+)>", text, re.DOTALL)
    if target:
        return target.group(1) or target.group(2)
    text = text.lstrip("!")
    if role in PREFIXED_ROLES:
        return PREFIXED_ROLES[role] + text
    if references is not None and role == "ref":
        return references.get(text.lower(), text)
    if references is not None and role == "doc":
        return references.get("doc:" + resolve_doc(text, doc), text)
    if text.startswith("~"):
        return text[1:].rsplit(".", 1)[-1]
    return text.lstrip(".")


def resolve_doc(target: str, doc: str) -> str:
    """The absolute name of a ``:doc:`` target (``/ref/models``, or ``tutorial02`` relative to ``doc``)."""
    if target.startswith("/"):
        return target.strip("/")
    folder = doc.rsplit("/", 1)[0] if "/" in doc else ""
    parts: list[str] = []
    for part in f"{folder}/{target}".split("/"):
        if part == "..":
            parts = parts[:-1]
        elif part and part != ".":
            parts.append(part)
    return "/".join(parts)


def rest_inline(text: str, references: dict[str, str] | None = None, doc: str = "") -> str:
    """Inline markup unwrapped, escapes resolved, whitespace collapsed; ``references`` resolve ``:ref:``/``:doc:``."""

    def replacement(match: re.Match) -> str:
        groups = match.groupdict()
        if groups["literal"] is not None:
            return groups["literal"]
        if groups["role_text"] is not None:
            return _role_text(groups["role_text"], groups["role"].rsplit(":", 1)[-1], references, doc)
        if groups["link"] is not None:
            return _role_text(groups["link"])
        for name in ("interpreted", "strong", "emphasis", "substitution", "reference"):
            if groups[name] is not None:
                return groups[name]
        return ""  # a footnote or citation reference

    text = _INLINE.sub(replacement, text)
    text = re.sub(r"\\ ", "", text)
    text = re.sub(r"\\(.)", r"\1", text)
    return _SPACES.sub(" ", text).strip()


def rest_references(text: str) -> tuple[str, dict[str, str]]:
    """(document title, {label: section title}) from a reST document's headings and ``.. _label:`` targets."""
    lines = text.replace("\r\n", "\n").split("\n")
    title, labels, pending = "", {}, []
    for k, line in enumerate(lines):
        label = re.match(r"^\.\.\s+_([^:`]+):\s*$", line)
        if label:
            pending.append(label.group(1).strip().lower())
            continue
        below = lines[k + 1] if k + 1 < len(lines) else ""
        if (
            line.strip()
            and not _ADORNMENT.match(line)
            and _ADORNMENT.match(below)
            and len(below.strip()) >= len(line.strip())
        ):
            heading = rest_inline(line)
            title = title or heading
            labels.update(dict.fromkeys(pending, heading))
            pending = []
    return title, labels


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


class _Reader:
    """One pass over the lines. ``skip_deeper_than`` drops a block (blank lines and lines indented deeper),
    ``until_blank`` the rest of a table or console session."""

    def __init__(self, references: dict[str, str] | None, doc: str):
        self.references, self.doc = references, doc
        self.paragraphs: list[str] = []
        self.lines: list[str] = []
        self.indent = 0
        self.skip_deeper_than: int | None = None
        self.in_simple_table = 0
        self.until_blank = False
        self.after_directive = False

    def flush(self) -> None:
        if not self.lines:
            return
        text = " ".join(line.strip() for line in self.lines)
        self.lines = []
        literal_follows = text.endswith("::")
        if literal_follows:  # "Text::" shows as "Text:", "Text ::" and a lone "::" as nothing; the block is dropped
            text = text[:-2].rstrip() if text == "::" or text.endswith(" ::") else text[:-1]
            self.skip_deeper_than = self.indent
        text = rest_inline(text, self.references, self.doc)
        if re.search(r"[A-Za-z0-9]", text):
            self.paragraphs.append(text)

    def start(self, line: str, indent: int) -> None:
        self.flush()
        self.lines = [line]
        self.indent = indent

    def feed(self, line: str) -> None:
        indent = _indent(line)
        blank = not line.strip()
        if self.until_blank:
            self.until_blank = not blank
            return
        if self.skip_deeper_than is not None:
            if blank or indent > self.skip_deeper_than:
                return
            self.skip_deeper_than = None
        if self.in_simple_table:
            if _SIMPLE_TABLE.match(line):
                self.in_simple_table += 1
                if self.in_simple_table > 3:
                    self.in_simple_table = 0
            return
        if blank:
            self.flush()
            self.after_directive = False
            return
        if self.after_directive and _OPTION_LINE.match(line):  # :options: of the directive above
            return
        self.after_directive = False
        if _ADORNMENT.match(line):  # a heading's under- or overline: the heading text is dropped
            if len(self.lines) == 1:
                self.lines = []
            else:
                self.flush()
            return
        if _SIMPLE_TABLE.match(line):
            self.flush()
            self.in_simple_table = 1
            return
        if _GRID_TABLE.match(line) or line.lstrip().startswith(">>>"):  # a table or a console session
            self.flush()
            self.until_blank = True
            return
        directive = _DIRECTIVE.match(line)
        if directive:
            self.flush()
            name, argument = directive.group(2).lower(), directive.group(3).strip()
            if name in DROPPED_DIRECTIVES:
                self.skip_deeper_than = indent
                return
            if argument and (name in OBJECT_DIRECTIVES or name in TITLED_DIRECTIVES):
                text = rest_inline(argument, self.references, self.doc)
                if text:
                    self.paragraphs.append(text)
            self.after_directive = True
            return
        if _EXPLICIT.match(line):  # comment, link target, substitution or footnote definition
            self.flush()
            self.skip_deeper_than = indent
            return
        bullet = _BULLET.match(line) or _FIELD.match(line)
        if bullet:
            self.start(line[bullet.end() :], indent)
            self.indent = bullet.end() if line[bullet.end() :].strip() else indent + 1  # continuation lines align here
            return
        if self.lines and indent > self.indent and not self.lines[-1].rstrip().endswith("::"):
            self.start(line, indent)  # a definition under its term
            return
        if not self.lines:
            self.indent = indent
        self.lines.append(line)


def rest_paragraphs(text: str, references: dict[str, str] | None = None, doc: str = "") -> list[str]:
    """The paragraphs of a reST document as plain text (see the module docstring for what is kept).

    ``references`` maps labels and ``doc:NAME`` to titles (:func:`rest_references` over all documents);
    ``doc`` names this document, for relative ``:doc:`` targets.
    """
    reader = _Reader(references, doc)
    for line in text.replace("\r\n", "\n").expandtabs(8).split("\n"):
        reader.feed(line)
    reader.flush()
    return reader.paragraphs
