"""Times ``POST /reset`` for a known and an unknown e-mail on a real HTTP server (issue 18).

Starts the provider with uvicorn on a throw-away SQLite database seeded with the demo, rate
limits lifted, and alternates requests for both e-mails over one keep-alive connection, pausing
50 ms after each so that work done after an answer (the mail) does not land on the next one;
prints the median, mean and 90th percentile in milliseconds, and the median difference.

    .venv/bin/python scripts/reset_timing.py [requests per e-mail, default 300]
"""

import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

KNOWN = "alice@acme-networks.test"
UNKNOWN = "nobody-here@acme-networks.test"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main(count: int) -> None:
    data = Path(tempfile.mkdtemp(prefix="reset-timing-"))
    os.environ.update(
        DATABASE_URL=f"sqlite:///{data / 'provider.db'}",
        DATA_DIR=str(data),
        MAIL_DIR=str(data / "mail"),
        SMTP_URL="",
        RESET_LIMIT_PER_ACCOUNT="1000000",
        RESET_LIMIT_PER_ADDRESS="1000000",
    )
    root = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(root))  # this checkout's provider, not an installed one
    subprocess.run([sys.executable, "-m", "portal.provider", "seed-demo"], cwd=root, check=True)
    import uvicorn

    from portal.provider.main import create_app

    assert Path(sys.modules["portal"].__file__ or "").is_relative_to(root)

    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(), port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    times: dict[str, list[float]] = {KNOWN: [], UNKNOWN: []}
    with httpx.Client(base_url=f"http://127.0.0.1:{port}") as client:
        for email in (KNOWN, UNKNOWN) * 20:  # warm-up
            client.post("/reset", json={"email": email}).raise_for_status()
        for _ in range(count):
            for email in (KNOWN, UNKNOWN):
                start = time.perf_counter()
                client.post("/reset", json={"email": email}).raise_for_status()
                times[email].append((time.perf_counter() - start) * 1000)
                time.sleep(0.05)
    server.should_exit = True
    for email, values in times.items():
        p90 = statistics.quantiles(values, n=10)[-1]
        print(
            f"{'known  ' if email == KNOWN else 'unknown'} n={len(values)} "
            f"median={statistics.median(values):.2f} ms mean={statistics.fmean(values):.2f} ms "
            f"p90={p90:.2f} ms"
        )
    difference = statistics.median(times[KNOWN]) - statistics.median(times[UNKNOWN])
    print(f"median difference (known - unknown): {difference:+.2f} ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
