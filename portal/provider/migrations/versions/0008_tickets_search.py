"""Tickets: the folded subject of the list's filter, and the indexes of its scope and order.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-24 16:10:00

The subject filter is case- and accent-insensitive like the services search: the subject is
stored folded (``search_subject``, kept by ``models/search.py``) and compared with ``LIKE``,
served on PostgreSQL by a trigram index (``pg_trgm``, created by 0004). The list is read
through the customer's companies, newest first, the number breaking ties.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("tickets") as batch_op:
        batch_op.add_column(
            sa.Column("search_subject", sa.String(length=500), nullable=False, server_default="")
        )
    tickets = sa.table("tickets", sa.column("id"), sa.column("subject"))
    connection = op.get_bind()
    # Folded in Python, as the models fold it: existing rows are few (a helpdesk's history).
    from portal.provider.platform.models.search import fold

    rows = connection.execute(sa.select(tickets.c.id, tickets.c.subject)).all()
    for ticket_id, subject in rows:
        connection.execute(
            sa.text("UPDATE tickets SET search_subject = :folded WHERE id = :id"),
            {"folded": fold(subject or ""), "id": ticket_id},
        )
    with op.batch_alter_table("tickets") as batch_op:
        batch_op.alter_column("search_subject", server_default=None)
    op.create_index(
        "ix_tickets_company_id_date_created", "tickets", ["company_id", "date_created", "number"]
    )
    op.create_index("ix_tickets_date_created_number", "tickets", ["date_created", "number"])
    if connection.dialect.name == "postgresql":
        op.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        op.create_index(
            "ix_tickets_search_subject_trgm",
            "tickets",
            ["search_subject"],
            postgresql_using="gin",
            postgresql_ops={"search_subject": "gin_trgm_ops"},
        )
    else:
        op.create_index("ix_tickets_search_subject_trgm", "tickets", ["search_subject"])


def downgrade() -> None:
    for name in (
        "ix_tickets_search_subject_trgm",
        "ix_tickets_date_created_number",
        "ix_tickets_company_id_date_created",
    ):
        op.drop_index(name, table_name="tickets")
    with op.batch_alter_table("tickets") as batch_op:
        batch_op.drop_column("search_subject")
