"""User text is never autolinked in the app (issue 24, 7a). Streamlit's markdown (remark-gfm) turns a bare
URL, a `www.` address or an e-mail address into a link *after* backslash escapes are read, so escaping
markup is not enough: a player named `https://evil.example` became a clickable link under "Ask about this
table". Every piece of user or document text shown as markdown goes through `app/web/common.md`.

`autolinked` below is GFM's autolink-literal rule (github.com/syntax-tree/mdast-util-gfm-autolink-literal):
a `http://`, `https://`, `mailto:`, `xmpp:` or `www.` run, or `local@domain.tld`, starting the text or
after whitespace or punctuation, is linked.
"""

from __future__ import annotations

import re
import unicodedata

import pytest

from rulesjudge.app.web.common import md

_LINK = re.compile(r"(?i)(?:https?://|mailto:|xmpp:|www\.)[-.\w]|[-.\w+]+@[-\w]+(?:\.[-\w]+)+")


def shown(markdown: str) -> str:
    """The text markdown shows: backslash escapes read (what the autolink rule then sees)."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown)


def autolinked(text: str) -> list[str]:
    found = []
    for match in _LINK.finditer(text):
        before = text[match.start() - 1] if match.start() else " "
        if before.isspace() or unicodedata.category(before).startswith(("P", "S")):
            found.append(match.group(0))
    return found


@pytest.mark.parametrize("text", [
    "https://evil.example/steal", "Ann (http://evil.example)", "WWW.evil.example", "www.evil.example/x",
    "mailto:judge@evil.example", "judge@evil.example", "xmpp:me@evil.example", "[Ann](https://evil.example)",
    "<https://evil.example>", "Ann,https://evil.example",
])
def test_a_url_in_user_text_is_shown_as_text(text) -> None:
    rendered = shown(md(text))
    assert autolinked(rendered) == []  # why: nothing a user typed may become a link
    assert rendered.replace("\u2060", "") == text  # shown as typed (a word joiner is invisible)


def test_the_rule_checks_itself() -> None:  # the oracle links what GFM links
    assert autolinked(shown("see https://evil.example")) == ["https://e"]
    assert autolinked(shown("judge@evil.example")) == ["judge@evil.example"]
