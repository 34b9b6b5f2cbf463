"""The production front end's weight: the JavaScript and CSS each prerendered page makes the
browser fetch on first load (module preloads, scripts, style sheets), raw and gzip-compressed.
Chunks loaded later on demand (lazy components) are not counted. The preloads are named in the
page's module script, which adds them after the first paint (portal/first_paint.py)."""

import gzip
import re
from dataclasses import asdict, dataclass
from pathlib import Path

_ASSET = re.compile(r'"(/assets/[^"\s]+\.(?:js|css))"')


@dataclass
class PageWeight:
    page: str
    files: int
    js_raw: int
    js_gzip: int
    css_raw: int
    css_gzip: int
    # What this page adds to what the login page (the first page a user loads) already fetched.
    extra_gzip: int


def _gzip_size(path: Path) -> int:
    return len(gzip.compress(path.read_bytes(), compresslevel=9))


def _assets(client: Path, html: Path) -> set[str]:
    return set(_ASSET.findall(html.read_text(encoding="utf-8")))


def page_weights(build: Path) -> list[dict[str, object]]:
    """Every prerendered page of ``build`` (``.web/build``), the login page first."""
    client = build / "client"
    pages: dict[str, Path] = {}
    for html in sorted(client.rglob("*.html")):
        relative = html.relative_to(client).as_posix()
        route = "/" + relative.removesuffix("index.html").removesuffix(".html").rstrip("/")
        if not route.startswith("/__"):
            pages.setdefault(route.rstrip("/") or "/", html)
    first = _assets(client, pages["/login"]) if "/login" in pages else set()
    sizes: dict[str, tuple[int, int]] = {}
    weights = []
    for route in sorted(pages, key=lambda name: (name != "/login", name)):
        assets = _assets(client, pages[route])
        for asset in assets - sizes.keys():
            path = client / asset.lstrip("/")
            sizes[asset] = (path.stat().st_size, _gzip_size(path)) if path.exists() else (0, 0)
        js = [sizes[a] for a in assets if a.endswith(".js")]
        css = [sizes[a] for a in assets if a.endswith(".css")]
        weight = PageWeight(
            page=route,
            files=len(assets),
            js_raw=sum(raw for raw, _ in js),
            js_gzip=sum(packed for _, packed in js),
            css_raw=sum(raw for raw, _ in css),
            css_gzip=sum(packed for _, packed in css),
            extra_gzip=sum(sizes[a][1] for a in assets - first),
        )
        weights.append(asdict(weight))
    return weights
