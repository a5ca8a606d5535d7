"""make eval DATA=...: problems from a folder of .txt files, a JSONL of pairs or a dataset, and one clear message
for each kind of bad input."""

import json

import pytest

from dataset_builders.interleave_curriculum.fragments import sentence_starts
from dataset_builders.interleave_curriculum.user_texts import UserTextError, read_user_texts
from dataset_builders.prompts import interleave_prompt, interleave_target

SENTENCES = {
    "manual.txt": "Install the package first. Then run the server with one command. The port is 8080 by default. "
    "Logs go to the console. Stop it with Ctrl-C when you are done. Restart it after a change.",
    "letters/one.txt": "Dear friend, I write from the coast.\nThe weather\nis fine. We walk every morning. The sea is "
    "grey and calm. Nobody here knows my name. I will write again soon.",
    "recipe.txt": "Heat the oven. Mix the flour and the butter. Add two eggs and a pinch of salt. Bake it for half an "
    "hour. Let it cool before you cut it.",
}


@pytest.fixture
def folder(tmp_path):
    root = tmp_path / "texts"
    for name, text in SENTENCES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def _fragment_is_at_a_sentence_start(fragment: str, texts: dict[str, str]) -> bool:
    for text in texts.values():
        words = text.split()
        for start in sentence_starts(words):
            if " ".join(words[start : start + len(fragment.split())]) == fragment:
                return True
    return False


def test_a_folder_pairs_sentence_start_fragments_of_two_files_reproducibly(folder):
    data = read_user_texts(str(folder))
    assert data.kind == "folder" and sorted(data.texts) == ["letters/one.txt", "manual.txt", "recipe.txt"]
    assert data.texts["letters/one.txt"].startswith("Dear friend, I write from the coast. The weather is fine.")
    problems = data.problems(n_words=10, n=8, seed=0)
    assert len(problems) == 8 and len({(p["text_a"], p["text_b"]) for p in problems}) == 8
    for p in problems:
        file_a, file_b = p["source_a"].split("@")[0], p["source_b"].split("@")[0]
        assert file_a != file_b and len(p["text_a"].split()) == len(p["text_b"].split()) == 10
        assert _fragment_is_at_a_sentence_start(p["text_a"], data.texts)
        assert _fragment_is_at_a_sentence_start(p["text_b"], data.texts)
        assert p["target"] == interleave_target(p["text_a"], p["text_b"])
        assert p["prompt"] == interleave_prompt(p["text_a"], p["text_b"]) and p["n_words"] == 10 and p["stage"] == 1
    assert read_user_texts(str(folder)).problems(10, 8, seed=0) == problems  # the seed fixes the problems
    assert read_user_texts(str(folder)).problems(10, 8, seed=1) != problems
    assert data.describe(0) == {"source": str(folder), "kind": "folder", "texts": 3, "seed": 0}


def test_a_jsonl_gives_its_pairs_cut_to_the_stage(tmp_path):
    path = tmp_path / "pairs.jsonl"
    lines = [
        {"text_a": " ".join(f"a{i}" for i in range(30)), "text_b": " ".join(f"b{i}" for i in range(12))},
        {"text_a": "one two three four five six seven eight nine ten eleven", "text_b": "x " * 10},
    ]
    path.write_text(json.dumps(lines[0]) + "\n\n" + json.dumps(lines[1]) + "\n", encoding="utf-8")
    data = read_user_texts(str(path))
    problems = data.problems(n_words=10, n=5)
    assert len(problems) == 2 and data.kind == "jsonl"
    assert problems[0]["text_a"] == " ".join(f"a{i}" for i in range(10))
    assert problems[0]["target"].split()[:4] == ["a0", "b0", "a1", "b1"] and len(problems[0]["target"].split()) == 20
    assert problems[1]["source_a"] == f"{path} line 3"
    with pytest.raises(UserTextError, match=r"line 1: text_b has 12 words, stage 2 needs 25"):
        data.problems(n_words=25, n=5)


def _bad(tmp_path, files: dict[str, bytes]):
    root = tmp_path / "bad"
    root.mkdir(exist_ok=True)
    for name, content in files.items():
        (root / name).write_bytes(content)
    return root


