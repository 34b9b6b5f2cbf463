"""Audit entries carry a count: one entry sums up a flood of refusals from one address.

Revision ID: 0019
Revises: 0017
Create Date: 2026-12-10 10:00:00

Every refused login or reset wrote its own row, with no cap: a flood filled the table. The
first refusals of an action from one address in a window are still written one by one; the
rest add to one entry, whose count says how many (docs/decisions/audit-refusals.md).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("audit_log") as batch_op:
        batch_op.add_column(sa.Column("count", sa.Integer(), nullable=False, server_default="1"))


def downgrade() -> None:
    with op.batch_alter_table("audit_log") as batch_op:
        batch_op.drop_column("count")
