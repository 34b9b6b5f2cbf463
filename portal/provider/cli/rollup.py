"""``roll-up``: one run of the sensor roll-up job (portal/provider/monitoring/rollup.py)."""

import time

from portal.provider.cli.database import database_label, migrated_engine
from portal.provider.monitoring.rollup import run_once


def roll_up_sensors() -> bool:
    engine = migrated_engine()
    started = time.perf_counter()
    report = run_once(engine)
    elapsed = time.perf_counter() - started
    if report is None:
        print(f"Another run is rolling up {database_label(engine)}: nothing done.")
        return True
    print(
        f"Rolled up {database_label(engine)} in {elapsed:.1f} s: {report.hours} hourly and "
        f"{report.days} daily roll-ups written; dropped {report.dropped_samples} samples, "
        f"{report.dropped_hours} hours, {report.dropped_days} days."
    )
    return True
