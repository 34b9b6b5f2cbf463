"""A Plotly chart whose code arrives only with the page that shows it.

``rx.plotly`` imports react-plotly's factory statically, and Reflex puts it in the module every
page loads: 6.6 KiB gzip more on each page's first load (bench/run/frontend.py). Here the
factory and plotly.js's basic bundle (bars, lines, pies) are both imported when the chart
mounts. The figure carries its own colours and no Plotly template, so that one figure reads on
the light and the dark theme.
"""

import json
from typing import Any

import plotly.graph_objects as go
import reflex as rx
from reflex_base.vars.base import Var

PLOTLY_REACT = "react-plotly.js@4.1.0"
PLOTLY_BASIC = "plotly.js-basic-dist-min@3.7.0"


def figure_json(figure: go.Figure) -> dict[str, Any]:
    """The figure as plain JSON (``data`` and ``layout``), as a state holds it."""
    return json.loads(figure.to_json())


class LazyPlot(rx.NoSSRComponent):
    library = PLOTLY_REACT
    lib_dependencies: list[str] = [PLOTLY_BASIC]
    tag = "LazyPlot"

    figure: rx.Var[dict[str, Any]]
    config: rx.Var[dict[str, Any]]
    use_resize_handler: rx.Var[bool]

    def _exclude_props(self) -> list[str]:
        return ["figure"]

    def _get_dynamic_imports(self) -> str:
        return """
const LazyPlot = ClientSide(() =>
    Promise.all([import('react-plotly.js/factory'), import('plotly.js-basic-dist-min')])
        .then(([factory, plotly]) => (factory.default ?? factory)(plotly.default ?? plotly))
, "LazyPlot")
"""

    def _render(self, props: dict[str, Any] | None = None) -> Any:
        # react-plotly reads ``data`` and ``layout`` as props: the figure is spread over them.
        tag = super()._render(props)
        figure = self.figure if self.figure is not None else Var.create({})
        return tag.set(special_props=[*tag.special_props, Var(_js_expr=str(figure))])


def lazy_plot(figure: rx.Var[dict[str, Any]], **props: Any) -> rx.Component:
    """``figure``: a state's ``figure_json(...)``."""
    return LazyPlot.create(figure=figure, use_resize_handler=True, **props)
