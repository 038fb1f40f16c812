"""End to end in a real browser (issues 6 and 14): `rulesjudge app` on 127.0.0.1, driven by headless Chromium
at a desktop size (1366×900) and a phone size (390×844).

Each fix of issue 14 is checked on the page as a judge meets it, with screenshots saved into tests/artifacts/
(git-ignored): ask first, the answer right under the question, cross-references opening where the judge is,
Treachery's deal, downloads keeping their name, editions, the picture and its legend, the phone layout,
sharing a ruling, and eight judges at once. Timings and memory are measured and printed (and written to
tests/artifacts/e2e-metrics.json), never asserted. Chromium is Debian's (`apt-get install chromium`;
scripts/test installs it): `playwright install` cannot download browsers here, so its path is given.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import re
import statistics
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import AppServer, run_cli_process, start_app_server

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PROJECT_ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = PROJECT_ROOT / "tests" / "artifacts"
TIMEOUT_MS = 120_000
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
SIZES = {"desktop": DESKTOP, "phone": PHONE}
LOAD_SECONDS = float(os.environ.get("RULESJUDGE_E2E_LOAD_SECONDS", "60"))
SESSIONS = 8
METRICS: dict[str, Any] = {}

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason=f"{CHROMIUM} is missing: install Debian's chromium (scripts/test does)"
)


def process_tree(pid: int) -> list[int]:
    pids = [pid]
    children = Path(f"/proc/{pid}/task/{pid}/children")
    if children.exists():
        pids += [int(p) for p in children.read_text().split()]
    return pids


def rss_mb(pid: int) -> float:
    """Resident memory of a process and its children, in MB (from /proc)."""
    total = 0
    for one in process_tree(pid):
        try:
            for line in Path(f"/proc/{one}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


def cpu_seconds(pid: int) -> float:
    """CPU time the server process has used (user + system), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def loads_torch(pid: int) -> bool:
    """Has the server mapped torch's library (imported torch) — the fallback must never do that."""
    for one in process_tree(pid):
        try:
            if "libtorch" in Path(f"/proc/{one}/maps").read_text():
                return True
        except OSError:
            continue
    return False


@pytest.fixture(scope="module")
def server(app_env: Path) -> Iterator[dict]:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    # The index of the private data folder is built (conftest's app_env); `app --build-only` also exports the
    # query model, so the measured start is the start of a server whose index is built.
    built = run_cli_process("app", "--build-only", data=app_env, timeout=1800)
    assert built.code == 0, built.err[-2000:]
    started = time.monotonic()
    app = start_app_server(app_env, ARTIFACTS / "e2e-server.log")
    try:
        app.wait_ready()
        yield {"url": app.url, "process": app.process, "started": started}
    finally:
        app.stop()
        write_metrics()


def write_metrics() -> None:
    if not METRICS:  # a second import of this module (test_e2e_cards's fixtures) measured nothing
        return
    report = {k: (round(v, 3) if isinstance(v, float) else v) for k, v in sorted(METRICS.items())}
    (ARTIFACTS / "e2e-metrics.json").write_text(json.dumps(report, indent=1))
    print("\nend-to-end measurements (targets: start ≤ 10 s, search ≤ 0.5 s, what-if ≤ 1 s, "
          "server ≤ 400 MB):")
    for name, value in report.items():
        print(f"  {name}: {value}")


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


IDLE = """() => !document.querySelector('[data-stale="true"]')
    && !document.querySelector('[data-testid="stStatusWidgetRunningIcon"]')
    && !document.querySelector('[data-testid="stStatusWidgetRunningManIcon"]')"""


def settle(page) -> None:
    """Wait until the script run that produced the awaited text has finished rendering the page."""
    page.wait_for_function(IDLE, timeout=TIMEOUT_MS)


def new_page(browser, size: str, **options):
    phone = size == "phone"
    context = browser.new_context(viewport=SIZES[size], device_scale_factor=2 if phone else 1,
                                  is_mobile=phone, has_touch=phone, accept_downloads=True, **options)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    return page


def shot(page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"e2e-{name}.png"))


def no_errors(page) -> None:
    assert page.locator('[data-testid="stException"]').count() == 0, "a traceback is on the page"


def search(page, question: str) -> float:
    box = page.get_by_role("textbox", name="Question or rule number").first
    box.fill(question)
    began = time.monotonic()
    box.press("Enter")
    page.get_by_text(f'End of the hits for "{question}".').first.wait_for()
    elapsed = time.monotonic() - began
    settle(page)
    return elapsed


