"""The built pages fetch their script modules at low priority, so that the style sheet comes
first and the prerendered page paints before the scripts arrive (issue 11, item 4)."""

from pathlib import Path

from rxconfig import ScriptsAfterFirstPaint

PAGE = (
    '<html><head><link rel="stylesheet" href="/assets/styles.css"/>'
    '<link rel="modulepreload" href="/assets/entry.client.js"/>'
    '<link rel="modulepreload" href="/assets/root.js"/></head>'
    '<body><script type="module">import "/assets/entry.client.js";</script></body></html>'
)


def test_every_page_preloads_its_modules_at_low_priority(tmp_path: Path) -> None:
    pages = [tmp_path / "index.html", tmp_path / "login" / "index.html"]
    for page in pages:
        page.parent.mkdir(exist_ok=True)
        page.write_text(PAGE, encoding="utf-8")
    (tmp_path / "assets").mkdir()
    script = tmp_path / "assets" / "root.js"
    script.write_text("const preload = 'rel=\"modulepreload\"';", encoding="utf-8")

    ScriptsAfterFirstPaint().post_build(static_dir=tmp_path)

    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert html.count('rel="modulepreload" fetchpriority="low"') == 2
        assert html.count("fetchpriority") == 2
        assert '<link rel="stylesheet" href="/assets/styles.css"/>' in html
    assert "fetchpriority" not in script.read_text(encoding="utf-8")
