"""Ticket descriptions are HTML from the helpdesk: sanitised before they are stored (DESIGN
section 4), so the portal may render them as they are.

``nh3`` (the Ammonia sanitiser) keeps an allow-list of formatting tags, drops scripts, styles,
event handlers and ``javascript:`` links, and adds ``rel="noopener noreferrer"`` to links.
"""

import nh3

_TAGS = {
    "a", "b", "blockquote", "br", "code", "div", "em", "h1", "h2", "h3", "h4", "hr", "i",
    "li", "ol", "p", "pre", "s", "span", "strong", "sub", "sup", "table", "tbody", "td",
    "th", "thead", "tr", "u", "ul",
}  # fmt: skip
_ATTRIBUTES = {"a": {"href", "title"}, "td": {"colspan", "rowspan"}, "th": {"colspan", "rowspan"}}


def sanitize_html(html: str) -> str:
    return nh3.clean(
        html, tags=_TAGS, attributes=_ATTRIBUTES, url_schemes={"http", "https", "mailto"}
    )