def ask(page, question: str, wait_for: str, where: str = ".st-key-whatif_answer") -> float:
    """Ask a what-if; the time runs until ``wait_for`` is shown in the answer (or the fallback)."""
    box = page.get_by_role("textbox", name="Ask about this table in plain English").first
    box.fill(question)
    began = time.monotonic()
    box.press("Enter")
    page.locator(where).get_by_text(wait_for).first.wait_for()
    elapsed = time.monotonic() - began
    settle(page)
    return elapsed


def choose(page, label: str, option: str) -> None:
    """Pick an option of a select box (typed to filter long lists; tried again if a rerun closed the menu)."""
    box = page.get_by_test_id("stSelectbox").filter(has_text=label).first
    wanted = page.get_by_role("option", name=option, exact=True)
    for _ in range(4):
        settle(page)
        box.click()
        page.keyboard.type(option)
        try:
            wanted.first.wait_for(timeout=15_000)
            wanted.first.click()
            settle(page)
            return
        except Exception:  # the menu closed under a rerun: open it again
            page.keyboard.press("Escape")
    raise AssertionError(f"no option {option!r} in {label!r}")


def seat(page, players: str) -> None:
    """Type the players in seat order (the table form)."""
    box = page.get_by_role("textbox", name="Players in seat order (clockwise, comma-separated)").first
    box.fill(players)
    box.press("Enter")
    settle(page)


def in_view(page, locator) -> bool:
    box = locator.bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= 0 and box["y"] + min(box["height"], 60) <= height


def picture_svg(page, image) -> str:
    """The SVG behind an <img> the page shows (a data URI or a media URL of the server)."""
    source = image.get_attribute("src") or ""
    if source.startswith("data:"):
        head, _, data = source.partition(",")
        return base64.b64decode(data).decode() if ";base64" in head else urllib.parse.unquote(data)
    return page.request.get(urllib.parse.urljoin(page.url, source)).text()


def open_checker(browser, server, size: str, query: str = ""):
    page = new_page(browser, size)
    page.goto(server["url"] + "Scenario_checker" + query)
    page.get_by_role("textbox", name="Ask about this table in plain English").first.wait_for()
    settle(page)
    return page


# -------------------------------------------------------------------------------------------- search


def test_launch_and_search_measured(browser, server):
    page = new_page(browser, "desktop")
    page.goto(server["url"])
    page.get_by_role("textbox", name="Question or rule number").first.wait_for()
    METRICS["launch_to_usable_page_s"] = time.monotonic() - server["started"]
    METRICS["server_rss_after_start_mb"] = rss_mb(server["process"].pid)
    METRICS["search_first_s"] = search(page, "who becomes the monarch if the monarch leaves the game")
    page.get_by_text("If the monarch leaves the game, the active player becomes the monarch").first.wait_for()
    warm = [search(page, q) for q in ("can the emperor attack at the start of the game", "809.3c",
                                      "what happens to a creature I control when its owner leaves",
                                      "725.4", "who wins two headed giant if one player concedes")]
    METRICS["search_warm_median_s"] = statistics.median(warm)
    METRICS["search_warm_max_s"] = max(warm)
    no_errors(page)
    shot(page, "search-desktop")
    # a library scenario citing a hit opens in the checker (a link, in a new tab)
    search(page, "can the emperor attack at the start of the game")
    link = page.locator('a[href*="Scenario_checker?scenario=emperor/"]').first
    with page.context.expect_page() as new_tab:
        link.click()
    tab = new_tab.value
    tab.set_default_timeout(TIMEOUT_MS)
    tab.get_by_text("Loaded library: emperor/").first.wait_for()
    settle(tab)
    assert tab.get_by_text("NOT as expected").count() == 0
    tab.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_cross_reference_opens_where_the_judge_is_reading(browser, server, size):
    page = new_page(browser, size)
    page.goto(server["url"])
    search(page, "treachery 702.187c")  # the unveil rule refers to 116.2tr, the unveil special action
    button = page.get_by_role("button", name=re.compile(r"→ 116\.2tr")).first
    button.scroll_into_view_if_needed()
    button.click()
    opened = page.locator(".st-key-xref_open_1")
    opened.get_by_text("116.2tr").first.wait_for()
    settle(page)
    assert in_view(page, opened), f"the opened rule is out of view ({opened.bounding_box()})"
    no_errors(page)
    shot(page, f"cross-reference-{size}")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_editions_are_current_only_when_they_are_and_titles_say_a_number_once(browser, server, size):
    page = new_page(browser, size)
    page.goto(server["url"])
    search(page, "two headed giant defending player 810.7f")
    text = page.locator('[data-testid="stMainBlockContainer"]').inner_text()
    assert not re.search(r"(\d{3}\.\d+[a-z]*) — \1\b", text), "a title repeats its number"
    # "current" names the newest loaded edition; an older one says where the rule lives in the current
    # rules (or that it is not in them), naming that one current edition
    currents = set(re.findall(r"older edition \((?:now \S+ in|not in) the current rules, ([\d-]+)\)", text))
    assert len(currents) <= 1, currents
    assert "older edition (current:" not in text
    assert "current" in text
    shot(page, f"editions-{size}")
    # why: the Monarch page quotes 722.4 of 2024-06-07, which is 725.4 in the current (2026-04-17) rules
    page.goto(server["url"] + "?rule=cr@2024-06-07/722.4")
    page.get_by_text("older edition (now 725.4 in the current rules, 2026-04-17)").first.wait_for()
    no_errors(page)


