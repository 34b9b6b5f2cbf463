"""Markup made elsewhere, made safe to put in a page: ticket HTML, the Markdown of ticket
messages, and sensor chart SVG.

The embedded provider sanitises ticket HTML before it stores and sends it (DESIGN section 4),
and the portal's client sanitises it again, with the same allow-list, as it arrives: with
``PROVIDER_API_URL`` the provider is another system, and the portal never inlines markup it
did not check. So does the client with the sensor charts' SVG. This module imports neither
Reflex nor the provider: both use it.

HTML goes through ``nh3`` (the Ammonia sanitiser): an allow-list of formatting tags and
attributes; no script, style, iframe, form, image or event handler survives, the content of
``script`` and ``style`` is dropped with them, links keep only ``http``, ``https`` and ``mailto``
targets (no ``javascript:``, ``data:`` or ``vbscript:``) and get ``rel="noopener noreferrer"``.

Markdown (a ticket's messages) is rendered by ``markdown-it-py`` in CommonMark mode with raw
HTML off (typed tags show as text), then goes through the same ``nh3`` allow-list as ticket
HTML: a message can hold no more than a description can, and no image at all (a remote one
would tell its author who read the message, and when).

SVG is parsed as XML by ``defusedxml`` (no DTD, no entity, so no expansion bomb and no outside
file) and written again from an allow-list of the elements and attributes that charts drawn by
matplotlib use (portal/provider/monitoring/chart.py): shapes, groups, text and local ``<use>``.
Whatever is not on it goes, with its content: ``<script>``, ``<foreignObject>``, ``<image>``,
``<a>``, animations, event handlers. A reference is kept only to a ``#fragment`` of the chart
itself (``href``, ``url(#…)``); a value with any other function, an escape or a comment is
dropped. Ids get a prefix, so the chart's ids never clash with (or clobber) the page's. Its
style sheet keeps only properties that paint SVG shapes, under selectors scoped to the chart: a
chart restyles nothing else on the page.
"""

import re
import xml.etree.ElementTree as ET
from html import escape

import nh3
from defusedxml.ElementTree import fromstring as parse_xml
from markdown_it import MarkdownIt

_HTML_TAGS = {
    "a", "abbr", "b", "blockquote", "br", "caption", "code", "dd", "div", "dl", "dt", "em",
    "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "li", "ol", "p", "pre", "s", "small",
    "span", "strong", "sub", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "tr",
    "u", "ul",
}  # fmt: skip
_HTML_ATTRIBUTES = {
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
        tags=_HTML_TAGS,
        attributes=_HTML_ATTRIBUTES,
        url_schemes=_URL_SCHEMES,
        link_rel=LINK_REL,
        strip_comments=True,
    )


# Raw HTML off: ``<b>`` typed in a message is text, not markup; links stay links.
_MARKDOWN = MarkdownIt("commonmark", {"html": False})


def render_markdown(text: str) -> str:
    """``text`` (Markdown) as HTML safe to put in a page: rendered, then sanitised."""
    return sanitize_html(_MARKDOWN.render(text))


SVG_NAMESPACE = "http://www.w3.org/2000/svg"
XLINK_NAMESPACE = "http://www.w3.org/1999/xlink"
# The chart's ids and the class that scopes its style sheet.
SVG_ID_PREFIX = "provider-svg-"
SVG_SCOPE = "provider-svg"
# Far deeper than a chart (matplotlib nests six levels); deeper elements are dropped.
_MAX_DEPTH = 32

# Properties that paint SVG shapes and text; the style sheet keeps only those that paint
# nothing outside SVG, so even a wide selector cannot restyle the page.
_SHEET_PROPERTIES = {
    "clip-rule", "dominant-baseline", "fill", "fill-opacity", "fill-rule", "stroke",
    "stroke-dasharray", "stroke-dashoffset", "stroke-linecap", "stroke-linejoin",
    "stroke-miterlimit", "stroke-opacity", "stroke-width", "text-anchor",
}  # fmt: skip
_STYLE_PROPERTIES = _SHEET_PROPERTIES | {
    "clip-path", "font", "font-family", "font-size", "font-style", "font-weight", "opacity",
}  # fmt: skip
_COMMON_ATTRIBUTES = _STYLE_PROPERTIES | {"id", "style", "transform"}
_SVG_ELEMENTS: dict[str, set[str]] = {
    "svg": {"version", "viewBox", "width", "height", "preserveAspectRatio"},
    "g": set(),
    "defs": set(),
    "style": {"type"},
    "clipPath": {"clipPathUnits"},
    "path": {"d"},
    "use": {"href", "x", "y", "width", "height"},
    "rect": {"x", "y", "width", "height", "rx", "ry"},
    "line": {"x1", "y1", "x2", "y2"},
    "polyline": {"points"},
    "polygon": {"points"},
    "circle": {"cx", "cy", "r"},
    "ellipse": {"cx", "cy", "rx", "ry"},
    "text": {"x", "y", "dx", "dy"},
    "tspan": {"x", "y", "dx", "dy"},
}
# Colours and transforms: the functions a value may hold besides a local ``url(#…)``.
_PLAIN_FUNCTIONS = {
    "rgb", "rgba", "hsl", "hsla", "matrix", "translate", "scale", "rotate", "skewx", "skewy",
}  # fmt: skip
_FUNCTION = re.compile(r"([A-Za-z-]*)\s*\(([^()]*)\)")
_LOCAL_ID = re.compile(r"[A-Za-z_][\w.-]*")
# Escapes and comments could spell a word the checks look for; markup has no place in a value.
_NEVER_IN_VALUES = ("\\", "/*", "<", "@")


