"""Monitoring sensors, their chart legends and their samples."""

import uuid
from datetime import datetime
from enum import StrEnum

import sqlalchemy as sa
from sqlmodel import Field, Relationship, SQLModel

from portal.provider.models.columns import enum_type, id_field


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
    )

    id: uuid.UUID = id_field()
    sensor_id: uuid.UUID = Field(foreign_key="sensors.id", ondelete="CASCADE")
    legend_key: str = Field(max_length=60)
    at: datetime
    value: float


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

    legend: list[SensorLegendEntry] = Relationship(cascade_delete=True)
