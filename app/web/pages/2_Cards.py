"""rulesjudge — a card looked up by name (issue 21.4).

Logic: app/cards_view.py; layout: app/web/cards_ui.py."""

from __future__ import annotations

from rulesjudge.app.web import cards_ui, common

common.setup_page("Cards", "🃏")
cards_ui.cards_page()
