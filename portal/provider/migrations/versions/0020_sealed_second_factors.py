"""Second factors' secrets sealed: ``second_factors.secret`` becomes ``sealed_secret``.

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-10 15:00:00

The TOTP secrets were stored in clear. Each one is sealed with SECOND_FACTOR_KEY (AES-256-GCM,
``portal.provider.accounts.sealing``) as the column is renamed and widened, so no clear secret is left
behind; the downgrade opens them again. A database with second factors needs the key to
migrate, as the provider needs it to start (docs/decisions/secrets-at-rest.md).
"""

import uuid
from collections.abc import Callable, Sequence

import sqlalchemy as sa
from alembic import op

from portal.provider.accounts.sealing import seal, unseal

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("second_factors") as batch_op:
        batch_op.alter_column(
            "secret",
            new_column_name="sealed_secret",
            existing_type=sa.String(length=64),
            type_=sa.String(length=200),
            existing_nullable=False,
        )
    _rewrite("sealed_secret", seal)


def downgrade() -> None:
    def opened(sealed: str, user_id: uuid.UUID) -> str:
        found = unseal(sealed, user_id)
        if found is None:
            raise RuntimeError(f"no key opens the second factor of user {user_id}")
        return found[0]

    _rewrite("sealed_secret", opened)
    with op.batch_alter_table("second_factors") as batch_op:
        batch_op.alter_column(
            "sealed_secret",
            new_column_name="secret",
            existing_type=sa.String(length=200),
            type_=sa.String(length=64),
            existing_nullable=False,
        )


def _rewrite(column: str, change: Callable[[str, uuid.UUID], str]) -> None:
    factors = sa.table("second_factors", sa.column("user_id", sa.Uuid()), sa.column(column))
    connection = op.get_bind()
    for user_id, value in connection.execute(sa.select(factors.c.user_id, factors.c[column])):
        connection.execute(
            factors.update()
            .where(factors.c.user_id == user_id)
            .values({column: change(value, user_id)})
        )