def test_phone_shows_filters_without_a_hidden_sidebar(browser, server):
    page = new_page(browser, "phone")
    page.goto(server["url"])
    filters = page.get_by_text(re.compile(r"^Filters: ")).first
    filters.wait_for()
    assert in_view(page, filters)
    filters.click()
    page.get_by_text("Official only").first.wait_for()
    settle(page)
    shot(page, "filters-phone")


# ---------------------------------------------------------------------------------------- the checker


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_ask_first_and_the_answer_comes_right_under_the_question(browser, server, size):
    page = open_checker(browser, server, size)
    box = page.get_by_role("textbox", name="Ask about this table in plain English").first
    assert in_view(page, box), "the question box is on the first screen"
    load = page.get_by_text("Load a scenario: the library or a file").first
    assert load.is_visible(), "library and upload in the page, not behind a sidebar"
    shot(page, f"ask-first-{size}")
    choose(page, "Monarch", "Cat")
    started = time.monotonic()
    # 725.4: Cat, the monarch, leaves during Ann's turn; the active player, Ann, becomes the monarch.
    elapsed = ask(page, "whos king if the monarch scoops",
                  "If the monarch (Cat) concedes, who is the monarch?")
    answer = page.locator(".st-key-whatif_answer")
    answer.get_by_role("heading", name="Ann").first.wait_for()
    METRICS[f"what_if_first_{size}_s"] = elapsed
    question_box = box.bounding_box()
    answer_box = answer.bounding_box()
    assert answer_box["y"] > question_box["y"] and answer_box["y"] - question_box["y"] < 300, "right under it"
    shot(page, f"what-if-answer-{size}")
    warm = [ask(page, q, s) for q, s in (
        ("can the monarch attack Dan", "Can the monarch (Cat) attack Dan?"),
        ("whose turn is it after Ann leaves", "If Ann leaves the game, whose turn is it"),
        ("Dan attacks Ann with 3 creatures, who's the monarch?", "If 3 creatures Dan controls deal"),
    )]
    METRICS[f"what_if_warm_median_{size}_s"] = statistics.median(warm)
    METRICS.setdefault("checks", {})[f"answered_in_{size}_s"] = round(time.monotonic() - started, 2)
    no_errors(page)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_fallback_answers_in_the_page_without_torch(browser, server, size):
    page = open_checker(browser, server, size)
    elapsed = ask(page, "does deathtouch work on a player", "library scenarios closest to it",
                  where=".st-key-whatif_fallback")
    page.locator(".st-key-whatif_fallback").get_by_text("Scenario: ").first.wait_for()
    METRICS[f"fallback_first_{size}_s"] = elapsed
    METRICS[f"fallback_warm_{size}_s"] = ask(page, "how does the stack resolve in multiplayer",
                                             "library scenarios closest to it",
                                             where=".st-key-whatif_fallback")
    assert not loads_torch(server["process"].pid), "the fallback imported torch"
    METRICS[f"server_rss_after_fallback_{size}_mb"] = rss_mb(server["process"].pid)
    no_errors(page)
    shot(page, f"fallback-{size}")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_treachery_opens_on_a_legal_deal_with_its_questions(browser, server, size):
    page = open_checker(browser, server, size)
    seat(page, "Ann, Ben, Cat, Dan, Eve")
    choose(page, "Variant", "treachery")
    identities = page.get_by_role("textbox", name=re.compile("Identities"))
    identities.wait_for()
    assert "leader" in identities.input_value()
    assert page.get_by_text("has no identity card").count() == 0
    page.get_by_text(re.compile(r"^4\. The model's answers")).first.click()
    # 907.3c: the deck recommended for five players is legal.
    page.get_by_text("legal-setup → yes").first.wait_for()
    no_errors(page)
    shot(page, f"treachery-{size}")


