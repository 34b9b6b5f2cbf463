"""Accounts: the language of each user's e-mails, and rate-limit counters shared by workers.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23 13:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("language", sa.String(length=5), server_default="en", nullable=False)
        )
    op.create_table(
        "rate_limit_counters",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("window_start", sa.DateTime(timezone=True), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rate_limit_counters")),
    )
    with op.batch_alter_table("rate_limit_counters", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_rate_limit_counters_window_start"), ["window_start"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("rate_limit_counters", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_rate_limit_counters_window_start"))
    op.drop_table("rate_limit_counters")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("language")
