"""How the benchmark's simulated browsers tell the arrival from the steady state, and wait for
a page whose parts arrive in several updates (bench/run/browsers.py); how its Lighthouse runs
emulate the same phone on any host (bench/run/lighthouse.py); what its report says of both."""

import pytest

from bench.run.browsers import LANDING, Timings, _all_of, _changed, _done
from bench.run.lighthouse import HostTooSlow, cpu_slowdown
from bench.run.machine import reference_ms, spread
from bench.run.report import markdown
from portal.pages.home.state import DashboardState, LastTicketsState


def _timings(samples: dict[str, list[tuple[float, float]]]) -> Timings:
    timings = Timings()
    timings.samples = samples
    return timings


def test_the_arrival_ends_when_the_last_browser_lands_on_the_home_page() -> None:
    timings = _timings({"log in": [(4.0, 0.5), (9.0, 0.5)], LANDING: [(5.0, 0.2), (10.0, 0.3)]})

    assert timings.arrived_at() == 10.0


def test_after_arrival_counts_what_began_after_it_not_what_ended_after_it() -> None:
    # Began at 9.0 (during the rush), 10.5 and 11.0 (after it); all three ended after 10.0.
    timings = _timings({LANDING: [(10.0, 0.3)],
                        "change a filter": [(10.5, 1.5), (10.7, 0.2), (11.2, 0.2)]})  # fmt: skip

    rows = {row["name"]: row for row in timings.summary()}

    after = rows["change a filter"]["after_arrival"]
    assert after["count"] == 2
    assert after["p95_ms"] < 300
    assert rows["change a filter"]["p95_ms"] == 1500
    assert "after_arrival" not in rows[LANDING]


def test_every_interaction_counts_as_after_arrival_when_all_began_after_it() -> None:
    timings = _timings({LANDING: [(1.0, 0.1)], "back to the home page": [(5.0, 0.1)]})

    rows = {row["name"]: row for row in timings.summary()}

    assert rows["back to the home page"]["after_arrival"]["count"] == 1


def _delta(state: type, var: str) -> dict:
    return {"delta": {state.get_full_name(): {f"{var}_rx_state_": []}}}


def test_a_page_is_shown_once_every_part_has_arrived_in_whatever_order() -> None:
    shown = _all_of(_changed(DashboardState, "tiles"), _changed(LastTicketsState, "rows"))

    assert not shown(_delta(LastTicketsState, "rows"))
    assert not shown({"delta": {}})
    assert shown(_delta(DashboardState, "tiles"))


def _report(lighthouse: dict[str, object] | None = None, **machine: object) -> str:
    """The report of a run that measured no endpoint, on a machine described by ``machine``,
    with Lighthouse's scores of the home page when given."""
    described = {"cpu": "x", "cores": 2, "ram_gib": 1, "postgresql": "15", "python": "3.11",
                 "database_gib": 1, "rows": {}, **machine}  # fmt: skip
    settings = {"warmup": 1, "runs": 3, "seconds": 5}
    result = {"started": "now", "machine": described, "workers": 5, "scale": 1,
              "endpoints": [], "settings": settings}  # fmt: skip
    if lighthouse is not None:
        scores = {"page": "home", "performance": 91, "accessibility": 96, "fcp_ms": 900.0,
                  "lcp_ms": 1800.0, "tbt_ms": 150.0, "cls": 0.0,
                  "performance_runs": [88, 91, 93]}  # fmt: skip
        result["lighthouse"] = [scores | lighthouse]
    return markdown(result)


def test_the_report_names_the_machine_speed_when_it_was_measured() -> None:
    measured = _report(reference_ms=reference_ms(repeats=1))

    assert "CPU reference:" in measured
    assert "before each of" not in measured
    assert "CPU reference:" not in _report(reference_ms=None)


def test_the_report_shows_how_far_the_machine_speed_moved_during_the_run() -> None:
    during = spread([36.3, 58.6, 46.7, 57.7])

    assert during == {"low": 36.3, "median": 52.2, "high": 58.6, "samples": 4}
    assert "one loop before each of the 4 endpoints: 36–59 ms, median 52" in _report(
        reference_ms=32.9, reference_during_ms=during
    )
    assert spread([]) is None


def test_a_table_has_arrived_when_its_load_ends_not_when_its_rows_are_emptied() -> None:
    arrived = _done(LastTicketsState)
    key = LastTicketsState.get_full_name()

    assert not arrived({"delta": {key: {"rows_rx_state_": [], "loading_rx_state_": True}}})
    assert arrived({"delta": {key: {"rows_rx_state_": [{}], "loading_rx_state_": False}}})


@pytest.mark.parametrize(
    ("benchmark_index", "slowdown"),
    [(150, 1.0), (475, 1.5), (800, 2.0), (1050, 2.5), (1300, 3.0), (1533, 4.0), (2000, 6.0)],
)
def test_the_slowdown_follows_lighthouses_calculator(
    benchmark_index: float, slowdown: float
) -> None:
    assert cpu_slowdown(benchmark_index) == pytest.approx(slowdown, abs=0.01)


def test_a_host_too_slow_to_emulate_the_phone_is_refused() -> None:
    with pytest.raises(HostTooSlow, match="benchmarkIndex 120"):
        cpu_slowdown(120)


def test_the_report_gives_the_presets_scores_then_the_calibrated_ones() -> None:
    calibrated = {"performance": 74, "tbt_ms": 1534.4, "performance_runs": [71, 74, 76],
                  "benchmark_index_runs": [2400, 2500, 2730], "calibration_index": 2480.2,
                  "cpu_slowdown": 8.07}  # fmt: skip
    rows = _home_rows({"benchmark_index_runs": [2600, 2700, 2800], "calibrated": calibrated})

    assert rows[0].endswith("| 150 | 0.000 | 88, 91, 93 | 2600, 2700, 2800 |")
    assert rows[1] == "| home | 2480 → 8.07× | 74 | 1534 | 71, 74, 76 | 2400, 2500, 2730 |"


def test_an_earlier_run_has_the_presets_scores_only() -> None:
    rows = _home_rows({})

    assert rows == ["| home | 91 | 96 | 900 | 1800 | 150 | 0.000 | 88, 91, 93 | – |"]
    assert "calibrated to the host" not in _report({})


def _home_rows(lighthouse: dict[str, object]) -> list[str]:
    return [line for line in _report(lighthouse).splitlines() if line.startswith("| home |")]
