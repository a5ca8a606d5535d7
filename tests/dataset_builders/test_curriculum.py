"""The interleave curriculum on the real corpus: targets, fragment lengths, split hygiene, determinism, resume."""

import json
from collections import Counter
from itertools import islice

import pytest

from dataset_builders.corpus import SPLITS
from dataset_builders.indexing import KeyedPermutation, index_blocks
from dataset_builders.interleave_curriculum import (
    STAGE_WORDS,
    InterleaveCurriculum,
    InterleaveProblems,
    curriculum_dataset,
    curriculum_stream,
)
from dataset_builders.interleave_curriculum.fragments import (
    FragmentPairs,
    FragmentSlots,
    ends_sentence,
    sentence_starts,
)
from dataset_builders.prompts import interleave_prompt, interleave_target
from tests.conftest import run_cli

PER_SPLIT = 40  # problems checked per stage and split


@pytest.fixture(scope="module")
def problems(corpus):
    return {
        (split, words): InterleaveProblems(corpus, split, words) for split in SPLITS for words in STAGE_WORDS.values()
    }


@pytest.fixture(scope="module")
def passages(corpus):
    return {p.id: p for p in corpus.passages}


def test_every_target_is_the_interleave_and_every_fragment_has_n_words(problems, passages):
    for (split, words), gen in problems.items():
        for ex in islice((gen[i] for i in range(10**6)), PER_SPLIT):
            assert ex["n_words"] == words
            assert len(ex["text_a"].split()) == words and len(ex["text_b"].split()) == words
            assert ex["text_a"] == " ".join(ex["text_a"].split())  # single spaces, no paragraph breaks
            assert ex["target"] == interleave_target(ex["text_a"].split(), ex["text_b"].split())
            assert ex["target"].split()[0::2] == ex["text_a"].split()
            assert ex["target"].split()[1::2] == ex["text_b"].split()
            assert ex["prompt"] == interleave_prompt(ex["text_a"], ex["text_b"])
            a, b = passages[ex["source_a"]], passages[ex["source_b"]]
            assert ex["text_a"] in " ".join(a.text.split()) and ex["text_b"] in " ".join(b.text.split())
            assert a.work_id != b.work_id
            assert a.split == b.split == split


def test_stage_configs_match_the_curriculum():
    configs = {c.name: c.n_words for c in InterleaveCurriculum.BUILDER_CONFIGS}
    assert configs == {f"stage-{s}": w for s, w in STAGE_WORDS.items()}


def test_no_test_or_validation_work_can_reach_train(corpus, problems):
    held_out = {p.work_id for p in corpus.passages if p.split in ("test", "validation", "out_of_register")}
    for words in STAGE_WORDS.values():
        # Every train problem is a pair of these slots, so this covers all of them, not a sample.
        train_works = set(problems[("train", words)].work_ids)
        assert train_works and not train_works & held_out
        for split in ("test", "validation"):
            assert set(problems[(split, words)].work_ids) <= {p.work_id for p in corpus.split(split)}
    sampled = {
        problems[("train", 50)][i][key].rsplit("/", 1)[0] for i in range(500) for key in ("source_a", "source_b")
    }
    assert len(sampled) > 50 and not sampled & held_out


def test_pairs_decode_to_every_cross_work_pair_exactly_once(corpus):
    table = FragmentSlots(corpus.split("test"), 500)
    pairs = FragmentPairs(table)
    work_sizes = Counter(table.slot_work.tolist())
    assert pairs.n_pairs == sum(table.n_slots - work_sizes[w] for w in table.slot_work.tolist())
    seen = set()
    for pair in list(range(2000)) + list(range(pairs.n_pairs - 2000, pairs.n_pairs)):
        first, second = pairs.slots(pair)
        assert table.slot_work[first] != table.slot_work[second]
        seen.add((first, second))
    assert len(seen) == 4000
    with pytest.raises(IndexError):
        pairs.slots(pairs.n_pairs)


