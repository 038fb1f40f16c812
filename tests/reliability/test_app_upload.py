"""One bad upload must never take the app down: the deep-nesting scenario file that crashed the server
(30,000 unclosed "[" overflowed the YAML parser's stack: a segmentation fault, the server gone for every
user) is uploaded to a real `rulesjudge app` in Chromium; the page says why in one line, and the same
server then still answers a search.
"""

from __future__ import annotations

from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TIMEOUT_MS = 120_000

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(),
                                reason=f"{CHROMIUM} is missing (apt-get install chromium)")


def test_a_deep_nesting_upload_is_refused_and_the_server_still_answers_a_search(app_server, tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api")
    deep = tmp_path / "deep.yaml"
    deep.write_text("name: x\ngame: {players: [A, B]}\nwhy: " + "[" * 30_000 + "\n", encoding="utf-8")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            page.goto(app_server.url + "Scenario_checker")
            page.locator('input[type="file"]').first.set_input_files(str(deep))
            page.get_by_text("deep.yaml:3: why[0][0]…: nested more than 32 levels deep").first.wait_for()
            assert app_server.process.poll() is None  # the server lives

            search = browser.new_page()  # another user, the same server
            search.set_default_timeout(TIMEOUT_MS)
            search.goto(app_server.url)
            box = search.get_by_role("textbox", name="Question or rule number").first
            box.fill("who becomes the monarch if the monarch leaves the game")
            box.press("Enter")
            search.get_by_text('End of the hits for "who becomes the monarch if the monarch leaves the game".'
                               ).first.wait_for()
        finally:
            browser.close()
    assert app_server.process.poll() is None
