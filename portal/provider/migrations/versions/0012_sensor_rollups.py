"""Sensor roll-ups: samples summed up per hour and per day, kept 30 and 365 days.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-24 17:40:00

Raw samples are kept 48 hours; ``python -m portal.provider roll-up`` (run by the provider every
few minutes) sums them up into hours and the hours into days, with the minimum, maximum, sum
and count of each (docs/decisions/sensor-rollups.md). The primary key leads with (sensor,
resolution, start), so every chart span reads one resolution with one index range scan.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "sensor_rollups",
        sa.Column("sensor_id", sa.Uuid(), nullable=False),
        sa.Column(
            "resolution",
            sa.Enum("hour", "day", name="rollupresolution", native_enum=False, length=40),
            nullable=False,
        ),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("legend_key", sa.String(length=60), nullable=False),
        sa.Column("minimum", sa.Float(), nullable=False),
        sa.Column("maximum", sa.Float(), nullable=False),
        sa.Column("total", sa.Float(), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["sensor_id"],
            ["sensors.id"],
            name=op.f("fk_sensor_rollups_sensor_id_sensors"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint(
            "sensor_id", "resolution", "at", "legend_key", name=op.f("pk_sensor_rollups")
        ),
    )
    op.create_table(
        "sensor_rollup_marks",
        sa.Column(
            "resolution",
            sa.Enum("hour", "day", name="rollupresolution", native_enum=False, length=40),
            nullable=False,
        ),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("resolution", name=op.f("pk_sensor_rollup_marks")),
    )
    # The job finds what to sum up and what to drop by time alone. PostgreSQL: BRIN indexes,
    # a few pages for any number of rows, as samples and roll-ups arrive in time order.
    op.create_index("ix_sensor_samples_at", "sensor_samples", ["at"], postgresql_using="brin")
    op.create_index("ix_sensor_rollups_at", "sensor_rollups", ["at"], postgresql_using="brin")


def downgrade() -> None:
    op.drop_index("ix_sensor_rollups_at", table_name="sensor_rollups")
    op.drop_index("ix_sensor_samples_at", table_name="sensor_samples")
    op.drop_table("sensor_rollup_marks")
    op.drop_table("sensor_rollups")
