"""Monitoring sensors, their chart legends and their samples."""

import uuid
from datetime import datetime
from enum import StrEnum

import sqlalchemy as sa
from sqlmodel import Field, Relationship, SQLModel

from portal.provider.platform.models.columns import enum_type, id_field


class SensorStatus(StrEnum):
    UNKNOWN = "unknown"
    UP = "up"
    DOWN = "down"
    PAUSED = "paused"
    WARNING = "warning"


class SensorLegendEntry(SQLModel, table=True):
    __tablename__ = "sensor_legend_entries"
    __table_args__ = (sa.UniqueConstraint("sensor_id", "key"),)

    id: uuid.UUID = id_field()
    sensor_id: uuid.UUID = Field(foreign_key="sensors.id", index=True, ondelete="CASCADE")
    # The channel key samples refer to (``legend_key``).
    key: str = Field(max_length=60)
    name: str = Field(max_length=120)
    unit: str | None = Field(default=None, max_length=30)
    # Hex colour without ``#`` (spec section 3).
    color: str = Field(max_length=6)


class SensorSample(SQLModel, table=True):
    __tablename__ = "sensor_samples"
    # One value per sensor, time and channel: batches sent again update instead of duplicating;
    # led by (sensor_id, at), the index also serves the charts' time-range scans.
    __table_args__ = (
        sa.Index(
            "ix_sensor_samples_sensor_id_at_legend_key",
            "sensor_id",
            "at",
            "legend_key",
            unique=True,
        ),
        # The roll-up job's scans by time alone (BRIN on PostgreSQL: rows arrive in time order).
        sa.Index("ix_sensor_samples_at", "at", postgresql_using="brin"),
    )

    id: uuid.UUID = id_field()
    sensor_id: uuid.UUID = Field(foreign_key="sensors.id", ondelete="CASCADE")
    legend_key: str = Field(max_length=60)
    at: datetime
    value: float


class RollupResolution(StrEnum):
    HOUR = "hour"
    DAY = "day"


class SensorRollup(SQLModel, table=True):
    """Samples summed up per hour or per day (``portal/provider/monitoring/rollup.py``): the
    charts of 30 and 365 days read these, never the raw samples. The primary key leads with
    (sensor, resolution, start), so a chart is one index range scan."""

    __tablename__ = "sensor_rollups"
    __table_args__ = (sa.Index("ix_sensor_rollups_at", "at", postgresql_using="brin"),)

    sensor_id: uuid.UUID = Field(foreign_key="sensors.id", primary_key=True, ondelete="CASCADE")
    resolution: RollupResolution = Field(
        sa_type=enum_type(RollupResolution), primary_key=True, max_length=10
    )
    # The start of the hour or of the day (UTC).
    at: datetime = Field(primary_key=True)
    legend_key: str = Field(primary_key=True, max_length=60)
    minimum: float
    maximum: float
    # The sum and the number of samples: the average, and exact sums when rolled up again.
    total: float
    count: int


class SensorRollupMark(SQLModel, table=True):
    """How far the roll-up job has summed up samples into a resolution: the start of the last
    hour or day it summed (it sums that one again next time, with what arrived since)."""

    __tablename__ = "sensor_rollup_marks"

    resolution: RollupResolution = Field(
        sa_type=enum_type(RollupResolution), primary_key=True, max_length=10
    )
    at: datetime


class Sensor(SQLModel, table=True):
    __tablename__ = "sensors"

    id: uuid.UUID = id_field()
    reference: str = Field(max_length=100, unique=True, index=True)
    company_id: uuid.UUID = Field(foreign_key="companies.id", index=True)
    group: str = Field(max_length=200, index=True)
    device: str = Field(max_length=200)
    name: str = Field(max_length=200)
    status: SensorStatus = Field(sa_type=enum_type(SensorStatus), index=True)
    priority: int = Field(default=0, index=True)
    favorite: bool = False
    value: str | None = Field(default=None, max_length=200)
    # Lookup sensors report a state word (up, testing, dormant…) rather than a measure.
    is_lookup: bool = False
    desc: str | None = Field(default=None, max_length=500)
    desc_value: str | None = Field(default=None, max_length=200)
    position: int = 0
    tags: list[str] = Field(default_factory=list, sa_type=sa.JSON)
    client_references: list[str] = Field(default_factory=list, sa_type=sa.JSON)
    port_label: str | None = Field(default=None, max_length=200)
    # The service the sensor watches, when known: a user limited to some services sees the
    # sensors of those only (issue 53).
    service_id: uuid.UUID | None = Field(
        default=None, foreign_key="services.id", index=True, ondelete="SET NULL"
    )

    legend: list[SensorLegendEntry] = Relationship(cascade_delete=True)