def test_a_scenario_loaded_in_the_page_downloads_with_its_name_and_why(browser, server, tmp_path):
    page = open_checker(browser, server, "desktop")
    page.get_by_text("Load a scenario: the library or a file").first.click()
    choose(page, "Library scenario", "monarch/725-4-monarch-leaves-on-own-turn-next-player-takes-crown.yaml")
    page.get_by_role("button", name="Load", exact=True).click()
    page.get_by_text("Loaded library: monarch/725-4").first.wait_for()
    settle(page)
    with page.expect_download() as download:
        page.get_by_role("button", name="Download the table as a scenario file").click()
    saved = yaml.safe_load(Path(download.value.path()).read_text(encoding="utf-8"))
    source = yaml.safe_load((PROJECT_ROOT / "scenarios" / "library" / "monarch" /
                             "725-4-monarch-leaves-on-own-turn-next-player-takes-crown.yaml").read_text())
    assert saved["name"] == source["name"] and saved["why"] == source["why"]
    suggested = download.value.suggested_filename
    assert suggested.endswith(".yaml") and suggested != "table.yaml"


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_picture_is_large_fits_and_explains_itself(browser, server, size):
    page = open_checker(browser, server, size)
    seat(page, "Ann, Ben, Cat, Dan, Eve, Fay")
    choose(page, "Variant", "emperor")
    choose(page, "Monarch", "Cat")
    choose(page, "Arrows for", "everyone")
    picture = page.get_by_role("img", name=re.compile("the table")).last
    if picture.count() == 0:
        picture = page.locator('[data-testid="stImage"] img').last
    picture.scroll_into_view_if_needed()
    box = picture.bounding_box()
    width = page.viewport_size["width"]
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1, "the picture fits the screen"
    if size == "desktop":
        assert box["width"] >= 560, f"a larger drawing ({box['width']:.0f} px; it was 420-520 px)"
    svg = picture_svg(page, picture)
    for words in ("team A", "team B", "the monarch", "an emperor", "the active player"):
        assert f">{words}" in svg, words
    METRICS[f"picture_width_{size}_px"] = round(box["width"])
    shot(page, f"picture-{size}")


def test_reveal_names_the_cards(browser, server):
    page = open_checker(browser, server, "desktop")
    seat(page, "Ann, Ben, Cat, Dan")
    choose(page, "Variant", "treachery")
    identities = page.get_by_role("textbox", name=re.compile("Identities"))
    identities.fill("Ann: leader, The Old Ruler\nBen: traitor, The Metamorph\nCat: assassin, The Witch\n"
                    "Dan: assassin, The Demon")
    identities.press("Control+Enter")
    settle(page)
    page.get_by_text("reveal face-down identities").first.click()
    picture = page.locator('[data-testid="stImage"] img').last
    svg = ""
    for _ in range(60):  # the rerun redraws the picture (wait for it, not for a fixed time)
        settle(page)
        svg = picture_svg(page, picture)
        if "face down" not in svg:
            break
        time.sleep(1)
    assert "The Metamorph" in svg and "The Witch" in svg and "face down" not in svg
    picture.scroll_into_view_if_needed()
    shot(page, "reveal-desktop")


