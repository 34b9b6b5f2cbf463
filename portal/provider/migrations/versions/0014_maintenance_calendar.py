"""Maintenances in a calendar: a period's index, a change counter, and users' private feeds.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-24 18:00:00

The calendar asks for the windows overlapping a period (``date_end`` after its start,
``date_start`` before its end): one index of (date_end, date_start) reads them in order and
checks the start without the table, and replaces the index of ``date_end`` alone. ``sequence``
and ``updated_at`` give the iCalendar feed its SEQUENCE and LAST-MODIFIED. ``calendar_feeds``
holds each user's feed token as a SHA-256 (docs/decisions/maintenance-calendar-feed.md).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("maintenances") as batch_op:
        batch_op.add_column(
            sa.Column("sequence", sa.Integer(), nullable=False, server_default="0")
        )
        batch_op.add_column(
            sa.Column(
                "updated_at",
                sa.DateTime(timezone=True),
                nullable=False,
                server_default=sa.func.current_timestamp(),
            )
        )
        batch_op.drop_index("ix_maintenances_date_end")
        batch_op.create_index(
            "ix_maintenances_date_end_date_start", ["date_end", "date_start"], unique=False
        )
    with op.batch_alter_table("maintenances") as batch_op:
        batch_op.alter_column("updated_at", server_default=None)
    op.create_table(
        "calendar_feeds",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("language", sa.String(length=5), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_calendar_feeds_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_calendar_feeds")),
        sa.UniqueConstraint("user_id", name=op.f("uq_calendar_feeds_user_id")),
    )
    with op.batch_alter_table("calendar_feeds") as batch_op:
        batch_op.create_index(
            batch_op.f("ix_calendar_feeds_token_hash"), ["token_hash"], unique=True
        )


def downgrade() -> None:
    with op.batch_alter_table("calendar_feeds") as batch_op:
        batch_op.drop_index(batch_op.f("ix_calendar_feeds_token_hash"))
    op.drop_table("calendar_feeds")
    with op.batch_alter_table("maintenances") as batch_op:
        batch_op.drop_index("ix_maintenances_date_end_date_start")
        batch_op.create_index("ix_maintenances_date_end", ["date_end"], unique=False)
        batch_op.drop_column("updated_at")
        batch_op.drop_column("sequence")
