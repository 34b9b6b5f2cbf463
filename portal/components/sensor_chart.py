"""Two small custom React components of the monitoring screen, wrapped for Reflex.

``sensor_chart_svg`` shows the provider's SVG chart inline, scaled to the width of its
container (the chart dialog): the client rewrote it from an allow-list as it arrived
(``portal.markup``) — no script, no event handler, no outside reference, its style sheet scoped
to it — whatever API drew it. The embedded provider draws in ``currentColor``, so the chart
takes the page's text colour on the light and the dark theme.

``visible_interval`` sends its event every ``interval`` milliseconds while the browser tab is
visible, and once at once when the tab comes back after a missed tick: the monitoring list
refreshes every 30 s (spec 9) without polling from a hidden tab.
"""

from typing import Any

import reflex as rx
from reflex_base.event import EventHandler, no_args_event_spec
from reflex_base.vars.base import Var

_CHART_CODE = """
function SensorChartSvg({ svg, label, ...rest }) {
  return (
    <div
      {...rest}
      role="img"
      aria-label={label}
      className="sensor-chart"
      dangerouslySetInnerHTML={{ __html: svg || "" }}
    />
  );
}
"""

_INTERVAL_CODE = """
function VisibleInterval({ interval, onTick }) {
  const tick = useRef(onTick);
  tick.current = onTick;
  useEffect(() => {
    let missed = false;
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") {
        tick.current && tick.current();
      } else {
        missed = true;
      }
    }, interval);
    const comeBack = () => {
      if (document.visibilityState === "visible" && missed) {
        missed = false;
        tick.current && tick.current();
      }
    };
    document.addEventListener("visibilitychange", comeBack);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", comeBack);
    };
  }, [interval]);
  return null;
}
"""


class SensorChartSvg(rx.Component):
    tag = "SensorChartSvg"

    svg: rx.Var[str]
    label: rx.Var[str]

    def add_custom_code(self) -> list[str]:
        return [_CHART_CODE]


class VisibleInterval(rx.Component):
    tag = "VisibleInterval"

    interval: rx.Var[int]
    # Reflex reads the trigger's arguments from this subscript; mypy cannot.
    on_tick: EventHandler[no_args_event_spec]  # type: ignore[type-arg, valid-type]

    def add_imports(self) -> dict[str, Any]:
        return {"react": ["useEffect", "useRef"]}

    def add_custom_code(self) -> list[str]:
        return [_INTERVAL_CODE]


def sensor_chart_svg(svg: Var[str] | str, label: Var[str] | str, **props: Any) -> rx.Component:
    return SensorChartSvg.create(svg=svg, label=label, **props)


def visible_interval(interval_ms: int, on_tick: Any) -> rx.Component:
    return VisibleInterval.create(interval=interval_ms, on_tick=on_tick)