def test_a_long_question_on_a_phone_has_no_counter_over_it(browser, server):
    page = open_checker(browser, server, "phone")
    long = ("if Ben's creature hits Cat and then Ann concedes during Ben's turn, who is the monarch "
            "and who wins")
    box = page.get_by_role("textbox", name="Ask about this table in plain English").first
    box.fill(long)
    assert not page.get_by_text(re.compile(r"^\d+/\d+$")).count(), "a character counter is drawn"
    # nothing is drawn over the question: no counter, no "Press Enter" hint inside the box
    hints = page.locator('[data-testid="InputInstructions"]')
    box_area = box.bounding_box()
    for i in range(hints.count()):
        hint = hints.nth(i).bounding_box()
        if hint and hints.nth(i).is_visible():
            apart = (hint["x"] >= box_area["x"] + box_area["width"]
                     or hint["x"] + hint["width"] <= box_area["x"]
                     or hint["y"] >= box_area["y"] + box_area["height"]
                     or hint["y"] + hint["height"] <= box_area["y"])
            overlaps = not apart
            assert not overlaps, "a hint is drawn over the question"
    shot(page, "long-question-phone")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_shared_ruling_reopens_and_copies(browser, server, size):
    page = open_checker(browser, server, size)
    choose(page, "Monarch", "Dan")
    ask(page, "who gets the crown if Dan drops", "If Dan leaves the game, who is the monarch?")
    answer = page.locator(".st-key-whatif_answer")
    answer.get_by_text("Share this ruling (a link)").click()
    link = answer.locator("code").filter(has_text="?ruling=").first.inner_text().strip()
    answer.get_by_text("Copy ruling (plain text)").click()
    ruling = answer.locator("code").filter(has_text="Question: ").first.inner_text()
    assert "Question: who gets the crown if Dan drops" in ruling
    assert "Answer: Ann becomes the monarch (725.4)." in ruling
    assert re.search(r"^1\. .+\[.+\]$", ruling, flags=re.M), "each step names its rules"
    shot(page, f"share-{size}")
    other = new_page(browser, size)
    other.goto(link.replace("\n", ""))
    # 725.4: Dan leaves during Ann's turn, so the active player Ann becomes the monarch — on the new page too.
    other.locator(".st-key-whatif_answer").get_by_role("heading", name="Ann").first.wait_for()
    other.get_by_text("You asked: who gets the crown if Dan drops").first.wait_for()
    no_errors(other)
    shot(other, f"share-opened-{size}")


# ----------------------------------------------------------------------------------- many judges at once

LOAD_SEARCHES = ("who becomes the monarch if the monarch leaves the game", "809.3c",
                 "can a player attack a teammate", "what happens to the initiative when its holder leaves")
LOAD_WHAT_IFS = (  # on the default table: Ann, Ben, Cat, Dan; Ann active; no monarch
    ("whose turn is it after Ann leaves", "If Ann leaves the game, whose turn is it"),
    ("can Ben attack Dan", "Can Ben attack Dan?"),
    ("who wins if Ben, Cat and Dan all lose", "If Ben, Cat and Dan lose the game, who wins?"),
    ("what does deathtouch do to a player", "library scenarios closest to it"),
)


async def _session(browser, url: str, seconds: float, ready: asyncio.Barrier, clock: dict[str, float],
                   record: dict[str, list]) -> None:
    context = await browser.new_context(viewport=DESKTOP)
    home, checker = await context.new_page(), await context.new_page()
    for page in (home, checker):
        page.set_default_timeout(TIMEOUT_MS)
    await home.goto(url)
    await checker.goto(url + "Scenario_checker")
    box = home.get_by_role("textbox", name="Question or rule number").first
    question_box = checker.get_by_role("textbox", name="Ask about this table in plain English").first
    await box.wait_for()
    await question_box.wait_for()
    await home.wait_for_function(IDLE, timeout=TIMEOUT_MS, polling=100)
    await checker.wait_for_function(IDLE, timeout=TIMEOUT_MS, polling=100)
    await ready.wait()  # the clock starts once every judge has both pages open
    deadline = clock.setdefault("deadline", time.monotonic() + seconds)
    turn = 0
    while turn == 0 or time.monotonic() < deadline:
        query = LOAD_SEARCHES[turn % len(LOAD_SEARCHES)]
        await box.fill(query)
        began = time.monotonic()
        await box.press("Enter")
        await home.get_by_text(f'End of the hits for "{query}".').first.wait_for()
        record["search"].append(time.monotonic() - began)
        await home.wait_for_function(IDLE, timeout=TIMEOUT_MS, polling=100)
        # the server's own time for the search, as the page states it ("4 hits for … in 12 ms")
        stated = await home.get_by_text(re.compile(r"hits? for .* in \d+ ms")).first.inner_text()
        record["search_server"].append(float(re.findall(r"in (\d+) ms", stated)[-1]) / 1000)
        first = await home.locator('[data-testid="stMarkdownContainer"] ol > li').first.inner_text()
        record["search_answers"].append((query, first.splitlines()[0]))
        question, summary = LOAD_WHAT_IFS[turn % len(LOAD_WHAT_IFS)]
        await question_box.fill(question)
        began = time.monotonic()
        await question_box.press("Enter")
        await checker.get_by_text(summary).first.wait_for()
        await checker.wait_for_function(IDLE, timeout=TIMEOUT_MS, polling=100)
        record["what_if"].append(time.monotonic() - began)
        headline = checker.locator(".st-key-whatif_answer h3")
        said = (await headline.first.inner_text()) if await headline.count() else "fallback"
        record["what_if_answers"].append((question, said))
        errors = await home.locator('[data-testid="stException"]').count() + \
            await checker.locator('[data-testid="stException"]').count()
        record["errors"].append(errors)
        turn += 1
    await context.close()


