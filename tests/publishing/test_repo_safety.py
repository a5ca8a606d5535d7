"""Repo names are checked as the Hub checks them, and publishing deletes no folder it did not stage itself."""

import pytest

from publishing.__main__ import main as publish_main
from publishing.hub import HubError
from publishing.local_hub import LocalHub
from publishing.repo_ids import checked_namespace, checked_repo_id
from publishing.staging import StagingArea


def tree(folder):
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


@pytest.fixture
def local_hub(tmp_path, monkeypatch):
    monkeypatch.setenv("HUB", "local")
    monkeypatch.setenv("HUB_DIR", str(tmp_path / "hub"))
    monkeypatch.setenv("HUB_USER", "alice")
    return tmp_path / "hub"


@pytest.mark.parametrize(
    "repo_id",
    [
        "alice/..",
        "alice/.",
        "../x",
        "alice/a b",
        "alice/-x",
        "alice/x.git",
        "a/b/c",
        "alice/x--y",
        "alice/" + "x" * 97,
        "alice/café",
        "alice/",
    ],
)
def test_invalid_repo_ids_are_refused(repo_id):
    with pytest.raises(HubError, match="not a valid Hub repo id|not a Hub repo id"):
        checked_repo_id(repo_id)
    with pytest.raises(HubError):
        LocalHub("hub").repo_path(repo_id, "space")


@pytest.mark.parametrize("repo_id", ["alice/interleave-demo", "Org_1/needleman_wunsch", "a/b.c", "a/" + "x" * 96])
def test_valid_repo_ids_pass(repo_id):
    assert checked_repo_id(repo_id) == repo_id


def test_a_space_repo_named_dotdot_deletes_nothing(tmp_path, local_hub, capsys):
    staging = tmp_path / "staging"
    (staging / "spaces").mkdir(parents=True)
    (staging / "keep.txt").write_text("a user's file")
    assert publish_main(["space", "--space-repo", "..", "--staging", str(staging), "--quiet"]) == 2
    assert "'alice/..' is not a valid Hub repo id" in capsys.readouterr().err
    assert tree(staging) == ["keep.txt", "spaces"] and not local_hub.exists()


def test_staging_into_the_checkout_refuses_to_replace_its_space_folder(tmp_path, local_hub, capsys):
    checkout = tmp_path / "checkout"  # --staging . run from a checkout: spaces/interleave-demo is the source
    (checkout / "spaces" / "interleave-demo").mkdir(parents=True)
    (checkout / "spaces" / "interleave-demo" / "app.py").write_text("the user's work")
    assert publish_main(["space", "--staging", str(checkout), "--quiet"]) == 2
    assert "exists and was not made by publishing" in capsys.readouterr().err
    assert (checkout / "spaces" / "interleave-demo" / "app.py").read_text() == "the user's work"


def test_a_folder_publishing_staged_is_replaced_on_the_next_publish(tmp_path, local_hub):
    staging = tmp_path / "staging"
    assert publish_main(["space", "--staging", str(staging), "--quiet"]) == 0
    (staging / "spaces" / "interleave-demo" / "stale.txt").write_text("left from before")
    assert publish_main(["space", "--staging", str(staging), "--quiet"]) == 0
    staged = staging / "spaces" / "interleave-demo"
    assert (staged / "app.py").is_file() and not (staged / "stale.txt").exists()


@pytest.mark.parametrize("user", ["..", "bad user name", "a/b", "-alice"])
def test_a_bad_hub_user_is_refused_before_anything_is_written(tmp_path, local_hub, monkeypatch, capsys, user):
    monkeypatch.setenv("HUB_USER", user)
    assert publish_main(["space", "--staging", str(tmp_path / "staging"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert f"HUB_USER={user!r} is not a Hub user or organization name" in err
    assert tree(tmp_path) == []


def test_a_bad_user_flag_is_named_as_such():
    with pytest.raises(HubError, match=r"--user='x y'"):
        checked_namespace("x y", "--user")


def test_staging_never_follows_a_link_out_of_the_staging_folder(tmp_path):
    outside = tmp_path / "outside"
    (outside / "interleave-demo").mkdir(parents=True)
    (outside / "interleave-demo" / "precious.txt").write_text("x")
    (tmp_path / "staging").mkdir()
    (tmp_path / "staging" / "spaces").symlink_to(outside)
    (tmp_path / "staging" / ".publishing-staged").write_text("spaces/interleave-demo\n")
    with pytest.raises(HubError, match="is a link"):
        StagingArea(tmp_path / "staging").fresh_folder("spaces", "interleave-demo")
    assert (outside / "interleave-demo" / "precious.txt").is_file()


@pytest.mark.parametrize("part", ["..", ".", "", "a/b"])
def test_staging_folder_names_are_single_plain_names(tmp_path, part):
    with pytest.raises(HubError, match="cannot name a staging folder"):
        StagingArea(tmp_path).fresh_folder("spaces", part)
