"""Ticket descriptions are HTML from the helpdesk: sanitised before they are stored and again
before they are sent (DESIGN section 4), so the portal may render them as they are.

``nh3`` (the Ammonia sanitiser) keeps an allow-list of formatting tags and attributes: no
script, style, iframe, form, image or event handler survives, the content of ``script`` and
``style`` is dropped with them, links keep only ``http``, ``https`` and ``mailto`` targets (no
``javascript:``, ``data:`` or ``vbscript:``) and get ``rel="noopener noreferrer"``.
"""

import nh3

_TAGS = {
    "a", "abbr", "b", "blockquote", "br", "caption", "code", "dd", "div", "dl", "dt", "em",
    "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "li", "ol", "p", "pre", "s", "small",
    "span", "strong", "sub", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "tr",
    "u", "ul",
}  # fmt: skip
_ATTRIBUTES = {
    "a": {"href", "title"},
    "abbr": {"title"},
    "td": {"colspan", "rowspan"},
    "th": {"colspan", "rowspan", "scope"},
    "ol": {"start"},
}
_URL_SCHEMES = {"http", "https", "mailto"}
LINK_REL = "noopener noreferrer"


def sanitize_html(html: str) -> str:
    return nh3.clean(
        html,
        tags=_TAGS,
        attributes=_ATTRIBUTES,
        url_schemes=_URL_SCHEMES,
        link_rel=LINK_REL,
        strip_comments=True,
    )
