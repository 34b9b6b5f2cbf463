"""``python -m bench.run.accessibility``: Lighthouse's accessibility category on the pages the
benchmark measures (login, home, services) and on invoices, tickets, maintenances and
monitoring, in English, at Lighthouse's mobile and desktop presets; prints each page's score
and the audits that failed, with the elements they name. It exits 1 when an audit fails on a
page (issue 54).

Without ``--url`` it starts the portal in production mode (as ``bench.run`` does: the front end
built at start, then ``portal.serve``'s workers sharing state through ``--redis-url``) on a
fresh SQLite database seeded with the demo data, or on ``--database-url`` (the benchmark's data
set, made by ``bench.generate``); with ``--url`` it measures a portal already running.
Signed-in pages are measured as alice (``bench.run.lighthouse.portal_cookie``). Lighthouse
takes about 15 s a page and preset here."""

import argparse
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bench.run.endpoints import ALICE
from bench.run.lighthouse import _report, lighthouse_bin, portal_cookie
from bench.run.servers import ROOT, portal

PAGES = (
    ("login", "/login", False),
    ("home", "/", True),
    ("services", "/services", True),
    ("invoices", "/invoices", True),
    ("tickets", "/tickets", True),
    ("maintenances", "/maintenances", True),
    ("monitoring", "/monitoring", True),
)
# Lighthouse's own presets: a phone by default, a desktop with ``--preset=desktop``.
PRESETS = {"mobile": (), "desktop": ("--preset=desktop",)}
# The elements printed of a failed audit: a list of cards fails on each card alike.
NODES_SHOWN = 3


def failed_audits(report: dict[str, Any]) -> list[dict[str, Any]]:
    """The accessibility audits that did not pass, each with the elements it names (selector,
    snippet, what is wrong). Those of weight 0 (Lighthouse's experimental ones) fail too: they
    do not lower the score, but what they find is as real."""
    failed = []
    for ref in report["categories"]["accessibility"]["auditRefs"]:
        audit = report["audits"][ref["id"]]
        if audit["score"] is None or audit["score"] >= 1:
            continue
        items = (audit.get("details") or {}).get("items") or []
        nodes = [item["node"] for item in items if "node" in item]
        failed.append({
            "id": ref["id"], "title": audit["title"], "weight": ref["weight"],
            "nodes": [{"selector": node.get("selector", ""), "snippet": node.get("snippet", ""),
                       "explanation": node.get("explanation", "")} for node in nodes],
        })  # fmt: skip
    return failed


def measure(url: str, presets: list[str]) -> list[dict[str, Any]]:
    binary = lighthouse_bin(ROOT)
    node = ROOT / ".venv" / "bin"
    cookie = portal_cookie(url, ALICE)
    rows = []
    for preset in presets:
        for name, path, signed_in in PAGES:
            report = _report(binary, node, url + path, cookie if signed_in else None,
                             "--only-categories=accessibility", *PRESETS[preset])  # fmt: skip
            final = report.get("finalDisplayedUrl") or report.get("finalUrl") or ""
            if signed_in and final.rstrip("/").endswith("/login"):
                raise RuntimeError(f"{name}: Lighthouse was sent to the login page")
            rows.append({
                "page": name, "preset": preset,
                "score": round(report["categories"]["accessibility"]["score"] * 100),
                "failed": failed_audits(report),
            })  # fmt: skip
    return rows


def print_rows(rows: list[dict[str, Any]]) -> None:
    for row in rows:
        print(f"{row['page']:<13} {row['preset']:<8} {row['score']:>3}", flush=True)
        for audit in row["failed"]:
            counted = "" if audit["weight"] else " (weight 0: not in the score)"
            print(f"    {audit['id']}{counted}: {audit['title']}")
            for node in audit["nodes"][:NODES_SHOWN]:
                print(f"        {node['selector']}  {node['snippet'][:160]}")
                if node["explanation"]:
                    explanation = " ".join(node["explanation"].split())
                    print(f"            {explanation[:300]}")
            if len(audit["nodes"]) > NODES_SHOWN:
                print(f"        … and {len(audit['nodes']) - NODES_SHOWN} more elements")


@contextmanager
def started_portal(redis_url: str, database_url: str | None) -> Iterator[str]:
    """The portal in production mode on ``database_url``, or on a fresh SQLite database with
    the demo data."""
    with tempfile.TemporaryDirectory(prefix="bench-accessibility-") as folder:
        if not database_url:
            database_url = f"sqlite:///{folder}/provider.db"
            env = {**os.environ, "DATABASE_URL": database_url}
            subprocess.run([sys.executable, "-m", "portal.provider", "seed-demo"],
                           cwd=ROOT, env=env, check=True, capture_output=True)  # fmt: skip
        with portal(ROOT, database_url, redis_url, Path(folder) / "portal.log") as server:
            yield server.url


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.run.accessibility",
                                     description=__doc__)  # fmt: skip
    parser.add_argument("--url", help="a portal already running with the demo data")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/1",
                        help="Redis of the portal this command starts")  # fmt: skip
    parser.add_argument("--database-url",
                        help="the data of the portal this command starts, such as the "
                             "benchmark's (bench.generate); the demo's by default")  # fmt: skip
    parser.add_argument("--preset", action="append", choices=sorted(PRESETS),
                        help="Lighthouse's preset (repeatable; both by default)")  # fmt: skip
    arguments = parser.parse_args(argv)
    presets = arguments.preset or list(PRESETS)
    if arguments.url:
        rows = measure(arguments.url.rstrip("/"), presets)
    else:
        print("Starting the portal (builds the front end)…", file=sys.stderr, flush=True)
        with started_portal(arguments.redis_url, arguments.database_url) as url:
            rows = measure(url, presets)
    print_rows(rows)
    return 0 if all(row["score"] == 100 and not row["failed"] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
