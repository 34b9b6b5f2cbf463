"""Keys of the integration API: sensor samples are unique per sensor, time and channel.

A batch of samples sent twice must update the values, not duplicate the points: the unique index
is the key the upsert matches on. It starts with (sensor_id, at), so it also serves the chart's
range scans and replaces the former non-unique index on those two columns.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23 13:00:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("sensor_samples", schema=None) as batch_op:
        batch_op.drop_index("ix_sensor_samples_sensor_id_at")
        batch_op.create_index(
            "ix_sensor_samples_sensor_id_at_legend_key",
            ["sensor_id", "at", "legend_key"],
            unique=True,
        )


def downgrade() -> None:
    with op.batch_alter_table("sensor_samples", schema=None) as batch_op:
        batch_op.drop_index("ix_sensor_samples_sensor_id_at_legend_key")
        batch_op.create_index("ix_sensor_samples_sensor_id_at", ["sensor_id", "at"], unique=False)
