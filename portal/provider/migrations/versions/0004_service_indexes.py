"""Services: indexes for the list's scope, filters, sorts and search at scale.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23 13:10:00

Each customer's list is read through its companies, so the company comes first in the
composite indexes of the filters and sorts. The global search is a ``LIKE '%word%'`` on the
folded search column: PostgreSQL serves it from a trigram GIN index (extension ``pg_trgm``,
shipped with PostgreSQL and trusted since version 13); SQLite gets a plain index of the same
name, which it does not use for the search, so the schema is the same on both (see
docs/decisions/service-search.md).
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # The single-column indexes of 0001 become the first columns of composite ones.
    op.drop_index("ix_services_status", table_name="services")
    op.drop_index("ix_services_date_start", table_name="services")
    op.create_index("ix_services_company_id_status", "services", ["company_id", "status"])
    op.create_index(
        "ix_services_company_id_date_start", "services", ["company_id", "date_start", "reference"]
    )
    op.create_index("ix_services_date_start_reference", "services", ["date_start", "reference"])
    op.create_index("ix_services_status_reference", "services", ["status", "reference"])
    if op.get_bind().dialect.name == "postgresql":
        op.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        op.create_index(
            "ix_services_search_text_trgm",
            "services",
            ["search_text"],
            postgresql_using="gin",
            postgresql_ops={"search_text": "gin_trgm_ops"},
        )
    else:
        op.create_index("ix_services_search_text_trgm", "services", ["search_text"])


def downgrade() -> None:
    for name in (
        "ix_services_search_text_trgm",
        "ix_services_status_reference",
        "ix_services_date_start_reference",
        "ix_services_company_id_date_start",
        "ix_services_company_id_status",
    ):
        op.drop_index(name, table_name="services")
    op.create_index("ix_services_date_start", "services", ["date_start"])
    op.create_index("ix_services_status", "services", ["status"])
