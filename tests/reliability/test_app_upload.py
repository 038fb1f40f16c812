"""One bad upload must never take the app down: the deep-nesting scenario file that crashed the server
(30,000 unclosed "[" overflowed the YAML parser's stack: a segmentation fault, the server gone for every
user) is uploaded to a real `rulesjudge app` in Chromium; the page says why in one line, and the same
server then still answers a search.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PROJECT_ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_MS = 120_000

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(),
                                reason=f"{CHROMIUM} is missing (apt-get install chromium)")


@pytest.fixture(scope="module")
def server(app_data_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "RULESJUDGE_DATA": str(app_data_root), "HF_HUB_OFFLINE": "1",
           "TRANSFORMERS_OFFLINE": "1"}
    log = tmp_path_factory.mktemp("server") / "server.log"
    with log.open("w") as out:
        process = subprocess.Popen([sys.executable, "-m", "rulesjudge.app.cli", "app", "--port", str(port)],
                                   cwd=PROJECT_ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 600  # a first run builds the index
        while time.monotonic() < deadline:
            assert process.poll() is None, f"the server exited ({process.returncode}): {log.read_text()}"
            try:
                with urllib.request.urlopen(url + "_stcore/health", timeout=2):
                    break
            except OSError:
                time.sleep(0.2)  # polling until the server listens
        yield {"url": url, "process": process}
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def test_a_deep_nesting_upload_is_refused_and_the_server_still_answers_a_search(server, tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api")
    deep = tmp_path / "deep.yaml"
    deep.write_text("name: x\ngame: {players: [A, B]}\nwhy: " + "[" * 30_000 + "\n", encoding="utf-8")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            page.goto(server["url"] + "Scenario_checker")
            page.locator('input[type="file"]').first.set_input_files(str(deep))
            page.get_by_text("deep.yaml:3: why[0][0]…: nested more than 32 levels deep").first.wait_for()
            assert server["process"].poll() is None  # the server lives

            search = browser.new_page()  # another user, the same server
            search.set_default_timeout(TIMEOUT_MS)
            search.goto(server["url"])
            box = search.get_by_role("textbox", name="Question or rule number").first
            box.fill("who becomes the monarch if the monarch leaves the game")
            box.press("Enter")
            search.get_by_text('End of the hits for "who becomes the monarch if the monarch leaves the game".'
                               ).first.wait_for()
        finally:
            browser.close()
    assert server["process"].poll() is None
