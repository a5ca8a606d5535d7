from hypothesis import given, settings
from hypothesis import strategies as st

from dataset_builders.corpus.passages import SPLITS, assign_splits, build_passages, cut_passages
from dataset_builders.corpus.sources import Work


def _work(work_id: str, sections: list[list[int]], source: str = "src") -> Work:
    """A work whose paragraphs have the given word counts; words name their section and paragraph."""
    return Work(
        work_id,
        source,
        work_id,
        tuple(
            tuple(" ".join(f"s{si}p{pi}w{k}" for k in range(n)) for pi, n in enumerate(section))
            for si, section in enumerate(sections)
        ),
    )


def test_passages_join_paragraphs_until_min_words_and_never_cross_a_section():
    work = _work("w", [[400, 400, 400, 100], [900, 50], [30]])
    cut = cut_passages(work, min_words=1000)
    assert [n for _, n, _ in cut] == [1200, 100, 950, 30]
    assert [pid for pid, _, _ in cut] == ["w/0000", "w/0001", "w/0002", "w/0003"]
    for _, n, text in cut:
        assert len(text.split()) == n
        assert len({word.split("p")[0] for word in text.split()}) == 1  # one section per passage
    assert cut[0][2].count("\n\n") == 2  # paragraph breaks kept


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.lists(st.lists(st.integers(1, 300), min_size=1, max_size=8), min_size=1, max_size=4), min_size=1, max_size=12
    ),
    st.integers(50, 1500),
)
def test_passages_keep_every_word_in_order(works_sections, min_words):
    works = [_work(f"w{i}", sections) for i, sections in enumerate(works_sections)]
    for work in works:
        cut = cut_passages(work, min_words)
        original = [w for section in work.sections for para in section for w in para.split()]
        assert [w for _, _, text in cut for w in text.split()] == original
        # every passage but a section's last reached min_words
        assert all(n >= min_words or text.split()[-1] == _last_word_of_section(work, text) for _, n, text in cut)


def _last_word_of_section(work: Work, text: str) -> str:
    section = int(text.split()[0].split("p")[0][1:])
    return work.sections[section][-1].split()[-1]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 5000), min_size=1, max_size=40), st.sampled_from(["a", "b"]))
def test_split_assignment_is_total_deterministic_and_keeps_train(sizes, source):
    works = [_work(f"{source}/{i}", [[n]], source) for i, n in enumerate(sizes)]
    first = assign_splits(works)
    assert first == assign_splits(list(reversed(works)))  # order of reading does not matter
    assert set(first) == {w.work_id for w in works}
    assert set(first.values()) <= set(SPLITS)
    assert "train" in first.values()
    if len(works) >= 3:
        assert {"test", "validation"} <= set(first.values())
    else:
        assert set(first.values()) == {"train"}


def test_split_fractions_are_close_for_many_small_works():
    works = [_work(f"x/{i}", [[1000]]) for i in range(200)]
    counts = {s: list(assign_splits(works).values()).count(s) for s in SPLITS}
    assert counts == {"train": 160, "validation": 20, "test": 20}


def test_sources_are_split_separately():
    works = [_work(f"a/{i}", [[100]], "a") for i in range(30)] + [_work(f"b/{i}", [[100]], "b") for i in range(30)]
    passages = build_passages(works, 1000, 0.1, 0.1)
    for source in "ab":
        assert {p.split for p in passages if p.source == source} == set(SPLITS)
