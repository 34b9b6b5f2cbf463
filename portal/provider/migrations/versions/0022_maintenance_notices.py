"""Notices: who takes which, in which language and zone, the companies' extra addresses, the
waiting maintenance notices.

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-12 10:00:00

Issue 50: a maintenance touching a company's services is told by e-mail to its users who take
maintenance notices, and to its confirmed extra addresses; a notice waits a few minutes in
``maintenance_notices`` so that the changes following it are told at once
(docs/decisions/maintenance-notices.md).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0022"
down_revision: str | None = "0021"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Added in place, not through a copy of the table: on SQLite, dropping the old ``users``
    # would delete in cascade every row that refers to a user (sessions, second factors…).
    for column in (
        sa.Column("maintenance_notices", sa.String(length=40), nullable=False, server_default="all"),
        sa.Column("time_zone", sa.String(length=64), nullable=False, server_default="UTC"),
        sa.Column("ticket_notices", sa.String(length=40), nullable=False, server_default="opened"),
        sa.Column("language_chosen", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("time_zone_chosen", sa.Boolean(), nullable=False, server_default=sa.false()),
    ):
        op.add_column("users", column)
    op.create_table(
        "notice_addresses",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("company_id", sa.Uuid(), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("language", sa.String(length=5), nullable=False),
        sa.Column("time_zone", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["company_id"],
            ["companies.id"],
            name="fk_notice_addresses_company_id_companies",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_notice_addresses"),
        sa.UniqueConstraint("company_id", "email", name="uq_notice_addresses_company_id_email"),
    )
    with op.batch_alter_table("notice_addresses") as batch_op:
        batch_op.create_index("ix_notice_addresses_company_id", ["company_id"])
        batch_op.create_index("ix_notice_addresses_created_at", ["created_at"])
    op.create_table(
        "maintenance_notices",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("maintenance_id", sa.Uuid(), nullable=False),
        sa.Column("company_id", sa.Uuid(), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=True),
        sa.Column("address_id", sa.Uuid(), nullable=True),
        sa.Column("event", sa.String(length=40), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["maintenance_id"],
            ["maintenances.id"],
            name="fk_maintenance_notices_maintenance_id_maintenances",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["company_id"],
            ["companies.id"],
            name="fk_maintenance_notices_company_id_companies",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name="fk_maintenance_notices_user_id_users",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["address_id"],
            ["notice_addresses.id"],
            name="fk_maintenance_notices_address_id_notice_addresses",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_maintenance_notices"),
    )
    with op.batch_alter_table("maintenance_notices") as batch_op:
        for column in ("maintenance_id", "company_id", "user_id", "address_id", "due_at"):
            batch_op.create_index(f"ix_maintenance_notices_{column}", [column])
        batch_op.create_index("ix_maintenance_notices_created_at", ["created_at"])


def downgrade() -> None:
    op.drop_table("maintenance_notices")
    op.drop_table("notice_addresses")
    # Dropped in place, as they were added.
    for column in ("time_zone_chosen", "language_chosen", "ticket_notices", "time_zone"):
        op.drop_column("users", column)
    op.drop_column("users", "maintenance_notices")
