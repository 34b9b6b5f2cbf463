"""Companies: the billing address and language their invoice PDFs are written with.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24 16:00:00

A generated invoice shows the customer's name and address and is written in the customer's
language (docs/decisions/invoice-pdfs.md). Existing companies get English and no address.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TEXT = sa.String


def upgrade() -> None:
    with op.batch_alter_table("companies") as batch_op:
        batch_op.add_column(
            sa.Column("language", _TEXT(length=5), nullable=False, server_default="en")
        )
        batch_op.add_column(sa.Column("street", _TEXT(length=255), nullable=True))
        batch_op.add_column(sa.Column("postal_code", _TEXT(length=20), nullable=True))
        batch_op.add_column(sa.Column("city", _TEXT(length=100), nullable=True))
        batch_op.add_column(sa.Column("country", _TEXT(length=100), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("companies") as batch_op:
        for name in ("country", "city", "postal_code", "street", "language"):
            batch_op.drop_column(name)
