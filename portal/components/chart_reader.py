"""A chart everyone can read (issue 54, docs/decisions/readable-charts.md).

``chart_reader`` wraps a chart — the sensor's SVG or the invoicing Plotly chart — in a
``figure`` whose ``figcaption`` is the chart's one-sentence summary, and makes it readable by
keyboard and pointer: the chart takes the focus (a visible ring), Left and Right move to the
previous and next moment, Home and End to the ends, the pointer picks the nearest one; a line
marks the moment and the readout under the chart says its values, announced politely. With
``table`` the same rows show as a table (caption, column and row headers) instead of the chart.

Every text arrives formatted by the state (the user's language, number format and time zone):
the component only picks which row to show. ``xs`` places each row along the time axis, as a
fraction of the plot area, which lies ``inset_left`` and ``inset_right`` from the chart's edges,
or where the element ``plot_selector`` names lies (Plotly's plot area, laid out in the browser).
"""

from typing import Any

import reflex as rx
from pydantic import BaseModel
from reflex.vars import ObjectVar
from reflex_base.vars.base import Var

from portal.components.i18n import _
from portal.i18n import N_

# A readout: the moment, then each series' value ("Mar 2026: Amount invoiced: €10.00; …").
READOUT = N_("{time}: {values}")
READOUT_VALUE = N_("{name}: {value}")


class ChartReading(BaseModel):
    """A chart's texts, formatted: the summary sentence, the table (its first column the
    moment) and one readout per row, placed along the time axis by ``xs`` (0 to 1)."""

    summary: str = ""
    caption: str = ""
    columns: list[str] = []
    rows: list[list[str]] = []
    readouts: list[str] = []
    xs: list[float] = []


_READER_CODE = """
function ChartReader({
  columns, rows, readouts, xs, table, label, caption, summary, summaryId, hint,
  insetLeft, insetRight, plotSelector, children, ...rest
}) {
  const [index, setIndex] = useState(-1);
  const [area, setArea] = useState(null);
  const plot = useRef(null);
  // A chart that lays its plot out itself (Plotly): the axis is where its plot area is.
  const measure = () => {
    const inner = plotSelector && plot.current && plot.current.querySelector(plotSelector);
    if (!inner) return;
    const outer = plot.current.getBoundingClientRect();
    const box = inner.getBoundingClientRect();
    setArea({ left: `${box.left - outer.left}px`, right: `${outer.right - box.right}px` });
  };
  const count = (readouts || []).length;
  useEffect(() => setIndex(-1), [readouts]);
  const move = (next) => setIndex(Math.max(0, Math.min(count - 1, next)));
  const onKeyDown = (event) => {
    if (!count) return;
    const page = Math.max(1, Math.round(count / 10));
    const from = index < 0 ? (event.key === "ArrowLeft" ? count : -1) : index;
    const next = {
      ArrowRight: from + 1, ArrowLeft: from - 1, Home: 0, End: count - 1,
      PageDown: from + page, PageUp: from - page,
    }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    measure();
    move(next);
  };
  const axis = useRef(null);
  const onPointerMove = (event) => {
    if (!count || !axis.current) return;
    measure();
    const box = axis.current.getBoundingClientRect();
    const at = (event.clientX - box.left) / Math.max(box.width, 1);
    let best = 0;
    xs.forEach((x, i) => { if (Math.abs(x - at) < Math.abs(xs[best] - at)) best = i; });
    setIndex(best);
  };
  const shown = index >= 0 && index < count;
  return (
    <figure {...rest} className="chart-reader">
      {table ? (
        <div className="chart-reader-table" role="region" tabIndex={0} aria-label={caption}>
          <table>
            <caption><span className="chart-reader-caption">{caption}</span></caption>
            <thead>
              <tr>{(columns || []).map((column, i) => <th key={i} scope="col">{column}</th>)}</tr>
            </thead>
            <tbody>
              {(rows || []).map((row, i) => (
                <tr key={i}>
                  <th scope="row">{row[0]}</th>
                  {row.slice(1).map((cell, j) => <td key={j}>{cell}</td>)}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <div
          ref={plot}
          className="chart-reader-plot"
          role="group"
          tabIndex={0}
          aria-label={label}
          aria-describedby={summaryId}
          onKeyDown={onKeyDown}
          onPointerMove={onPointerMove}
          data-testid="chart-reader"
        >
          {children}
          <div
            ref={axis}
            className="chart-reader-axis"
            style={area || { left: insetLeft, right: insetRight }}
            aria-hidden="true"
          >
            {shown && <div className="chart-reader-line" style={{ left: `${xs[index] * 100}%` }} />}
          </div>
        </div>
      )}
      <p className="chart-readout" aria-live="polite" data-testid="chart-readout">
        {table ? "" : shown ? readouts[index] : hint}
      </p>
      <figcaption id={summaryId} className="chart-summary" data-testid="chart-summary">
        {summary}
      </figcaption>
    </figure>
  );
}
"""


class ChartReader(rx.Component):
    tag = "ChartReader"

    columns: rx.Var[list[str]]
    rows: rx.Var[list[list[str]]]
    readouts: rx.Var[list[str]]
    xs: rx.Var[list[float]]
    table: rx.Var[bool]
    label: rx.Var[str]
    caption: rx.Var[str]
    summary: rx.Var[str]
    summary_id: rx.Var[str]
    hint: rx.Var[str]
    inset_left: rx.Var[str]
    inset_right: rx.Var[str]
    plot_selector: rx.Var[str]

    def add_imports(self) -> dict[str, Any]:
        return {"react": ["useEffect", "useRef", "useState"]}

    def add_custom_code(self) -> list[str]:
        return [_READER_CODE]


def chart_reader(
    chart: rx.Component,
    *,
    reading: ObjectVar[ChartReading],
    table: Var[bool] | bool,
    label: Var[str] | str,
    summary_id: str,
    hint: Var[str] | str | None = None,
    inset: tuple[Var | str, Var | str] = ("0px", "0px"),
    plot_selector: str = "",
    **props: Any,
) -> rx.Component:
    """``chart`` made readable with the state's ``reading``."""
    return ChartReader.create(
        chart,
        columns=reading.columns,
        rows=reading.rows,
        readouts=reading.readouts,
        xs=reading.xs,
        table=table,
        label=label,
        caption=reading.caption,
        summary=reading.summary,
        summary_id=summary_id,
        hint=(
            hint
            if hint is not None
            else _("Point at the chart, or focus it and press the arrow keys, to read its values.")
        ),
        inset_left=inset[0],
        inset_right=inset[1],
        plot_selector=plot_selector,
        **props,
    )


def table_toggle(shown: Var[bool], on_click: Any, chart_icon: str) -> rx.Component:
    """Show as table / Show as chart: ``shown`` says which the chart shows now."""
    return rx.button(
        rx.icon(rx.cond(shown, chart_icon, "table"), size=14),
        rx.cond(shown, _("Show as chart"), _("Show as table")),
        variant="soft",
        color_scheme="gray",
        size="2",
        on_click=on_click,
        data_testid="chart-table-toggle",
    )