async def _judges(url: str, sessions: int, seconds: float) -> list[dict[str, list]]:
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        keys = ("search", "search_server", "what_if", "search_answers", "what_if_answers", "errors")
        records: list[dict[str, list]] = [{key: [] for key in keys} for _ in range(sessions)]
        ready, clock = asyncio.Barrier(sessions), {}
        await asyncio.gather(*(_session(browser, url, seconds, ready, clock, r) for r in records))
        await browser.close()
        return records


def _run_judges(url: str, sessions: int, seconds: float) -> list[dict[str, list]]:
    """The async sessions run in a thread of their own (the sync browser of the other tests owns this one)."""
    result: dict[str, Any] = {}

    def work() -> None:
        try:
            result["records"] = asyncio.run(_judges(url, sessions, seconds))
        except BaseException as error:  # handed to the test below
            result["error"] = error

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    if "error" in result:
        raise result["error"]
    return result["records"]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


# ------------------------------------------------------------------------------------------- issue 23


def _start_server(data: Path) -> tuple[AppServer, float]:
    """A server on ``data`` and when it was asked to start (the measured start counts from there)."""
    started = time.monotonic()
    return start_app_server(data, ARTIFACTS / f"e2e-server-{data.name}.log"), started


def test_a_fresh_data_folder_starts_without_torch_in_the_server_measured(browser, tmp_path):
    """Issue 23.6: fresh (the index built by a child process) and warm; targets <= 10 s / <= 4 s to a usable
    page and <= 400 MB, measured and reported, not asserted; torch never in the server."""
    for name in ("fresh", "warm"):
        app, started = _start_server(tmp_path / "data")
        process, url = app.process, app.url
        try:
            app.wait_ready()
            page = new_page(browser, "desktop")
            page.goto(url)
            page.get_by_role("textbox", name="Question or rule number").first.wait_for()
            METRICS[f"{name}_start_to_usable_page_s"] = time.monotonic() - started
            search(page, "who becomes the monarch if the monarch leaves the game")
            METRICS[f"{name}_server_rss_after_a_search_mb"] = rss_mb(process.pid)
            assert not loads_torch(process.pid), f"the server imported torch ({name} start)"
            page.context.close()
        finally:
            app.stop()
    write_metrics()  # also when this test runs alone, after the module's server has written its own


def test_a_question_states_its_table_and_is_answered_in_a_sentence(browser, server):
    page = open_checker(browser, server, "desktop")
    # 725.4: the monarch leaves during Ben's turn, so Ben, the active player, becomes the monarch.
    elapsed = ask(page, "Ann is the monarch. On Ben's turn Ann concedes. Who is the monarch?",
                  "Ben becomes the monarch (725.4).")
    METRICS["what_if_stated_table_s"] = elapsed
    answer = page.locator(".st-key-whatif_answer")
    answer.get_by_text("The question's table: Ann is the monarch.").first.wait_for()
    assert answer.get_by_text("→").count() == 0, "no model notation in the answer"
    # a presupposition is said: nobody is the monarch at this table
    ask(page, "who becomes monarch if the active player leaves?",
        "Assuming Ann, the active player, is the monarch: Ben becomes the monarch (725.4).")
    # the variant named as context, and filler
    choose(page, "Variant", "emperor")
    ask(page, "in Emperor, can Dan attack Ann? lol", "No: Dan can't attack Ann")
    no_errors(page)
    shot(page, "stated-table")


