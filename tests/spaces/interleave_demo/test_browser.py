"""A person's visit: `make space` with the real model, headless Debian chromium pastes two texts, clicks, reads the
result.

The screenshot and the timings go to runs/space/ (ignored; look at the PNG). results/space/ holds the copy of one
such run that the README cites, made deliberately, so the suite leaves the tracked tree as it was.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

import pytest

from dataset_builders.prompts import interleave_target
from metrics.needleman_wunsch.nw_alignment import nw_score
from tests.conftest import REPO_ROOT

from .launched_app import free_port, launch

RESULTS = REPO_ROOT / "runs" / "space"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
TEXT_A = "It is a truth universally acknowledged, that a single man"
TEXT_B = "Fellow-Citizens of the Senate and House of Representatives: I embrace"


@pytest.fixture(scope="module")
def make_space(tmp_path_factory):
    """`make space` on a free loopback port, with the embedded model and an adapter pattern that matches nothing."""
    empty = tmp_path_factory.mktemp("no-adapters")
    port = free_port()
    app = launch(
        [
            "make",
            "--no-print-directory",
            "space",
            f"SPACE_PORT={port}",
            f"SPACE_ARGS=--adapters {empty}/stage-{{n}}/final",
        ],
        cwd=REPO_ROOT,
    )
    yield app
    app.stop()


@pytest.mark.slow
def test_make_space_prints_the_url_and_serves_the_embedded_model(make_space):
    assert make_space.url.startswith("http://127.0.0.1:")
    assert f"demo Space: {make_space.url}" in make_space.log
    assert re.search(
        r"Base model \*\*smollm2-135m-instruct\*\* \(`\S+/smollm2-135m-instruct`\) on cpu, loaded in "
        r"[\d.]+ s",
        make_space.log,
    )
    assert "No trained adapter found" in make_space.log


@pytest.mark.slow
def test_a_visitor_interleaves_two_texts_in_a_real_browser(make_space):
    if not Path(CHROMIUM).is_file():
        pytest.fail(f"no chromium at {CHROMIUM}: `make browser` installs Debian's (or set CHROMIUM)")
    from playwright.sync_api import sync_playwright

    RESULTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1000})
            page.goto(make_space.url, wait_until="networkidle")
            page.locator("#text-a textarea").fill(TEXT_A)
            page.locator("#text-b textarea").fill(TEXT_B)
            page.wait_for_function("document.querySelector('#word-counts').innerText.includes('Text B: 10 words')")
            clicked = time.monotonic()
            page.locator("#interleave-button").click()
            # words appear while the model is still writing (the score line says so), then the score
            page.wait_for_function(
                "document.querySelector('#score').innerText.includes('generating') && "
                "document.querySelector('#output textarea').value.trim().length > 0",
                timeout=120_000,
                polling=50,
            )
            partial = page.locator("#output textarea").input_value()
            page.wait_for_function(
                "/NW score: [0-9]/.test(document.querySelector('#score').innerText)", timeout=180_000
            )
            seconds = time.monotonic() - clicked
            output = page.locator("#output textarea").input_value()
            target = page.locator("#target textarea").input_value()
            score_text = page.locator("#score").inner_text()
            status = page.locator("#model-status").inner_text()
            alignment = page.locator("#alignment").inner_text()
            page.screenshot(path=str(RESULTS / "demo.png"), full_page=True)
        finally:
            browser.close()

    assert output.strip(), "the model's output never reached the page"
    assert output.startswith(partial) and len(partial.split()) < len(output.split())  # it streamed
    assert target == interleave_target(TEXT_A, TEXT_B)
    score = nw_score(output, target)
    assert f"NW score: {score:.3f}" in score_text
    assert "No trained adapter found" in status
    assert "match" in alignment and "missing" in alignment  # the legend is drawn with the alignment
    (RESULTS / "browser-run.json").write_text(
        json.dumps(
            {
                "command": "make test (tests/spaces/interleave_demo/test_browser.py): make space, "
                "headless Debian chromium",
                "text_a": TEXT_A,
                "text_b": TEXT_B,
                "model": "base (embedded SmolLM2-135M-Instruct), cpu",
                "make_space_to_url_seconds": round(make_space.ready_seconds, 1),
                "model_load_seconds": float(re.search(r"loaded in ([\d.]+) s", status).group(1)),
                "click_to_score_seconds": round(seconds, 1),
                "output_words": len(output.split()),
                "nw_score": score,
            },
            indent=2,
        )
        + "\n"
    )