def test_pairs_of_two_registers_decode_to_every_slot_pair_exactly_once(corpus):
    speeches = FragmentSlots([p for p in corpus.split("test") if p.register == "speech"], 200)
    plays = FragmentSlots([p for p in corpus.split("test") if p.register == "dialogue"], 200)
    pairs = FragmentPairs(speeches, plays)
    assert pairs.n_pairs == speeches.n_slots * plays.n_slots
    decoded = [pairs.slots(k) for k in range(0, pairs.n_pairs, max(1, pairs.n_pairs // 3000))]
    assert len(set(decoded)) == len(decoded)
    assert all(0 <= a < speeches.n_slots and 0 <= b < plays.n_slots for a, b in decoded)
    a, b = pairs.pair(pairs.n_pairs - 1)
    assert (a.passage.register, b.passage.register) == ("speech", "dialogue")
    with pytest.raises(ValueError, match="share no work"):
        FragmentPairs(speeches, speeches.__class__(speeches.passages, 200))


@pytest.mark.parametrize("n", [1, 2, 3, 7, 64, 1000, 4097])
def test_keyed_permutation_is_a_bijection(n):
    perm = KeyedPermutation(n, "test")
    assert sorted(perm(i) for i in range(n)) == list(range(n))
    if n >= 64:
        assert [perm(i) for i in range(n)] != list(range(n))
        assert [perm(i) for i in range(n)] != [KeyedPermutation(n, "other")(i) for i in range(n)]


def test_a_run_never_repeats_a_problem(problems):
    gen = problems[("train", 10)]
    assert len({gen.pair_index(i) for i in range(20_000)}) == 20_000
    small = problems[("test", 500)]  # test pairs at 500 words are few per register pair: still no repeat
    assert len({small.pair_index(i) for i in range(5000)}) == 5000
    texts = [(ex["text_a"], ex["text_b"]) for ex in (gen[i] for i in range(2000))]
    assert len(set(texts)) == len(texts)


def test_fragments_start_at_sentence_starts(problems):
    assert not ends_sentence("Mr.") and not ends_sentence("J.") and ends_sentence('end."') and ends_sentence("war?")
    assert sentence_starts("He left. She stayed. Mr. Smith came. then".split()) == [0, 2, 4]
    firsts = [problems[("test", 25)][i]["text_a"][0] for i in range(200)]
    assert all(c.isupper() or not c.isalpha() for c in firsts)


def test_sentence_starts_keep_their_definition_on_real_passages(corpus):
    """The fast path (regexes only on words that end in a closing mark) finds what testing every word finds."""
    from dataset_builders.interleave_curriculum.fragments import _SENTENCE_OPEN

    for passage in corpus.split("train")[::40]:
        words = passage.text.split()
        every_word = [0] + [
            k + 1 for k in range(len(words) - 1) if ends_sentence(words[k]) and _SENTENCE_OPEN.match(words[k + 1])
        ]
        assert sentence_starts(words) == every_word, passage.id


def problems_digest(corpus) -> dict:
    """SHA-256 of problems 0, 100, ..., 2900 of seed 7 (25 words) per split: run here and in a subprocess."""
    import hashlib

    digests = {}
    for split in ("train", "test"):
        gen = InterleaveProblems(corpus, split, 25, seed=7)
        digests[split] = hashlib.sha256(json.dumps([gen[i] for i in range(0, 3000, 100)]).encode()).hexdigest()
    return digests


def test_same_seed_gives_the_same_problems_in_another_process(corpus):
    here = problems_digest(corpus)
    code = (
        "import json; from dataset_builders.corpus import load_corpus; "
        "from tests.dataset_builders.test_curriculum import problems_digest; "
        "print(json.dumps(problems_digest(load_corpus())))"
    )
    proc = run_cli("-c", code, env={"PYTHONHASHSEED": "123"})
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == here


def test_different_seeds_and_splits_differ(corpus):
    seed0, seed1 = InterleaveProblems(corpus, "test", 25, seed=0), InterleaveProblems(corpus, "test", 25, seed=1)
    a = [seed0[i]["target"] for i in range(50)]
    b = [seed1[i]["target"] for i in range(50)]
    assert len(set(a) & set(b)) == 0
    assert seed0[3]["id"] != seed1[3]["id"] and seed0[3]["id"].endswith("-0000003")
    assert seed0[0] == InterleaveProblems(corpus, "test", 25, seed=0)[0]


def test_stream_resumes_from_an_index_and_from_a_state_dict(corpus):
    full = [ex["id"] for ex in islice(curriculum_stream(stage=1, corpus=corpus, num_examples=2500), 1600)]
    assert len(set(full)) == 1600
    resumed = [ex["id"] for ex in islice(curriculum_stream(stage=1, corpus=corpus, start_index=1200), 400)]
    assert resumed == full[1200:]
    stream = curriculum_stream(stage=1, corpus=corpus, num_examples=2500)
    it = iter(stream)
    for _ in range(1100):
        next(it)
    state = stream.state_dict()
    stream.load_state_dict(state)
    assert [ex["id"] for ex in islice(stream, 500)] == full[1100:1600]


def test_builder_prepares_splits_and_custom_lengths(corpus, tmp_path):
    builder = InterleaveCurriculum(
        "stage-2",
        corpus=corpus,
        cache_dir=str(tmp_path),
        train_size=30,
        validation_size=10,
        test_size=20,
        out_of_register_size=5,
        out_of_register_validation_size=6,
    )
    builder.download_and_prepare()
    ds = builder.as_dataset()
    sizes = {"train": 30, "validation": 10, "test": 20, "out_of_register": 5, "out_of_register_validation": 6}
    assert {s: ds[s].num_rows for s in ds} == sizes
    assert set(ds["out_of_register"]["register_a"]) == {"technical"}
    assert {row["source_a"].split("/")[0] for row in ds["out_of_register"]} == {"django-docs"}
    choice = ds["out_of_register_validation"]
    assert {row[f"source_{t}"].split("/")[0] for row in choice for t in "ab"} == {"sphinx-docs"}
    assert ds["test"][5] == InterleaveProblems(corpus, "test", 25)[5]
    custom = InterleaveCurriculum(n_words=37, corpus=corpus, cache_dir=str(tmp_path))
    assert custom.config.name == "words-37"
    ex = next(iter(custom.as_streaming_dataset("validation")))
    assert ex["stage"] == 0 and len(ex["text_b"].split()) == 37
    held_out = curriculum_dataset("test", stage=6, corpus=corpus, size=8)
    assert held_out.num_rows == 8 and held_out[0]["n_words"] == 500
    with pytest.raises(ValueError, match="words per fragment"):
        InterleaveCurriculum("stage-2", n_words=30, corpus=corpus, cache_dir=str(tmp_path))
    with pytest.raises(ValueError, match="unknown config"):
        InterleaveCurriculum("stage-7", corpus=corpus, cache_dir=str(tmp_path))


def test_index_blocks_cover_the_range_once():
    assert index_blocks(5, 2500, block=1000) == [(5, 1005), (1005, 2005), (2005, 2505)]
    assert index_blocks(0, 0) == []


def test_preview_cli_prints_problems_and_rejects_unknown_stages():
    proc = run_cli("-m", "dataset_builders.interleave_curriculum", "--stage", "2", "-n", "2", "--split", "test")
    assert proc.returncode == 0, proc.stderr
    assert "25w-test-seed0-0000001" in proc.stdout and "Do this all in one turn" in proc.stdout
    bad = run_cli("-m", "dataset_builders.interleave_curriculum", "--stage", "9")
    assert bad.returncode == 2 and "unknown curriculum stage 9" in bad.stderr and "Traceback" not in bad.stderr


def test_make_dataset_preview_shows_a_stage_and_arithmetic():
    stage = run_cli("make", "-s", "dataset-preview", "STAGE=2")
    assert stage.returncode == 0, stage.stderr
    assert "25w-train-seed0-0000000" in stage.stdout
    arithmetic = run_cli("make", "-s", "dataset-preview", "STAGE=arithmetic")
    assert arithmetic.returncode == 0, arithmetic.stderr
    assert "3x2-train-seed0-0000000" in arithmetic.stdout


@pytest.mark.slow
def test_out_of_register_split_holds_512_problems_per_stage_of_held_out_text_only(corpus):
    held_out = {p.id: p for p in corpus.split("out_of_register")}
    assert held_out and {p.register for p in held_out.values()} == {"technical"}
    for words in STAGE_WORDS.values():
        gen = InterleaveProblems(corpus, "out_of_register", words)
        rows = [gen[i] for i in range(512)]
        assert {r["register_a"] for r in rows} == {r["register_b"] for r in rows} == {"technical"}
        assert all(held_out[r["source_a"]].work_id != held_out[r["source_b"]].work_id for r in rows)
        assert len({(r["text_a"], r["text_b"]) for r in rows}) == 512
        assert len({held_out[r["source_a"]].work_id for r in rows}) > 50  # many documents, not a few
    ds = curriculum_dataset("out_of_register", stage=3, corpus=corpus)
    assert ds.num_rows == 512 and ds[7] == InterleaveProblems(corpus, "out_of_register", 50)[7]
    assert ds[0]["id"] == "50w-out_of_register-seed0-0000000"


def test_in_register_splits_mix_every_training_register(problems):
    for split in ("train", "validation", "test"):
        rows = [problems[(split, 100)][i] for i in range(500)]
        seen = Counter(r["register_a"] for r in rows) + Counter(r["register_b"] for r in rows)
        assert set(seen) == {"speech", "fiction", "dialogue", "reference", "numeric"}, split
        assert min(seen.values()) > 0.12 * sum(seen.values()), (split, seen)  # about a fifth each, never technical