def test_emperor_starts_legal_and_a_hand_built_table_survives_a_reload(browser, server):
    page = open_checker(browser, server, "desktop")
    choose(page, "Variant", "emperor")
    assert page.get_by_text("an Emperor team has").count() == 0, "809.1: Emperor starts with teams of three"
    teams = page.get_by_role("textbox", name=re.compile("Teams")).first
    teams.fill("Ann, Ben, Cat\nDan, Eve, Zed")
    teams.press("Control+Enter")
    settle(page)
    page.get_by_text("Seats clockwise: Ann, Ben, Cat, Dan, Eve, Zed").first.wait_for()
    page.reload()
    page.get_by_role("textbox", name="Ask about this table in plain English").first.wait_for()
    settle(page)
    assert "Zed" in page.get_by_role("textbox", name=re.compile("Teams")).first.input_value()
    no_errors(page)


def test_a_search_is_shared_by_its_address_and_a_section_shows_its_rules(browser, server):
    page = new_page(browser, "desktop")
    page.goto(server["url"])
    search(page, "725.4")
    assert "q=725.4" in page.url
    again = page.context.new_page()
    again.goto(page.url)
    again.get_by_text('End of the hits for "725.4".').first.wait_for()
    settle(again)
    again.locator("code").filter(has_text="725.4").first.wait_for()  # a citation to copy per hit
    again.goto(server["url"] + "?rule=cr@2026-04-17/704")
    again.get_by_text("704.3").first.wait_for()  # the section's rules, not its title alone
    long = "who becomes the monarch " * 30
    box = again.get_by_role("textbox", name="Question or rule number").first
    box.fill(long)
    box.press("Enter")
    again.get_by_text(re.compile(r"the limit is 500: cut \d+")).first.wait_for()  # kept, and how much to cut
    no_errors(again)


def test_eight_judges_at_once_get_the_answers_one_judge_gets(server):
    pytest.importorskip("playwright.async_api")
    url = server["url"]
    alone = _run_judges(url, 1, 30)[0]  # one judge alone: the answers the eight must give too
    single = dict(alone["search_answers"]) | dict(alone["what_if_answers"])
    METRICS["alone_search_p50_s"] = statistics.median(alone["search"])
    METRICS["alone_what_if_p50_s"] = statistics.median(alone["what_if"])
    cpu_before, wall_before = cpu_seconds(server["process"].pid), time.monotonic()
    records = _run_judges(url, SESSIONS, LOAD_SECONDS)
    # how busy the server itself was: the rest of the machine's time went to the 16 browser pages
    METRICS["judges_server_cpu_share"] = round(
        (cpu_seconds(server["process"].pid) - cpu_before) / (time.monotonic() - wall_before), 2)
    METRICS["judges_machine_load_1min"] = os.getloadavg()[0]
    searches = [t for r in records for t in r["search"]]
    what_ifs = [t for r in records for t in r["what_if"]]
    assert searches and what_ifs
    assert sum(e for r in records for e in r["errors"]) == 0, "an error on a page"
    answers: dict[str, set[str]] = {}
    for record in records:
        for question, said in [*record["search_answers"], *record["what_if_answers"]]:
            answers.setdefault(question, set()).add(said)
    for question, said in answers.items():
        assert len(said) == 1, f"{question!r} answered differently by different sessions: {said}"
        if single.get(question) is not None:
            assert said == {single[question]}, f"{question!r}: {said} alone: {single[question]}"
    METRICS["judges_sessions"] = SESSIONS
    METRICS["judges_seconds"] = LOAD_SECONDS
    METRICS["judges_searches"] = len(searches)
    METRICS["judges_what_ifs"] = len(what_ifs)
    METRICS["judges_search_p50_s"] = statistics.median(searches)
    METRICS["judges_search_p95_s"] = percentile(searches, 0.95)
    server_side = [t for r in records for t in r["search_server"]]
    METRICS["judges_search_server_p50_s"] = statistics.median(server_side)
    METRICS["judges_search_server_p95_s"] = percentile(server_side, 0.95)
    METRICS["judges_what_if_p50_s"] = statistics.median(what_ifs)
    METRICS["judges_what_if_p95_s"] = percentile(what_ifs, 0.95)
    METRICS["server_rss_after_judges_mb"] = rss_mb(server["process"].pid)
    METRICS["server_loaded_torch"] = loads_torch(server["process"].pid)
