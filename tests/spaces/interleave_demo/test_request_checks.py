"""Input limits of the demo (empty, whitespace only, too many words) and the note on unequal lengths."""

import pytest
from request_checks import DEFAULT_MAX_WORDS, InputProblem, check_texts, length_note, max_words_per_text


def test_words_are_whitespace_tokens():
    assert check_texts("a  b\nc", "\td e ", 5) == (["a", "b", "c"], ["d", "e"])


@pytest.mark.parametrize(
    ("text_a", "text_b", "message"),
    [
        ("", "b", "Text A is empty: paste a text (or pick an example)."),
        (None, "b", "Text A is empty: paste a text (or pick an example)."),
        ("a", " \n\t ", "Text B holds only whitespace: paste some words."),
        ("w " * 6, "b", "Text A has 6 words; this demo takes at most 5 words per text. Shorten it by 1 word."),
        (
            "a",
            "w " * 1200,
            "Text B has 1,200 words; this demo takes at most 5 words per text. Shorten it by 1,195 words.",
        ),
        (
            "",
            "  ",
            "Text A is empty: paste a text (or pick an example). Text B holds only whitespace: paste some words.",
        ),
    ],
)
def test_bad_inputs_get_one_message_for_both_texts(text_a, text_b, message):
    with pytest.raises(InputProblem) as problem:
        check_texts(text_a, text_b, 5)
    assert str(problem.value) == message


def test_exactly_the_limit_passes():
    words_a, _ = check_texts("w " * 5, "b", 5)
    assert len(words_a) == 5


def test_word_limit_from_the_environment(monkeypatch):
    monkeypatch.delenv("INTERLEAVE_DEMO_MAX_WORDS", raising=False)
    assert max_words_per_text() == DEFAULT_MAX_WORDS == 500
    monkeypatch.setenv("INTERLEAVE_DEMO_MAX_WORDS", "120")
    assert max_words_per_text() == 120
    monkeypatch.setenv("INTERLEAVE_DEMO_MAX_WORDS", "many")
    with pytest.raises(ValueError, match="positive whole number"):
        max_words_per_text()


def test_length_note_says_how_unequal_texts_interleave():
    assert length_note(["a"] * 3, ["b"] * 3) == "Text A and Text B have 3 words each: 3 pairs, 6 words in all."
    assert length_note(["a"] * 2, ["b"] * 5) == (
        "Text A has 2 words, Text B 5: they alternate for 2 pairs, then the "
        "last 3 words of Text B follow on their own (7 words in all)."
    )
    assert length_note(["a"] * 4, ["b"] * 3) == (
        "Text A has 4 words, Text B 3: they alternate for 3 pairs, then the "
        "last word of Text A follows on its own (7 words in all)."
    )


@pytest.mark.parametrize(
    ("text_a", "message"),
    [
        (123, "Text A must be a string of text, not int."),
        (["a", "b"], "Text A must be a string of text, not list."),
        (
            "one \ud800 two",
            "Text A holds an invalid character at position 4 (a lone UTF-16 surrogate, U+D800): "
            "paste the text again from its source.",
        ),
    ],
)
def test_non_text_and_invalid_unicode_are_refused_by_name(text_a, message):
    with pytest.raises(InputProblem) as problem:
        check_texts(text_a, "b", 5)
    assert str(problem.value) == message
