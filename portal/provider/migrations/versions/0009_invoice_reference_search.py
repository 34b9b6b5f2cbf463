"""Invoices: a trigram index for the reference filter.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-24 18:40:00

The invoicing screen's reference filter finds a fragment in any case (``ILIKE '%…%'``). Without
an index, a customer with 100 000 invoices had every one of them read for each search (130 to
300 ms at scale 1); the trigram index answers a fragment of three characters or more in about
a millisecond (docs/decisions/deep-invoice-pages.md). ``pg_trgm`` is created by 0004. SQLite
gets a plain index of the same name, so that both schemas are alike.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.create_index(
            "ix_invoices_reference_trgm",
            "invoices",
            ["reference"],
            postgresql_using="gin",
            postgresql_ops={"reference": "gin_trgm_ops"},
        )
    else:
        op.create_index("ix_invoices_reference_trgm", "invoices", ["reference"])


def downgrade() -> None:
    op.drop_index("ix_invoices_reference_trgm", table_name="invoices")
