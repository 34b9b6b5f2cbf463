"""API tokens hold scopes: the integration kinds they may write.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-05 13:00:00

A token acted as its administrator on every route. It now opens the integration API only, and
of it only the kinds named in ``scopes``. Tokens made before keep every kind but ``users``, the
one that makes accounts and sends their confirmation e-mails: a sync that loads users needs a
new token with that scope, made on purpose (docs/decisions/api-tokens.md).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The kinds of the integration API at this revision, but users.
EXISTING_TOKENS_SCOPES = [
    "companies",
    "services",
    "invoices",
    "tickets",
    "maintenances",
    "sensors",
    "samples",
]


def upgrade() -> None:
    with op.batch_alter_table("api_tokens") as batch_op:
        batch_op.add_column(sa.Column("scopes", sa.JSON(), nullable=True))
    tokens = sa.table("api_tokens", sa.column("scopes", sa.JSON()))
    op.execute(tokens.update().values(scopes=EXISTING_TOKENS_SCOPES))
    with op.batch_alter_table("api_tokens") as batch_op:
        batch_op.alter_column("scopes", existing_type=sa.JSON(), nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("api_tokens") as batch_op:
        batch_op.drop_column("scopes")
