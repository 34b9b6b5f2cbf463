"""The built pages start fetching their script modules once they have painted, so that the
style sheet is the only download the first paint waits for (issue 11, item 4)."""

from pathlib import Path

import pytest

from portal.first_paint import PRELOADS_PER_TASK, UnexpectedPage, scripts_after_first_paint
from rxconfig import ScriptsAfterFirstPaint

# The shape React Router 7 writes for a prerendered page (Reflex 0.10's build).
MODULE = (
    'import "/assets/manifest-1.js";\n'
    'import * as route0 from "/assets/root-2.js";\n'
    'import * as route1 from "/assets/_login_._index-3.js";\n'
    "  \n"
    '  window.__reactRouterRouteModules = {"root":route0,"routes/[login]._index":route1};\n'
    "\n"
    'import("/assets/entry.client-4.js");'
)
PAGE = (
    '<html><head><link rel="stylesheet" href="/assets/styles.css"/>'
    '<link rel="modulepreload" href="/assets/manifest-1.js"/>'
    '<link rel="modulepreload" href="/assets/entry.client-4.js"/>'
    '<link rel="modulepreload" href="/assets/root-2.js"/></head>'
    f'<body><h1>Login</h1><script type="module" async="">{MODULE}</script></body></html>'
)


def _module(html: str) -> str:
    return html.split('<script type="module" async="">', 1)[1].split("</script>", 1)[0]


def test_the_modules_load_after_the_first_paint_in_their_order() -> None:
    html = scripts_after_first_paint(PAGE)

    assert '<link rel="modulepreload"' not in html
    assert '<link rel="stylesheet" href="/assets/styles.css"/>' in html
    module = _module(html)
    waits, preloads, adds, *imports = [line for line in module.splitlines() if line.strip()]
    assert "requestAnimationFrame" in waits
    assert "visibilityState" in waits
    assert '["/assets/manifest-1.js", "/assets/entry.client-4.js", "/assets/root-2.js"]' in preloads
    assert "modulepreload" in adds
    assert imports == [
        'await import("/assets/manifest-1.js");',
        'const route0 = await import("/assets/root-2.js");',
        'const route1 = await import("/assets/_login_._index-3.js");',
        '  window.__reactRouterRouteModules = {"root":route0,"routes/[login]._index":route1};',
        'import("/assets/entry.client-4.js");',
    ]
    assert module.index("requestAnimationFrame") < module.index("manifest-1.js")


def test_the_preloads_are_added_a_few_at_a_time() -> None:
    """Each addition starts a fetch: the page's forty in one task made a long task of their own."""
    module = _module(scripts_after_first_paint(PAGE))

    assert f"next += {PRELOADS_PER_TASK}" in module
    assert f"preloads.slice(next, next + {PRELOADS_PER_TASK})" in module
    assert (
        'if (next && document.visibilityState !== "hidden") '
        "await (globalThis.scheduler?.yield?.() ?? new Promise((resume) => setTimeout(resume)));"
    ) in module


def test_a_page_without_a_module_script_is_left_as_it_is() -> None:
    page = "<html><body><p>Not found</p></body></html>"
    assert scripts_after_first_paint(page) == page


def test_an_import_of_another_shape_fails_the_build() -> None:
    page = PAGE.replace('import * as route0 from "/assets/root-2.js";', 'import { a } from "/x";')
    with pytest.raises(UnexpectedPage, match="static import"):
        scripts_after_first_paint(page)


def test_the_build_plugin_rewrites_every_page_and_no_script(tmp_path: Path) -> None:
    pages = [tmp_path / "index.html", tmp_path / "login" / "index.html"]
    for page in pages:
        page.parent.mkdir(exist_ok=True)
        page.write_text(PAGE, encoding="utf-8")
    (tmp_path / "assets").mkdir()
    script = tmp_path / "assets" / "root-2.js"
    script.write_text('import "/assets/manifest-1.js";', encoding="utf-8")

    ScriptsAfterFirstPaint().post_build(static_dir=tmp_path)

    for page in pages:
        assert "requestAnimationFrame" in _module(page.read_text(encoding="utf-8"))
    assert script.read_text(encoding="utf-8") == 'import "/assets/manifest-1.js";'
