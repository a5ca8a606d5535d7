"""scripts/analysis/slip_hazard_by_word_kind.py: words sorted into kinds (plain, plain right after an identifier,
identifiers by their number of components) and first slips per 1,000 words at risk of each kind."""

from scripts.analysis.slip_hazard_by_word_kind import KINDS, components, hazards, word_kinds


def test_components_split_on_punctuation_and_camel_case():
    assert components("django.db.models.functions.TruncHour()") == [
        "django",
        "db",
        "models",
        "functions",
        "Trunc",
        "Hour",
    ]
    assert components("IGNORABLE_404_STARTS") == ["IGNORABLE", "404", "STARTS"]
    assert components("timezone.FixedOffset") == ["timezone", "Fixed", "Offset"]


def test_word_kinds():
    words = ["the", "os.path", "and", "then", "again", "a.b.c", "x", "A_B_C_D", "end"]
    assert word_kinds(words) == [
        KINDS[0],  # plain
        KINDS[2],  # 2 components
        KINDS[1],  # within two words after an identifier
        KINDS[1],
        KINDS[0],  # three words after: plain again
        KINDS[3],  # 3 components
        KINDS[1],
        KINDS[4],  # 4 components
        KINDS[1],
    ]


def test_a_word_the_same_as_its_neighbour_is_doubled_whatever_else_it_is():
    assert word_kinds(["of", "the", "the", "x.y", "x.y", "end"]) == [
        KINDS[0],
        KINDS[5],
        KINDS[5],
        KINDS[5],
        KINDS[5],
        KINDS[1],
    ]


def test_hazards_count_words_at_risk_up_to_and_including_the_first_slip():
    targets = {"p": ["the", "a.b.c.d", "and", "so", "on", "far", "away"], "q": ["one", "two", "three"]}
    records = [{"id": "p", "first_slip": 1}, {"id": "q", "first_slip": None}]
    h = hazards(records, targets)
    assert h[KINDS[4]] == {"first_slips": 1, "at_risk": 1, "per_1000": 1000.0, "words": 1}
    assert h[KINDS[0]]["at_risk"] == 1 + 3 and h[KINDS[0]]["first_slips"] == 0  # "the", then q's three words
    assert h[KINDS[1]]["at_risk"] == 0 and h[KINDS[1]]["words"] == 2 and h[KINDS[1]]["per_1000"] is None
