"""Two workers run the sensor roll-up at the same moment (docs/decisions/sensor-rollups.md),
as they do when they start together on marks not written yet: one runs, the other waits for it
(SQLite) or steps aside (PostgreSQL), and neither fails."""

import threading
from datetime import datetime

from sqlmodel import Session, delete, select

from portal.provider.monitoring import rollup
from portal.provider.platform.models import SensorRollupMark
from tests.provider.conftest import World


def test_two_runs_at_once_both_end_without_an_error(world: World, monkeypatch) -> None:
    with Session(world.engine) as db:
        db.exec(delete(SensorRollupMark))
        db.commit()
    inside, release = threading.Event(), threading.Event()
    real_roll_up = rollup.roll_up

    def first_holds_on(session: Session, now: datetime | None = None) -> rollup.RollupReport:
        report = real_roll_up(session, now)
        if not inside.is_set():  # the first run waits, its writes not committed yet
            inside.set()
            release.wait(10)
        return report

    monkeypatch.setattr(rollup, "roll_up", first_holds_on)
    ended: list[rollup.RollupReport | None] = []
    runs = [threading.Thread(target=lambda: ended.append(rollup.run_once(world.engine)))]
    runs.append(threading.Thread(target=lambda: ended.append(rollup.run_once(world.engine))))
    runs[0].start()
    assert inside.wait(10)
    runs[1].start()
    runs[1].join(0.5)  # the second run meets the first one's lock
    release.set()
    for run in runs:
        run.join(30)
    assert len(ended) == 2  # a run that raised would have ended nothing
    with Session(world.engine) as db:
        assert len(db.exec(select(SensorRollupMark)).all()) == 2
