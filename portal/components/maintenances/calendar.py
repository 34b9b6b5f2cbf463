"""The maintenance calendar (spec 2, Maintenance calendar): FullCalendar wrapped for Reflex.

Like the invoicing chart (``portal/components/charts.py``), FullCalendar and its plugins are
imported when the calendar mounts, so that only the pages showing it load them; FullCalendar 6
brings its own CSS with its JavaScript. The small wrapper below sets what the spec fixes: month
view first (the list of the month on a phone), week, day and list views, Monday first, a
back-to-month button outside the month view, a day's "more" link opening the day view, 600 px
high, 26 one-hour intervals in the day view, start–end times, the legend's colours and cancelled
events struck through; night works are drawn on the day they start (an end before 9:00 does not
reach the next day). It tells the state the visible period (``on_period``, ISO moments in the
browser's time zone) and the maintenance clicked (``on_open``); the events come from the state.
"""

import json
from typing import Any

import reflex as rx
from reflex.event import passthrough_event_spec
from reflex.vars import ObjectVar

from portal.components.i18n import _
from portal.i18n import N_
from portal.state.preferences import LanguageState

VERSION = "6.1.20"
PLUGINS = ("core", "daygrid", "timegrid", "list")

# The legend (spec 2): noImpact green, degraded warning, outage error, cancelled grey; the
# events take the same Radix colours, so they follow the light and dark themes.
LEGEND = (
    ("green", N_("No impact")),
    ("amber", N_("Degraded")),
    ("red", N_("Outage")),
    ("gray", N_("Cancelled")),
)

_STYLE = """
.pb-calendar { color: var(--gray-12);
  --fc-border-color: var(--gray-6); --fc-page-bg-color: var(--color-panel-solid);
  --fc-neutral-bg-color: var(--gray-3); --fc-neutral-text-color: var(--gray-11);
  --fc-list-event-hover-bg-color: var(--gray-4); --fc-today-bg-color: var(--purple-a3);
  --fc-now-indicator-color: var(--red-9);
  --fc-button-text-color: var(--purple-contrast);
  --fc-button-bg-color: var(--purple-9); --fc-button-border-color: var(--purple-9);
  --fc-button-hover-bg-color: var(--purple-10); --fc-button-hover-border-color: var(--purple-10);
  --fc-button-active-bg-color: var(--purple-11);
  --fc-button-active-border-color: var(--purple-11); }
/* Dark theme: purple steps 10 and 11 are light there, white text on them 4.4:1 and 2.1:1. */
.dark .pb-calendar {
  --fc-button-hover-bg-color: var(--purple-8); --fc-button-hover-border-color: var(--purple-8);
  --fc-button-active-bg-color: var(--purple-7);
  --fc-button-active-border-color: var(--purple-7); }
.pb-calendar a { color: inherit; text-decoration: none; }
.pb-calendar .fc-toolbar-title { font-size: 1.25rem; text-transform: capitalize; }
.pb-calendar .fc-event { cursor: pointer; border-left-width: 4px; }
/* A day of the month is narrow: the start time whole, the title cut with an ellipsis. */
.pb-calendar .fc-daygrid-event .fc-event-time { flex-shrink: 0; }
.pb-calendar .fc-daygrid-event .fc-event-title { text-overflow: ellipsis; }

.pb-calendar .pb-cancelled .fc-event-title, .pb-calendar .pb-cancelled .fc-event-time,
.pb-calendar .pb-cancelled .fc-list-event-title,
.pb-calendar .pb-cancelled .fc-list-event-time { text-decoration: line-through; }
@media (max-width: 640px) {
  .pb-calendar .fc-header-toolbar { flex-direction: column; gap: 8px; }
  .pb-calendar .fc-toolbar-title { font-size: 1.1rem; }
}
"""