@pytest.mark.parametrize(
    "files, message",
    [
        ({"a.txt": b"Some text here. More of it.", "b.txt": b""}, "b.txt is empty"),
        ({"a.txt": b"Some text here. More of it.", "b.txt": b"  \n\n "}, "b.txt is empty (only whitespace)"),
        (
            {"a.txt": b"Some text here.", "b.txt": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"},
            "b.txt is binary data, not text",
        ),
        ({"a.txt": b"Some text here."}, "holds 1 .txt file(s); pairs need at least two"),
    ],
)
def test_bad_folders_are_named(tmp_path, files, message):
    with pytest.raises(UserTextError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_user_texts(str(_bad(tmp_path, files)))


def test_a_stage_longer_than_the_texts_says_which_stages_fit(folder):
    with pytest.raises(UserTextError, match=r"32 words per text needs two texts of at least 32 words.* 1 of 3 are "):
        read_user_texts(str(folder)).problems(n_words=32, n=4)  # the manual has 35 words, the letter 31, the recipe 30
    with pytest.raises(UserTextError, match=r"stage 3 needs two texts of at least 50 words.*0 of 3.*choose STAGES"):
        read_user_texts(str(folder)).problems(n_words=50, n=4)


@pytest.mark.parametrize(
    "content, message",
    [
        (b"", "pairs.jsonl is empty"),
        (b'{"text_a": "x y"}\n', "line 1 has no text_b"),
        (b'{"text_a": "x y", "text_b": ""}\n', "line 1: text_b is empty"),
        (b'{"text_a": "x y", "text_b": 5}\n', "line 1: text_b is int, not text"),
        (b'{"text_a": "x y", "text_b": "z"}\nnot json\n', "line 2 is not JSON"),
        (b'["x", "y"]\n', "line 1 holds a list, not an object"),
        (b'{"text_a": "x", "text_b": "\\u0000\\u0001"}\n', "line 1: text_b is binary data"),
        (b"\x1f\x8b\x08\x00\x00\x00\x00\x00", "pairs.jsonl is binary data, not text"),
    ],
)
def test_bad_jsonl_is_named(tmp_path, content, message):
    path = tmp_path / "pairs.jsonl"
    path.write_bytes(content)
    with pytest.raises(UserTextError, match=message):
        read_user_texts(str(path))


def test_other_paths_say_what_data_can_be(tmp_path):
    (tmp_path / "one.txt").write_text("Some text.")
    with pytest.raises(UserTextError, match="is one .txt file; give a folder of .txt files"):
        read_user_texts(str(tmp_path / "one.txt"))
    with pytest.raises(UserTextError, match="does not exist"):
        read_user_texts(str(tmp_path / "missing"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(UserTextError, match="is an empty folder"):
        read_user_texts(str(tmp_path / "empty"))
    with pytest.raises(UserTextError, match="could not load dataset 'nobody/no-such-dataset'"):
        read_user_texts("nobody/no-such-dataset")  # the tests run offline: a Hub id fails at once


def test_a_local_dataset_folder_gives_texts_of_a_column_or_pairs(tmp_path):
    import datasets

    texts = list(SENTENCES.values())
    table = datasets.Dataset.from_dict({"body": texts + [""], "n": [1, 2, 3, 4]})
    table.to_parquet(str(tmp_path / "texts" / "t.parquet"))
    data = read_user_texts(str(tmp_path / "texts"), column="body")
    assert data.kind == "dataset" and list(data.texts) == ["row 0", "row 1", "row 2"]  # the empty row is skipped
    assert len(data.problems(10, 4, seed=0)) == 4
    with pytest.raises(UserTextError, match=r"has no column 'text'; its columns: body, n"):
        read_user_texts(str(tmp_path / "texts"))
    with pytest.raises(UserTextError, match=r"row 0, column 'n'.* is int, not text"):
        read_user_texts(str(tmp_path / "texts"), column="n")
    datasets.Dataset.from_dict({"text_a": ["a b c d"], "text_b": ["e f g h"]}).to_parquet(
        str(tmp_path / "pairs" / "p.parquet")
    )
    pairs = read_user_texts(str(tmp_path / "pairs"))
    assert pairs.problems(3, 5)[0]["target"] == "a e b f c g"


def test_latin_1_text_is_text_not_binary(tmp_path):
    root = _bad(tmp_path, {"a.txt": "Un café au lait. Deux crêpes.".encode("latin-1"), "b.txt": b"Plain text. More."})
    assert read_user_texts(str(root)).texts["a.txt"] == "Un café au lait. Deux crêpes."
