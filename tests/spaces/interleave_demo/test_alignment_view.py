"""The alignment drawn as HTML: each kind by class and by a mark readable without colour; the first-slip summary."""

import re

from alignment_view import LEGEND, alignment_html, alignment_summary, origin_labels

from dataset_builders.prompts import interleave_target
from metrics.needleman_wunsch.nw_alignment import nw_alignment

TARGET = interleave_target("a1 a2 a3", "b1 b2 b3")  # a1 b1 a2 b2 a3 b3


def spans(html: str) -> list[tuple[str, str, str]]:
    """(class, tooltip, visible text) of each word span after the legend."""
    body = html.split(LEGEND, 1)[1]
    found = re.findall(r'<span class="nw (nw-\w+)" title="([^"]*)">(.*?)</span>(?= |</div>)', body)
    return [(css, title, re.sub(r"<[^>]+>", "", text)) for css, title, text in found]


def test_every_kind_has_its_class_mark_and_place():
    # b1 missing, b2 written wrong, an extra word after a3
    output = "a1 a2 X a3 EXTRA b3"
    pairs = nw_alignment(output, TARGET).pairs
    assert [p.op for p in pairs] == ["match", "delete", "match", "substitute", "match", "insert", "match"]
    assert spans(alignment_html(pairs, 3, 3)) == [
        ("nw-match", "match, target word A1", "a1"),
        ("nw-missing", "missing, target word B1", "−b1"),
        ("nw-match", "match, target word A2", "a2"),
        ("nw-wrong", "wrong word, target word B2", "✗X→b2"),
        ("nw-match", "match, target word A3", "a3"),
        ("nw-extra", "extra", "+EXTRA"),
        ("nw-match", "match, target word B3", "b3"),
    ]


def test_legend_names_every_kind_and_its_mark():
    text = re.sub(r"<[^>]+>", "", LEGEND)
    for words in ("word match", "✗wrote→expected wrong word", "−word missing", "+word extra"):
        assert words in text


def test_words_are_escaped():
    pairs = nw_alignment("<b>bold</b> &", "<script>x</script> &").pairs
    html = alignment_html(pairs, 2, 0)
    assert "<script>" not in html and "<b>bold" not in html
    assert "&lt;script&gt;x&lt;/script&gt;" in html and "&amp;" in html


def test_origin_labels_follow_the_interleave_with_unequal_lengths():
    assert origin_labels(3, 1) == ["A1", "B1", "A2", "A3"]
    assert origin_labels(1, 2) == ["A1", "B1", "B2"]


def test_summary_counts_and_names_the_first_slip():
    pairs = nw_alignment("a1 b1 a2 a3 b3", TARGET).pairs  # b2 skipped: lost its place after a2
    assert alignment_summary(pairs, 3, 3) == (
        "6 target words: 5 match, 0 wrong word, 1 missing, 0 extra. "
        "First slip at target word 4 (Text B's word 2, 'b2'): missing."
    )


def test_summary_of_a_perfect_output_and_of_an_overshoot():
    assert alignment_summary(nw_alignment(TARGET, TARGET).pairs, 3, 3).endswith(
        "6 match, 0 wrong word, 0 missing, 0 extra. No slip."
    )
    overshoot = alignment_summary(nw_alignment(TARGET + " more words", TARGET).pairs, 3, 3)
    assert overshoot.endswith("2 extra. All target words written, then extra words past the end.")


def test_summary_when_the_first_word_is_extra():
    pairs = nw_alignment("Sure: a1 b1 a2 b2 a3 b3", TARGET).pairs
    assert alignment_summary(pairs, 3, 3).endswith("First slip at target word 1 (Text A's word 1, 'a1'): extra.")