_WRAPPER = (
    """
const MaintenanceCalendar = ClientSide(() =>
  Promise.all([
    import('react'),
    import('@fullcalendar/react'),
    import('@fullcalendar/daygrid'),
    import('@fullcalendar/timegrid'),
    import('@fullcalendar/list'),
    import('@fullcalendar/core/locales/fr'),
  ]).then(([react, calendar, dayGrid, timeGrid, list, french]) => {
    const h = react.createElement;
    const FullCalendar = calendar.default;
    const plugins = [dayGrid.default, timeGrid.default, list.default];
    const colours = { noImpact: 'green', degraded: 'amber', outage: 'red' };
    const style = """
    + json.dumps(" ".join(_STYLE.split()))
    + """;
    return function MaintenanceCalendar(props) {
      const ref = react.useRef(null);
      const box = react.useRef(null);
      // FullCalendar draws its arrows as images without a name, inside buttons named by their
      // hint ("Next month"): the images are decoration, hidden from assistive technology. A
      // layout effect, so that no task (an accessibility check among them) runs between the
      // calendar's first drawing and this; the observer's callbacks run before any task too.
      react.useLayoutEffect(() => {
        const hide = () => box.current.querySelectorAll('.fc-icon[role=img]').forEach((icon) => {
          icon.removeAttribute('role');
          icon.setAttribute('aria-hidden', 'true');
        });
        hide();
        // FullCalendar may also set the role again on an arrow it keeps (a new render of the
        // toolbar), which is an attribute change, not a new element.
        const watch = new MutationObserver(hide);
        watch.observe(box.current, {
          childList: true, subtree: true, attributes: true, attributeFilter: ['role'],
        });
        return () => watch.disconnect();
      }, []);
      const last = react.useRef('');
      const handlers = react.useRef(props);
      handlers.current = props;
      const phone = react.useMemo(
        () => window.matchMedia('(max-width: 640px)').matches, []);
      const [view, setView] = react.useState(phone ? 'listMonth' : 'dayGridMonth');
      const labels = props.labels || {};
      const english = props.locale !== 'fr';
      const events = react.useMemo(() => (props.events || []).map((e) => {
        const colour = e.cancelled ? 'gray' : (colours[e.classification] || 'gray');
        return {
          id: e.id, title: e.title, start: e.start, end: e.end,
          // A tint with the scale's darkest text (over 7:1 in both themes; white on red-9 or
          // green-9 is 3.2-3.9:1), edged in the legend's colour.
          backgroundColor: `var(--${colour}-3)`, borderColor: `var(--${colour}-9)`,
          textColor: `var(--${colour}-12)`,
          classNames: e.cancelled ? ['pb-cancelled'] : [],
        };
      }), [props.events]);
      // Every option object is made once per language or view: FullCalendar resets its view
      // when an option changes, which would ask the state for the period again and again.
      const fixed = react.useMemo(() => ({
        plugins, locales: [french.default],
        initialView: phone ? 'listMonth' : 'dayGridMonth',
        firstDay: 1, height: 600, dayMaxEvents: true, moreLinkClick: 'timeGridDay',
        // The "+3 more" link says it expands: a link cannot, a button can (WCAG 4.1.2).
        moreLinkDidMount: (info) => info.el.setAttribute('role', 'button'),
        eventDisplay: 'block', displayEventEnd: true, nowIndicator: true,
        nextDayThreshold: '09:00:00', slotEventOverlap: false,
        // The month's days show the start alone: the end cut the time in two (the
        // maintenance's dialog, the week and the list give both).
        views: { timeGridDay: { slotDuration: '01:00:00', slotMaxTime: '26:00:00' },
                 dayGridMonth: { displayEventEnd: false } },
        datesSet: (info) => {
          setView(info.view.type);
          const period = info.startStr + '/' + info.endStr;
          if (period === last.current) return;
          last.current = period;
          if (handlers.current.onPeriod) handlers.current.onPeriod(info.startStr, info.endStr);
        },
        eventClick: (info) => {
          info.jsEvent.preventDefault();
          if (handlers.current.onOpen) handlers.current.onOpen(info.event.id);
        },
      }), []);
      const language = react.useMemo(() => ({
        locale: english ? 'en' : 'fr',
        eventTimeFormat: english
          ? { hour: 'numeric', minute: '2-digit', meridiem: 'short' }
          : { hour: '2-digit', minute: '2-digit', hour12: false },
        slotLabelFormat: english
          ? { hour: 'numeric', meridiem: 'short' }
          : { hour: '2-digit', minute: '2-digit', hour12: false },
        buttonText: { today: labels.today, week: labels.week, day: labels.day,
                      list: labels.list },
        noEventsText: labels.none,
        customButtons: { backToMonth: { text: labels.month,
          click: () => ref.current && ref.current.getApi().changeView('dayGridMonth') } },
      }), [english, labels.today, labels.week, labels.day, labels.list, labels.none,
           labels.month]);
      const toolbar = react.useMemo(() => ({
        left: view === 'dayGridMonth' ? 'prev,next today' : 'prev,next today backToMonth',
        center: 'title',
        right: 'timeGridWeek,timeGridDay,listMonth',
      }), [view]);
      return h('div', { ref: box, className: 'pb-calendar',
                        'data-testid': 'maintenance-calendar', 'data-view': view },
        h('style', null, style),
        h(FullCalendar, { ref, events, ...fixed, ...language, headerToolbar: toolbar }));
    };
  })
, "MaintenanceCalendar")
"""
)


class MaintenanceCalendar(rx.NoSSRComponent):
    library = f"@fullcalendar/react@{VERSION}"
    lib_dependencies: list[str] = [f"@fullcalendar/{name}@{VERSION}" for name in PLUGINS]
    tag = "MaintenanceCalendar"

    events: rx.Var[list[Any]]
    locale: rx.Var[str]
    labels: rx.Var[dict[str, str]]
    # Not ``on_event_click``: FullCalendar reads ``eventClick``, which the wrapper maps. Reflex
    # reads the argument spec from a call in the annotation, which mypy cannot type.
    on_open: rx.EventHandler[passthrough_event_spec(str)]  # type: ignore[type-arg, valid-type]
    on_period: rx.EventHandler[passthrough_event_spec(str, str)]  # type: ignore[type-arg, valid-type]

    def _get_dynamic_imports(self) -> str:
        return _WRAPPER


def legend() -> rx.Component:
    return rx.flex(
        *(
            rx.flex(
                rx.box(
                    width="12px",
                    height="12px",
                    border_radius="3px",
                    background_color=rx.color(colour, 9),
                ),
                rx.text(_(label), size="2"),
                align="center",
                spacing="1",
            )
            for colour, label in LEGEND
        ),
        wrap="wrap",
        spacing="4",
        data_testid="calendar-legend",
    )


def maintenance_calendar(events: Any, on_open: Any, on_period: Any, **props: Any) -> rx.Component:
    """``events``: the state's ``CalendarEvent`` list; ``on_open(id)``, ``on_period(start,
    end)``: its handlers."""
    labels: ObjectVar[dict[str, str]] = rx.Var.create(
        {
            "today": _("Today"),
            "week": _("Week"),
            "day": _("Day"),
            "list": _("List"),
            "month": _("Back to month"),
            "none": _("No maintenance in this period."),
        }
    ).to(ObjectVar, dict[str, str])
    return MaintenanceCalendar.create(
        events=events,
        locale=LanguageState.shown,
        labels=labels,
        on_open=on_open,
        on_period=on_period,
        **props,
    )
