"""Cards in the running app (issue 21.4), in headless Chromium like ``test_e2e_browser.py`` (whose server
and browser fixtures this reuses): suggestions while typing a name (no Enter), a card's address, the
cards a question names beside the rules; and the server's memory with the cards loaded, printed and
written to ``tests/artifacts/e2e-cards-metrics.json`` (target ≤ 450 MB; measured, never asserted)."""

from __future__ import annotations

import json
import time

from tests.app.test_e2e_browser import (  # noqa: F401 (fixtures)
    ARTIFACTS,
    browser,
    new_page,
    no_errors,
    pytestmark,
    rss_mb,
    search,
    server,
    settle,
    shot,
)


def test_cards_in_the_app_and_the_servers_memory(browser, server):  # noqa: F811
    pid = server["process"].pid
    figures = {"after start MB": round(rss_mb(pid), 1)}
    page = new_page(browser, "desktop")
    page.goto(server["url"])
    settle(page)
    figures["after the home page MB"] = round(rss_mb(pid), 1)

    question = "Opponent controls Thalia, Heretic Cathar; I cast Gideon Blackblade. Does Gideon enter tapped?"
    figures["search naming two cards, first (s)"] = round(search(page, question), 2)
    page.get_by_text("Cards named in the question (2)").first.wait_for()
    # why: Thalia's Oracle text answers the question
    page.get_by_text("nonbasic lands your opponents control enter").first.wait_for()
    no_errors(page)
    shot(page, "cards-search")
    figures["after a search naming cards MB"] = round(rss_mb(pid), 1)

    page.goto(server["url"] + "Cards?card=platnum%20angle")
    page.get_by_text("You can't lose the game and your opponents can't win the game.").first.wait_for()
    settle(page)
    no_errors(page)
    shot(page, "cards-typo")

    box = page.get_by_role("textbox", name="Card name").first
    box.fill("")
    began = time.monotonic()
    box.press_sequentially("Thalia, H", delay=40)  # no Enter: suggestions come while typing
    page.get_by_role("button", name="Thalia, Heretic Cathar").first.wait_for()
    figures["suggestions while typing (s)"] = round(time.monotonic() - began, 2)
    page.get_by_role("button", name="Thalia, Heretic Cathar").first.click()
    page.get_by_text("Official rulings (").first.wait_for()
    settle(page)
    no_errors(page)
    assert "card=Thalia" in page.url  # the address follows the card shown: shareable
    shot(page, "cards-page")
    figures["after the Cards page MB"] = round(rss_mb(pid), 1)
    for name in ("Teysa", "Lightnig Bolt", "O-Ring", "Fire"):
        page.goto(server["url"] + "Cards?card=" + name)
        page.get_by_text("Card name").first.wait_for()
        settle(page)
    figures["after more lookups (short name, typo, nickname, face) MB"] = round(rss_mb(pid), 1)

    # a rule the card's text refers to opens on the search page (Thalia's first strike: 702.7)
    page.goto(server["url"] + "Cards?card=Thalia%2C%20Heretic%20Cathar")
    page.get_by_text("Rules its text refers to").first.wait_for()
    link = page.locator('a[href*="rule=cr@2026-04-17/702.7"]').first
    with page.context.expect_page() as new_tab:  # Streamlit opens a markdown link in a new tab
        link.click()
    tab = new_tab.value
    tab.set_default_timeout(120_000)
    tab.get_by_text("Opened:").first.wait_for()
    settle(tab)
    no_errors(tab)
    assert tab.get_by_text("702.7").count() > 0
    tab.close()
    print("\ncards in the app:", json.dumps(figures, indent=1))
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "e2e-cards-metrics.json").write_text(json.dumps(figures, indent=1), encoding="utf-8")