class _UnsafeValue(ValueError):
    """A value that goes, not the document: its attribute or declaration is left out."""


def sanitize_svg(svg: str) -> str:
    """``svg`` rewritten from the allow-list; ValueError when it is no well-formed SVG."""
    try:
        root = parse_xml(svg, forbid_dtd=True)
    except (ET.ParseError, ValueError) as error:
        raise ValueError("not a well-formed XML document") from error
    if _svg_name(root.tag) != "svg":
        raise ValueError("not an SVG document")
    out: list[str] = []
    _write(root, out, depth=0)
    return "".join(out)


def _svg_name(tag: str) -> str | None:
    """The element's name when it is an allowed SVG element (in the SVG namespace or none)."""
    namespace, _, name = tag.rpartition("}")
    if namespace not in ("", "{" + SVG_NAMESPACE):
        return None
    return name if name in _SVG_ELEMENTS else None


def _write(element: ET.Element, out: list[str], depth: int) -> None:
    name = _svg_name(element.tag)
    if name is not None and depth <= _MAX_DEPTH:
        attributes = _attributes(name, element.attrib)
        if depth == 0:
            attributes = {
                "xmlns": SVG_NAMESPACE,
                "xmlns:xlink": XLINK_NAMESPACE,
                **attributes,
                "class": SVG_SCOPE,
            }
        out.append(f"<{name}")
        out.extend(f' {key}="{escape(value)}"' for key, value in attributes.items())
        out.append(">")
        text = element.text or ""
        out.append(escape(_scoped_sheet(text) if name == "style" else text, quote=False))
        for child in element:
            _write(child, out, depth + 1)
        out.append(f"</{name}>")
    # Text after an element belongs to its parent: kept, even when the element goes.
    out.append(escape(element.tail or "", quote=False))


def _attributes(element: str, given: dict[str, str]) -> dict[str, str]:
    allowed = _COMMON_ATTRIBUTES | _SVG_ELEMENTS[element]
    kept: dict[str, str] = {}
    for key, value in given.items():
        namespace, _, name = key.rpartition("}")
        if name == "href" and namespace in ("", "{" + XLINK_NAMESPACE) and name in allowed:
            target = _local_reference(value)
            if target:
                kept["xlink:href" if namespace else "href"] = target
            continue
        if namespace or name not in allowed:
            continue
        try:
            kept[name] = _safe_attribute(element, name, value)
        except _UnsafeValue:
            continue
    return kept


def _safe_attribute(element: str, name: str, value: str) -> str:
    if name == "id":
        if not _LOCAL_ID.fullmatch(value):
            raise _UnsafeValue(value)
        return SVG_ID_PREFIX + value
    if name == "style":
        return _safe_declarations(value, _STYLE_PROPERTIES)
    if element == "style" and name == "type" and value != "text/css":
        raise _UnsafeValue(value)
    return _safe_value(value)


def _local_reference(value: str) -> str | None:
    """A ``#fragment`` of the chart itself, with its prefixed id; None for anything else."""
    target = value.strip()
    if target.startswith("#") and _LOCAL_ID.fullmatch(target[1:]):
        return "#" + SVG_ID_PREFIX + target[1:]
    return None


def _safe_value(value: str) -> str:
    """The value with its local references prefixed; _UnsafeValue if it holds anything else
    than plain words, numbers, colours, transforms and local ``url(#…)``."""
    rest = _FUNCTION.sub("", value)
    if any(mark in value for mark in _NEVER_IN_VALUES) or "(" in rest or ")" in rest:
        raise _UnsafeValue(value)  # an escape, a comment, a call left open or one in another

    def checked(call: re.Match[str]) -> str:
        function = call.group(1).lower()
        if function in _PLAIN_FUNCTIONS:
            return call.group(0)
        target = _local_reference(call.group(2).strip().strip("'\""))
        if function == "url" and target:
            return f"url({target})"
        raise _UnsafeValue(value)

    return _FUNCTION.sub(checked, value)


def _safe_declarations(style: str, properties: set[str]) -> str:
    """The declarations of ``properties`` whose values are safe, the others left out."""
    kept = []
    for declaration in style.split(";"):
        name, colon, value = declaration.partition(":")
        name = name.strip().lower()
        if not colon or name not in properties:
            continue
        try:
            kept.append(f"{name}: {_safe_value(value.strip())}")
        except _UnsafeValue:
            continue
    return "; ".join(kept)


def _scoped_sheet(sheet: str) -> str:
    """The style sheet's rules on the chart's own elements, with shape-painting properties
    only; nothing of a sheet with at-rules, escapes or comments."""
    if any(mark in sheet for mark in _NEVER_IN_VALUES):
        return ""
    rules = []
    for rule in sheet.split("}"):
        selectors, brace, declarations = rule.partition("{")
        scoped = [
            f".{SVG_SCOPE} {selector}"
            for selector in (part.strip() for part in selectors.split(","))
            if selector == "*" or selector in _SVG_ELEMENTS
        ]
        kept = _safe_declarations(declarations, _SHEET_PROPERTIES)
        if brace and scoped and kept:
            rules.append(f"{', '.join(scoped)} {{{kept}}}")
    return "\n".join(rules)
