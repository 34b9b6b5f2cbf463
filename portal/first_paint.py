"""The built pages start their scripts once they have painted (issue 11, item 4;
docs/decisions/first-load.md).

React Router's prerendered page names its modules twice: ``<link rel="modulepreload">`` tags in
the head, and one inline module whose static imports load the route modules before it starts
the app. Both start ~200 KiB of downloads with the page, beside the style sheet the first paint
waits for. The page is complete without its scripts until they hydrate it, so the rewritten
module first waits for the first paint, then adds the same preloads (the whole module graph
still downloads at once) and imports the same modules in the same order.
"""

import json
import re

_PRELOAD = re.compile(r'<link rel="modulepreload"[^>]*\bhref="([^"]+)"[^>]*>')
_MODULE = re.compile(r'(<script type="module"[^>]*>)(.*?)(</script>)', re.DOTALL)
_SIDE_EFFECT_IMPORT = re.compile(r'^import "([^"]+)";', re.MULTILINE)
_NAMESPACE_IMPORT = re.compile(r'^import \* as (\w+) from "([^"]+)";', re.MULTILINE)
_STATIC_IMPORT = re.compile(r"^\s*import\s+[^\s(]", re.MULTILINE)

# A hidden tab never paints, and its app may as well start at once.
_AFTER_FIRST_PAINT = (
    'if (document.visibilityState !== "hidden") '
    "await new Promise((painted) => requestAnimationFrame(() => setTimeout(painted)));"
)
# Each preload starts its fetch as it is added: the home page's 39 in one task took 10 ms of
# CPU here, 80 ms on Lighthouse's phone (docs/decisions/lighthouse-calibration.md, 2026-12-06).
# A few at a time, the browser's other work fits in between. ``scheduler.yield()`` resumes ahead
# of the tasks queued meanwhile (behind a timer, the last preloads started up to 440 ms after the
# first on a busy host); a browser without it waits for a timer. A hidden tab, whose timers wait
# up to a second, adds them all at once.
PRELOADS_PER_TASK = 4
_ADD_PRELOADS = (
    "const preloads = {hrefs};\n"
    "for (let next = 0; next < preloads.length; next += {per_task}) {{ "
    'if (next && document.visibilityState !== "hidden") '
    "await (globalThis.scheduler?.yield?.() ?? new Promise((resume) => setTimeout(resume))); "
    "for (const href of preloads.slice(next, next + {per_task})) {{ "
    'const link = document.createElement("link"); '
    'link.rel = "modulepreload"; link.href = href; document.head.append(link); }} }}'
)


class UnexpectedPage(ValueError):
    """The build wrote a page this rewrite does not know: failing beats shipping it half done."""


def scripts_after_first_paint(html: str) -> str:
    """``html`` with its module preloads and static imports deferred to after the first paint;
    a page without a module script comes back unchanged."""
    modules = _MODULE.findall(html)
    if not modules:
        return html
    if len(modules) > 1:
        raise UnexpectedPage("more than one module script in a built page")
    hrefs = _PRELOAD.findall(html)
    opening, body, closing = modules[0]
    deferred = _SIDE_EFFECT_IMPORT.sub(r'await import("\1");', body)
    deferred = _NAMESPACE_IMPORT.sub(r'const \1 = await import("\2");', deferred)
    if _STATIC_IMPORT.search(deferred):
        raise UnexpectedPage(f"a static import this rewrite does not know: {body[:200]!r}")
    preloads = _ADD_PRELOADS.format(hrefs=json.dumps(hrefs), per_task=PRELOADS_PER_TASK)
    start = "\n".join([_AFTER_FIRST_PAINT, preloads])
    page = _PRELOAD.sub("", html)
    return page.replace(opening + body + closing, f"{opening}{start}\n{deferred}{closing}", 1)
