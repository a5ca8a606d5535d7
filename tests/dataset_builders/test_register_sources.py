"""Cleaning of the register sources on small made-up inputs: plays, reST documentation, fact sheets, encyclopedia."""

from dataset_builders.corpus.factbook import field_paragraph, profile_paragraphs
from dataset_builders.corpus.passages import OUT_OF_REGISTER, assign_splits
from dataset_builders.corpus.rest import rest_inline, rest_paragraphs, rest_references
from dataset_builders.corpus.shakespeare import clean_play
from dataset_builders.corpus.wikipedia import bind_volumes
from dataset_builders.corpus.works import Work

PLAY = """# The Tragedy of Testing

## ACT I

### SCENE I. A room.

_Enter HAMLET and HORATIO_

**HAMLET**  
Who's there? Stand,  
and unfold yourself.

**HORATIO**  
__\\[Aside]_  
Long live the king!\\--so.

_Exeunt_

#### ACT II

**Second Merchant**  
*[Reads.]* You know the sum is due.
"""


def test_a_play_is_one_paragraph_per_speech_and_one_section_per_act():
    title, sections = clean_play(PLAY)
    assert title == "The Tragedy of Testing"
    assert sections == [
        ["HAMLET: Who's there? Stand, and unfold yourself.", "HORATIO: Long live the king!--so."],
        ["Second Merchant: You know the sum is due."],
    ]


DOC = """.. _first-steps:

===========
First steps
===========

.. module:: django.db
   :synopsis: The database layer.

Django's :class:`~django.db.models.Model` maps a table; see :doc:`/ref/models`
and :ref:`first-steps`. Install pytz_ and read `the guide <https://example.org>`__.
Fixed in :ticket:`123` (:cve:`2023-1234`), ``QuerySet.filter()`` is *lazy*::

    Entry.objects.filter(pk=1)
    print("this is code")

After the code.

.. code-block:: python

    import this

* First item of a list
  that wraps.
* Second item.

.. method:: QuerySet.get(*args, **kwargs)

    Returns the object.

    .. versionadded:: 5.0

        The ``aget()`` variant.

+-------+-------+
| table | cells |
+-------+-------+

.. note::

    Notes are kept.

>>> Entry.objects.count()
3

Term
    Its definition.

.. _pytz: https://pypi.org/project/pytz/
"""


def test_rest_keeps_prose_and_signatures_and_drops_code_tables_headings_and_targets():
    references = {"first-steps": "First steps", "doc:ref/models": "Models"}
    assert rest_paragraphs(DOC, references, doc="intro/index") == [
        "Django's Model maps a table; see Models and First steps. Install pytz and read the guide. "
        "Fixed in #123 (CVE-2023-1234), QuerySet.filter() is lazy:",
        "After the code.",
        "First item of a list that wraps.",
        "Second item.",
        "QuerySet.get(*args, **kwargs)",
        "Returns the object.",
        "The aget() variant.",
        "Notes are kept.",
        "Term",
        "Its definition.",
    ]


def test_a_literal_block_marker_shows_as_reST_renders_it():
    text = "Run this::\n\n    code\n\nThen this ::\n\n    code\n\n::\n\n    more code\n\nEnd."
    assert rest_paragraphs(text) == ["Run this:", "Then this", "End."]


def test_rest_references_map_labels_to_the_next_heading_and_unresolved_roles_show_their_target():
    title, labels = rest_references(DOC)
    assert title == "First steps" and labels == {"first-steps": "First steps"}
    assert rest_inline(":doc:`tutorial02` and :ref:`unknown-label`") == "tutorial02 and unknown-label"
    assert (
        rest_inline(":class:`.ModelAdmin.list_editable` vs ``__init__`` vs mysql_tz_info")
        == "ModelAdmin.list_editable vs __init__ vs mysql_tz_info"
    )


def test_a_fact_sheet_field_is_one_sentence_of_labelled_values():
    node = {
        "total": {"text": "643,801 sq km"},
        "note": {"text": "includes ++ overseas regions"},
        "map": {"text": "None"},
    }
    assert field_paragraph("Area", node) == "Area: total: 643,801 sq km; note: includes; overseas regions."
    assert (
        field_paragraph("Population", {"text": "66,553,766 (July 2015 est.)"})
        == "Population: 66,553,766 (July 2015 est.)"
    )
    assert field_paragraph("Map", {"text": "None"}) is None
    profile = {"Introduction": {"Background": {"text": "A country."}}, "Geography": {"Area": node}}
    assert profile_paragraphs(profile) == ["Background: A country.", field_paragraph("Area", node)]


def test_encyclopedia_articles_are_bound_into_volumes_of_one_topic_in_title_order():
    words = " ".join(["word"] * 60)
    articles = {
        f"Title {k:02d}": {"extract": f"Article {k}. {words}\nSecond paragraph\u2060.", "topic": topic}
        for k, topic in enumerate(["Arts", "Science"] * 5)
    }
    volumes = bind_volumes(articles, volume_words=150)  # 64 words an article: a volume closes after three
    assert [w.work_id for w in volumes] == [
        "wikipedia/arts-01",
        "wikipedia/arts-02",
        "wikipedia/science-01",
        "wikipedia/science-02",
    ]
    assert volumes[0].sections[0][:2] == (f"Article 0. {words}", "Second paragraph.")
    assert len(volumes[0].sections[0]) == 6 and len(volumes[1].sections[0]) == 4
    assert all(w.register == "reference" for w in volumes)
    assert volumes[0].title == "Wikipedia vital articles, Arts 1: Title 00 to Title 04"


def test_held_out_registers_go_whole_to_out_of_register():
    works = [Work(f"{r}/{i}", r, str(i), (("a b c",) * 10,), r) for r in ("speech", "technical") for i in range(8)]
    splits = assign_splits(works, held_out_registers=("technical",))
    assert {splits[f"technical/{i}"] for i in range(8)} == {OUT_OF_REGISTER}
    assert {splits[f"speech/{i}"] for i in range(8)} == {"train", "validation", "test"}
    assert assign_splits(works) == {**assign_splits(works[:8]), **assign_splits(works[8:])}
