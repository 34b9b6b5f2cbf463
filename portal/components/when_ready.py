"""A page's content mounted once its guard lets it through, in pieces the browser can interleave.

The guard's answer arrives over the websocket, and Reflex's states reach React through an
external store, whose updates React renders synchronously: the whole page (the dashboard's
tiles, tables and dialogs) was built in one task of 150 to 300 ms on Lighthouse's phone, the
longest of the home page's load (issue 11, item 4; docs/decisions/pages-mount-in-a-transition.md).
``when_ready`` keeps the waiting content for that update and mounts the page in the transition
that ``useDeferredValue`` schedules right after it, which React builds in slices of a few
milliseconds and abandons if the guard changes its mind meanwhile.
"""

from typing import Any

import reflex as rx

_CODE = """
function WhenReady({ ready, children }) {
  const [content, waiting] = Children.toArray(children);
  const shown = useDeferredValue(ready, false);
  return shown ? content : waiting;
}
"""


class WhenReady(rx.Component):
    tag = "WhenReady"

    ready: rx.Var[bool]

    def add_imports(self) -> dict[str, Any]:
        return {"react": ["Children", "useDeferredValue"]}

    def add_custom_code(self) -> list[str]:
        return [_CODE]


def when_ready(ready: rx.Var[bool], content: rx.Component, waiting: rx.Component) -> rx.Component:
    """``content`` once ``ready``, mounted in a transition; ``waiting`` until then."""
    return WhenReady.create(content, waiting, ready=ready)
