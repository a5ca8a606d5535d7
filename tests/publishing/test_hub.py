"""RemoteHub: the Hub calls it makes (repo, branch, upload that mirrors the folder), errors without the token;
destination(): HUB / HUB_USER / HF_TOKEN and the one clear message when something is missing."""

import pytest

from publishing.destination import destination
from publishing.hub import HubError, RemoteHub
from publishing.local_hub import LocalHub

TOKEN = "hf_fakeTokenForTests0123456789"


class FakeApi:
    calls: list = []
    branches = ["main"]

    def __init__(self, token):
        FakeApi.calls.append(("token", token))

    def create_repo(self, repo_id, repo_type, private, exist_ok, **kwargs):
        FakeApi.calls.append(("create_repo", repo_id, repo_type, private, exist_ok, kwargs))

    def create_branch(self, repo_id, branch, repo_type, exist_ok):
        FakeApi.calls.append(("create_branch", repo_id, branch, repo_type, exist_ok))

    def upload_folder(self, folder_path, repo_id, repo_type, revision, commit_message, delete_patterns):
        FakeApi.calls.append(("upload_folder", folder_path, repo_id, repo_type, revision, delete_patterns))
        return type("CommitInfo", (), {"oid": "abc123", "commit_url": "https://hub/commit/abc123"})()

    def add_space_variable(self, repo_id, key, value):
        FakeApi.calls.append(("add_space_variable", repo_id, key, value))


@pytest.fixture
def fake_api(monkeypatch):
    import huggingface_hub

    FakeApi.calls = []
    monkeypatch.setattr(huggingface_hub, "HfApi", FakeApi)
    return FakeApi


def test_publish_folder_creates_the_repo_then_the_branch_then_uploads_a_mirror_of_the_folder(fake_api, tmp_path):
    hub = RemoteHub(TOKEN)
    published = hub.publish_folder(tmp_path, "me/model", "model", branch="stage-2", message="Stage 2")
    assert [c[0] for c in fake_api.calls] == ["token", "create_repo", "create_branch", "upload_folder"]
    assert fake_api.calls[1] == ("create_repo", "me/model", "model", False, True, {})
    assert fake_api.calls[2] == ("create_branch", "me/model", "stage-2", "model", True)
    # delete_patterns="*": files of an earlier commit that the folder no longer has are deleted (.gitattributes kept)
    assert fake_api.calls[3] == ("upload_folder", str(tmp_path), "me/model", "model", "stage-2", "*")
    assert (published.commit, published.url, published.branch) == ("abc123", "https://hub/commit/abc123", "stage-2")


def test_main_needs_no_branch_and_a_space_gets_its_sdk(fake_api, tmp_path):
    RemoteHub(TOKEN).publish_folder(tmp_path, "me/demo", "space", space_sdk="gradio")
    assert [c[0] for c in fake_api.calls] == ["token", "create_repo", "upload_folder"]
    assert fake_api.calls[1][-1] == {"space_sdk": "gradio"}


def test_space_variables_are_set_one_by_one_and_a_failure_names_the_variable(fake_api, monkeypatch):
    RemoteHub(TOKEN).set_space_variables("me/demo", {"A": "1", "B": "me/x"})
    assert fake_api.calls[1:] == [
        ("add_space_variable", "me/demo", "A", "1"),
        ("add_space_variable", "me/demo", "B", "me/x"),
    ]

    def refuse(self, repo_id, key, value):
        raise RuntimeError(f"403 Forbidden for {TOKEN}")

    monkeypatch.setattr(FakeApi, "add_space_variable", refuse)
    with pytest.raises(HubError, match="could not set the variable A of Space me/demo: RuntimeError: 403") as failure:
        RemoteHub(TOKEN).set_space_variables("me/demo", {"A": "1"})
    assert TOKEN not in str(failure.value)


def test_a_hub_failure_is_one_line_without_the_token(fake_api, tmp_path):
    class Failing(FakeApi):
        def upload_folder(self, **kwargs):
            raise RuntimeError(f"401 Client Error: Unauthorized (token {TOKEN})\nmore detail")

    import huggingface_hub

    huggingface_hub.HfApi = Failing
    with pytest.raises(HubError) as failure:
        RemoteHub(TOKEN).publish_folder(tmp_path, "me/x", "dataset")
    message = str(failure.value)
    assert TOKEN not in message and "401 Client Error" in message and "\n" not in message
    assert message.startswith("could not upload") and "me/x@main" in message


def test_missing_user_and_token_are_named_in_one_message(monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))  # no saved login
    monkeypatch.delenv("HF_TOKEN", raising=False)
    monkeypatch.delenv("HUB_USER", raising=False)
    monkeypatch.delenv("HUB", raising=False)
    with pytest.raises(HubError) as failure:
        destination()
    message = str(failure.value)
    assert "HUB_USER" in message and "HF_TOKEN" in message and "HUB=local" in message
    monkeypatch.setenv("HUB_USER", "me")
    with pytest.raises(HubError, match="needs a token") as failure:
        destination()
    assert "HUB_USER" not in str(failure.value)
    with pytest.raises(HubError, match="HUB='github'"):
        destination("github")


def test_hub_local_needs_neither_user_nor_token(monkeypatch, tmp_path):
    monkeypatch.delenv("HF_TOKEN", raising=False)
    monkeypatch.delenv("HUB_USER", raising=False)
    monkeypatch.setenv("HUB", "local")
    monkeypatch.setenv("HUB_DIR", str(tmp_path / "hub"))
    dest = destination()
    assert isinstance(dest.hub, LocalHub) and dest.hub.root == tmp_path / "hub"
    assert dest.repo_id("arithmetic") == "local/arithmetic" and dest.repo_id("org/x") == "org/x"
    monkeypatch.setenv("HUB_USER", "alice")
    assert destination().repo_id("arithmetic") == "alice/arithmetic"


def test_hub_hf_with_user_and_token(monkeypatch, fake_api):
    monkeypatch.setenv("HF_TOKEN", TOKEN)
    dest = destination("hf", user="me")
    assert isinstance(dest.hub, RemoteHub) and dest.namespace == "me"
    assert dest.hub.url("me/arithmetic", "dataset").endswith("/datasets/me/arithmetic")
