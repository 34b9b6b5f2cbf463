"""API tokens have a kind: an administrator's integration token or a user's personal one.

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-05 16:00:00

Issue 51: a user makes personal tokens with which their own tools read what they may read, in
the same table and checked by the same code as the integration tokens. Every token made before
is an integration token.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("api_tokens") as batch_op:
        batch_op.add_column(sa.Column("kind", sa.String(length=40), nullable=True))
    tokens = sa.table("api_tokens", sa.column("kind", sa.String(length=40)))
    op.execute(tokens.update().values(kind="integration"))
    with op.batch_alter_table("api_tokens") as batch_op:
        batch_op.alter_column("kind", existing_type=sa.String(length=40), nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("api_tokens") as batch_op:
        batch_op.drop_column("kind")
