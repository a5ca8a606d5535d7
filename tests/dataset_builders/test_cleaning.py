from dataset_builders.corpus.cleaning import clean_gutenberg, clean_plain, clean_sotu


def test_sotu_drops_audience_notes_and_keeps_insertions():
    text = (
        "The President. Thank you. [Applause] Thank you very much. [laughter]\n\n"
        "We will [not] fail [we're; White House correction] and [See APP Note.] go on.\n\n"
        "[Delivered in person before a joint session at 9:05 p.m.]\n\n"
        "Ratio [p.3184] holds [1817-03-04] here."
    )
    assert clean_sotu(text) == [
        "The President. Thank you. Thank you very much.",
        "We will not fail we're and go on.",
        "Ratio holds here.",
    ]


def test_sotu_paragraphs_split_on_blank_lines_and_join_wrapped_lines():
    assert clean_sotu("one\ntwo\n\n  \n three  four \r\n\r\nfive") == ["one two", "three four", "five"]


GUTENBERG = """[A Tale by Some One 1900]\r
\r
VOLUME I\r
\r
CHAPTER I\r
\r
\r
It was a _dark_ night, and the\r
rain fell.\r
\r
  *    *    *    *\r
\r
She said "no."\r
\r
[Illustration: a drawing]\r
\r
CHAPTER 2\r
\r
Loomings.\r
\r
Call me Ishmael. Some years ago,\r
never mind how long.\r
\r
THE END\r
\r
End of the Project Gutenberg EBook of A Tale\r
\r
Boilerplate that must go.\r
"""


def test_gutenberg_title_sections_and_cleanup():
    title, sections = clean_gutenberg(GUTENBERG)
    assert title == "A Tale by Some One 1900"
    assert sections == [
        ["It was a dark night, and the rain fell.", 'She said "no."'],
        ["Call me Ishmael. Some years ago, never mind how long."],
    ]


def test_gutenberg_roman_heading_is_a_break_but_a_sentence_starting_with_i_is_not():
    _, sections = clean_gutenberg("I. The Absence of Mr Glass\n\nI went home.\n\nII\n\nThen I slept.")
    assert sections == [["I went home."], ["Then I slept."]]


def test_plain_paragraphs():
    assert clean_plain("a b\nc\n\n\nd\n") == ["a b c", "d"]
