"""Tickets: a customer's deep pages and status counts from the indexes alone.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-24 18:50:00

The list reads one branch per company in date order (as invoices do); on PostgreSQL the
``(company_id, date_created, number)`` index now carries the id and the status, so a page of
open tickets at any depth is walked without visiting the table. ``(company_id, status)`` counts
the tiles (open, active, closed) from the index: the heavy tenant's open count took 150 ms
through the single-column status index.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.drop_index("ix_tickets_company_id_date_created", table_name="tickets")
    op.create_index(
        "ix_tickets_company_id_date_created",
        "tickets",
        ["company_id", "date_created", "number"],
        postgresql_include=["id", "status"],
    )
    op.create_index("ix_tickets_company_id_status", "tickets", ["company_id", "status"])


def downgrade() -> None:
    op.drop_index("ix_tickets_company_id_status", table_name="tickets")
    op.drop_index("ix_tickets_company_id_date_created", table_name="tickets")
    op.create_index(
        "ix_tickets_company_id_date_created", "tickets", ["company_id", "date_created", "number"]
    )
