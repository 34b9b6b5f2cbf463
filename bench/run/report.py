"""Results: the whole measurement as JSON, and the markdown table the README shows."""

import json
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parents[1] / "results"


def _ms(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f}" if value < 100 else f"{value:.0f}"


def _ratio(value: float | None, limit: float | None) -> str:
    if not value or not limit:
        return "–"
    return f"{value / limit:.1f}×"


def _share(value: float | None, limit: float | None) -> str:
    """The provider's throughput as a share of the database's for the same SQL (issue 11)."""
    if not value or not limit:
        return "–"
    return f"{100 * value / limit:.0f} %"


def _server(result: dict[str, Any]) -> str:
    """How the run served the portal: its production server since issue 55, before it Reflex's
    own runner on Granian."""
    server = result.get("server")
    if server is None:
        return f"`reflex run --env prod`, {result['workers']} Granian workers"
    return f"`{server}`, {result['workers']} Uvicorn workers"


def endpoint_table(endpoints: list[dict[str, Any]]) -> list[str]:
    lines = [
        "| Endpoint | conns | req/s | p50 ms | p95 ms | p99 ms | bytes | DB p50 ms (×) | "
        "DB tx/s | of DB | HTTP p50 ms (×) | HTTP req/s (×) |",
        "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for endpoint in endpoints:
        if "error" in endpoint:
            lines.append(f"| {endpoint['name']} | – | {endpoint['error']} ||||||||||")
            continue
        for row in endpoint["measures"]:
            portal, db, http = row["portal"], row.get("database"), row.get("http")
            failed = f" ({portal['failed']} failed)" if portal["failed"] else ""
            cells = [f"{endpoint['name']}{failed}", str(row["connections"])]
            if portal["p50_ms"]:
                cells += [f"{portal['rps']:.1f}" if portal["rps"] < 10 else f"{portal['rps']:.0f}"]
                cells += [_ms(portal["p50_ms"]), _ms(portal["p95_ms"]), _ms(portal["p99_ms"])]
            else:
                # wrk counts the requests answered within a run: none means slower than a run.
                cells += ["0", "> run", "> run", "> run"]
            cells.append(f"{endpoint['bytes']:,}")
            cells += (
                [
                    f"{_ms(db['p50_ms'])} ({_ratio(portal['p50_ms'], db['p50_ms'])})",
                    f"{db['tps']:.0f}",
                    _share(portal["rps"], db["tps"]),
                ]
                if db
                else ["–", "–", "–"]
            )
            cells += (
                [
                    f"{_ms(http['p50_ms'])} ({_ratio(portal['p50_ms'], http['p50_ms'])})",
                    f"{http['rps']:.0f} ({_ratio(http['rps'], portal['rps'])})",
                ]
                if http
                else ["–", "–"]
            )
            lines.append("| " + " | ".join(cells) + " |")
    return lines


def _browser_lines(browsers: dict[str, Any]) -> list[str]:
    out = [f"## The portal: {browsers['count']} simulated browsers over the websocket", "",
           "Each logs in, opens the services list, changes the status filter and the page "
           "three times, then goes back to the home page, pausing "
           f"{browsers['think_s']:g} s on average between interactions "
           "(bench/run/browsers.py); latency from the event leaving the browser to the state "
           "update that answers it; then the same over the interactions that began after the "
           "last browser landed on the home page (the arrival, while argon2id hashes "
           "passwords, excluded).", "",
           "| Interaction | events | p50 ms | p95 ms | after arrival: events | p50 ms | p95 ms |",
           "|---|--:|--:|--:|--:|--:|--:|"]  # fmt: skip
    for row in browsers["interactions"]:
        after = row.get("after_arrival")
        steady = (f"{after['count']} | {_ms(after['p50_ms'])} | {_ms(after['p95_ms'])}"
                  if after else "– | – | –")  # fmt: skip
        out.append(f"| {row['name']} | {row['count']} | {_ms(row['p50_ms'])} "
                   f"| {_ms(row['p95_ms'])} | {steady} |")  # fmt: skip
    out += ["", f"Memory per connected client: backend {browsers['backend_kib_per_client']:.0f} "
            f"KiB (RSS of all workers), Redis {browsers['redis_kib_per_client']:.0f} KiB "
            "(state)."]  # fmt: skip
    if (first := browsers.get("backend_kib_per_client_first_wave")) is not None:
        out += [f"The first {browsers['count']} browsers on the fresh portal grew its workers by "
                f"{first:.0f} KiB each: the workers' high-water mark of events handled at once "
                "and their first use of each code path, which the next "
                f"{browsers['count']}, measured above, found in place."]  # fmt: skip
    out += [""]
    if browsers["failures"]:
        out += [f"Failures: {len(browsers['failures'])} — {browsers['failures'][0]}", ""]
    return out


def _monitoring_lines(monitoring: dict[str, Any]) -> list[str]:
    out = ["## The portal: one tab on the monitoring screen", "",
           f"A user opens /monitoring, then refreshes it {monitoring['rounds']} times with no "
           "other load (the customer nearest 1 000 sensors, then alice, whose list holds 2 000); "
           "latency from the event to the update that answers it.", "",
           "| User | Interaction | events | p50 ms | p95 ms |",
           "|---|---|--:|--:|--:|"]  # fmt: skip
    for row in monitoring["interactions"]:
        out.append(f"| {row['user']} | {row['name']} | {row['count']} | {_ms(row['p50_ms'])} "
                   f"| {_ms(row['p95_ms'])} |")  # fmt: skip
    return [*out, ""]


def _reference_line(machine: dict[str, Any]) -> list[str]:
    if (reference := machine.get("reference_ms")) is None:
        return []
    during = ""
    if spread := machine.get("reference_during_ms"):
        during = (f"; one loop before each of the {spread['samples']} endpoints: "
                  f"{spread['low']:.0f}–{spread['high']:.0f} ms, "
                  f"median {spread['median']:.0f}")  # fmt: skip
    return [f"CPU reference: {reference:.0f} ms for a fixed pure-Python loop on one core, the "
            f"least of five at the end of the run{during} (bench/run/machine.py; compare runs "
            "on machines of like figures, and on the DB and HTTP limits measured beside the "
            "portal)."]  # fmt: skip


def _listed(values: list[float] | None) -> str:
    return ", ".join(f"{value:.0f}" for value in values) if values else "–"


def _calibration(page: dict[str, Any]) -> str:
    return f"{page['calibration_index']:.0f} → {page['cpu_slowdown']:.2f}×"


def _lighthouse_lines(pages: list[dict[str, Any]]) -> list[str]:
    """The preset's table; then, for runs that took them, the calibrated scores (runs before
    2026-12-03 took the preset's only)."""
    out = ["## Lighthouse (mobile emulation, simulated throttling)", "",
           "Each page five times at Lighthouse's mobile preset (CPU slowed 4×); the run with "
           "the median performance score.", "",
           "| Page | performance | accessibility | FCP ms | LCP ms | TBT ms | CLS "
           "| performance, every run | host index, every run |",
           "|---|--:|--:|--:|--:|--:|--:|---|---|"]  # fmt: skip
    for page in pages:
        out.append(
            f"| {page['page']} | {page['performance']} | {page['accessibility']} "
            f"| {page['fcp_ms']:.0f} | {page['lcp_ms']:.0f} | {page['tbt_ms']:.0f} "
            f"| {page['cls']:.3f} | {_listed(page.get('performance_runs'))} "
            f"| {_listed(page.get('benchmark_index_runs'))} |"
        )
    calibrated = [(page["page"], page["calibrated"]) for page in pages if "calibrated" in page]
    if calibrated:
        out += ["", "The same pages at the CPU slowdown calibrated to the host's benchmarkIndex, "
                "measured before each page's runs, by Lighthouse's calculator: the same phone "
                "emulated on any host (docs/decisions/lighthouse-calibration.md).", "",
                "| Page | host index → CPU slowdown | performance | TBT ms "
                "| performance, every run | host index, every run |",
                "|---|---|--:|--:|---|---|"]  # fmt: skip
        for name, run in calibrated:
            out.append(
                f"| {name} | {_calibration(run)} | {run['performance']} | {run['tbt_ms']:.0f} "
                f"| {_listed(run.get('performance_runs'))} "
                f"| {_listed(run.get('benchmark_index_runs'))} |"
            )
    return [*out, ""]


def markdown(result: dict[str, Any]) -> str:
    machine = result["machine"]
    rows = ", ".join(f"{name} {count:,}" for name, count in machine["rows"].items())
    out = [
        f"# Benchmark {result['started']}",
        "",
        f"Machine: {machine['cpu']}, {machine['cores']} cores, {machine['ram_gib']} GiB RAM; "
        f"PostgreSQL {machine['postgresql']}; Python {machine['python']}; "
        f"portal: {_server(result)}, Redis.",
        *_reference_line(machine),
        f"Data set (scale {result.get('scale', '?')}): {rows}; database "
        f"{machine['database_gib']} GiB.",
        f"wrk: {result['settings']['warmup']} s warm-up, then {result['settings']['runs']} runs "
        f"of {result['settings']['seconds']} s; figures are the medians of the runs.",
        "(×) = the portal's figure divided by the limit's: DB = the same SQL replayed by "
        "pgbench at the same concurrency; HTTP = the same body served by a bare ASGI app on "
        "Granian with as many workers (for req/s: the limit's divided by the portal's). "
        "\"of DB\" = the portal's req/s as a share of the database's tx/s for the same SQL.",
        "",
        "## Provider endpoints",
        "",
        *endpoint_table(result["endpoints"]),
        "",
    ]
    if result.get("deep_pages"):
        out += ["Deep page / first page (p50): "
                + "; ".join(f"{d['name']} at {d['connections']} conns {d['ratio']:.2f}×"
                            for d in result["deep_pages"] if d["ratio"]), ""]  # fmt: skip
    if result.get("limited_pairs"):
        out += ["Limited user / unlimited user (p50, issue 53: at most 1.5×): "
                + "; ".join(f"{d['name']} at {d['connections']} conns {d['ratio']:.2f}×"
                            for d in result["limited_pairs"] if d["ratio"]), ""]  # fmt: skip
    if result.get("memory"):
        memory = result["memory"]
        out += [f"Portal memory (RSS, all workers): {memory['idle_mib']:.0f} MiB idle, "
                f"{memory['after_mib']:.0f} MiB after the provider runs.", ""]  # fmt: skip
    if result.get("browsers"):
        out += _browser_lines(result["browsers"])
    if result.get("monitoring"):
        out += _monitoring_lines(result["monitoring"])
    if result.get("frontend"):
        out += ["## Front end (first load per page, production build)", "",
                "| Page | files | JS raw | JS gzip | CSS raw | CSS gzip | beyond /login (gzip) |",
                "|---|--:|--:|--:|--:|--:|--:|"]  # fmt: skip
        for page in result["frontend"]:
            out.append(
                f"| {page['page']} | {page['files']} | {page['js_raw'] / 1024:.0f} KiB "
                f"| {page['js_gzip'] / 1024:.0f} KiB | {page['css_raw'] / 1024:.0f} KiB "
                f"| {page['css_gzip'] / 1024:.0f} KiB | {page['extra_gzip'] / 1024:.1f} KiB |"
            )
        out.append("")
    if result.get("lighthouse"):
        out += _lighthouse_lines(result["lighthouse"])
    if result.get("not_measured"):
        out += ["Not measured in this run: " + "; ".join(result["not_measured"]), ""]
    return "\n".join(out)


def write(result: dict[str, Any]) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    stamp = result["started"].replace(":", "").replace("-", "")
    path = RESULTS / f"{stamp}.json"
    path.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    (RESULTS / "latest.md").write_text(markdown(result) + "\n")
    return path
