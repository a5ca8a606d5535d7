"""``python -m dataset_builders.corpus``: build (or load) the corpus and print its counts."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

from dataset_builders.cli_flags import underscore_flags
from dataset_builders.corpus import DEFAULT_HELD_OUT_REGISTERS, DEFAULT_SOURCES, format_count_table, load_corpus
from dataset_builders.fetch import FetchError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dataset_builders.corpus", description=__doc__)
    parser.add_argument(
        "--source",
        action="append",
        dest="sources",
        metavar="SPEC",
        help=f"{', '.join(DEFAULT_SOURCES)}, dir:PATH or hf:REPO_ID[:CONFIG] (repeatable; default: all "
        "the embedded sources)",
    )
    parser.add_argument(
        "--held_out",
        action="append",
        metavar="REGISTER",
        help="a register whose works form the out_of_register split, never train/validation/test "
        f"(repeatable; default: {', '.join(DEFAULT_HELD_OUT_REGISTERS)}; 'none' holds none out)",
    )
    parser.add_argument(
        "--min_words", type=int, default=1000, help="join paragraphs until a passage has this many words"
    )
    parser.add_argument("--rebuild", action="store_true", help="build again even when the cache has this corpus")
    parser.add_argument("--quiet", action="store_true", help="print only the corpus folder")
    parser.add_argument("--results", metavar="DIR", help="also write the counts to DIR/counts.json and DIR/counts.md")
    args = parser.parse_args(underscore_flags(argv))
    logging.basicConfig(
        level=logging.WARNING if args.quiet else logging.INFO, format="%(levelname)s %(name)s: %(message)s"
    )
    held_out = tuple(r for r in (args.held_out or DEFAULT_HELD_OUT_REGISTERS) if r != "none")
    try:
        corpus = load_corpus(
            tuple(args.sources or DEFAULT_SOURCES),
            min_words=args.min_words,
            rebuild=args.rebuild,
            held_out_registers=held_out,
        )
    except FetchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.quiet:
        print(f"corpus ready: {corpus.path}")
        return 0
    m = corpus.manifest
    for name, info in m["sources_read"].items():
        print(
            f"source {name}: {info['origin']}, {info['works']} works, {len(info['files'])} files hashed, "
            f"register {info['register']}, licence: {info['license']}"
        )
    for name in m["sources_missing"]:
        print(f"source {name}: MISSING (could not be fetched; the corpus goes on without it)")
    train = 1 - m["test_fraction"] - m["validation_fraction"]
    print(
        f"passages joined to >= {m['min_words']} words where a section allows; works split "
        f"{train:.0%}/{m['validation_fraction']:.0%}/{m['test_fraction']:.0%} by words"
    )
    print(format_count_table(m["counts"]))
    print(f"\nby register (held out of train/validation/test: {', '.join(m['held_out_registers']) or 'none'})")
    print(format_count_table(m["register_counts"]))
    print(f"fingerprint {m['fingerprint'][:16]}  folder {corpus.path}")
    if args.results:
        write_results(corpus, Path(args.results), argv if argv is not None else sys.argv[1:])
    return 0


def write_results(corpus, out: Path, argv: list[str]) -> None:
    """The counts as JSON and a markdown table, with the command that made them."""
    out.mkdir(parents=True, exist_ok=True)
    m = corpus.manifest
    command = "python -m dataset_builders.corpus " + " ".join(argv)
    summary = {
        key: m[key]
        for key in (
            "sources",
            "min_words",
            "test_fraction",
            "validation_fraction",
            "held_out_registers",
            "sources_missing",
            "counts",
            "register_counts",
            "fingerprint",
        )
    }
    summary["origins"] = {name: info["origin"] for name, info in m["sources_read"].items()}
    summary["registers"] = {name: info["register"] for name, info in m["sources_read"].items()}
    summary["licenses"] = {name: info["license"] for name, info in m["sources_read"].items()}
    summary["command"] = command.strip()
    (out / "counts.json").write_text(json.dumps(summary, indent=1) + "\n")
    sources = ["| source | register | origin | licence |", "|---|---|---|---|"]
    sources += [
        f"| {name} | {info['register']} | {info['origin']} | {info['license']} |"
        for name, info in m["sources_read"].items()
    ]
    held_out = ", ".join(m["held_out_registers"]) or "none"
    (out / "counts.md").write_text(
        "\n".join(sources)
        + "\n\n"
        + _markdown_table(m["counts"])
        + f"\n\nBy register (held out of train, validation and test: {held_out}):\n\n"
        + _markdown_table(m["register_counts"])
        + f"\n\nMade by `{command.strip()}`.\n"
    )


def _markdown_table(rows: list[dict]) -> str:
    headers = list(rows[0])
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(f"{r[h]:,}" if isinstance(r[h], int) else r[h] for h in headers) + " |" for r in rows]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
