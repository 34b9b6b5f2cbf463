"""The benchmark's simulated browsers (bench/run/browsers.py) against the real portal: they must
keep speaking the protocol the compiled front end speaks, and reach every interaction they time,
or the benchmark's websocket figures would silently measure nothing."""

from concurrent.futures import ThreadPoolExecutor

from bench.run.browsers import ROUNDS, simulate
from portal.provider.demo_data.people import DEMO_PASSWORD

ALICE = "alice@acme-networks.test"


def test_simulated_browsers_log_in_open_filter_page_and_go_home(portal_url: str) -> None:
    count = 2

    def connected() -> str:
        return "connected"

    # In a thread of its own: Playwright's sync API keeps an event loop running in this one.
    with ThreadPoolExecutor(1) as thread:
        run = thread.submit(simulate, portal_url, ALICE, DEMO_PASSWORD, count, 0.1, connected)
        timings, reading = run.result()

    assert timings.failures == []
    assert reading == "connected"
    events = {row["name"]: row["count"] for row in timings.summary()}
    assert events == {
        "page load /login (connect → hydrated)": count,
        "log in": count,
        "page load / (connect → hydrated)": count,
        "open the services list": count,
        "change a filter": 2 * ROUNDS * count,
        "next page": ROUNDS * count,
        "back to the home page": count,
    }
    assert all(row["p95_ms"] >= row["p50_ms"] > 0 for row in timings.summary())
