"""A user limited, per company, to some services; a sensor names the service it watches.

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-05 19:30:00

Issue 53: a company's user managers limit a colleague to the services of a few sites. The
limit is a row per (user, company); the services the user keeps are rows keyed (user, service),
which the scope joins on. A sensor's service is how a limited user's sensors are found; sensors
loaded before keep none until their feed names it.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0026"
down_revision: str | None = "0025"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "user_access_limits",
        sa.Column("user_id", sa.Uuid(), nullable=False),
        sa.Column("company_id", sa.Uuid(), nullable=False),
        sa.Column("changed_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["company_id"],
            ["companies.id"],
            name=op.f("fk_user_access_limits_company_id_companies"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_user_access_limits_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("user_id", "company_id", name=op.f("pk_user_access_limits")),
    )
    with op.batch_alter_table("user_access_limits") as batch_op:
        batch_op.create_index(
            batch_op.f("ix_user_access_limits_company_id"), ["company_id"], unique=False
        )
    op.create_table(
        "user_service_grants",
        sa.Column("user_id", sa.Uuid(), nullable=False),
        sa.Column("service_id", sa.Uuid(), nullable=False),
        sa.Column("company_id", sa.Uuid(), nullable=False),
        sa.ForeignKeyConstraint(
            ["company_id"],
            ["companies.id"],
            name=op.f("fk_user_service_grants_company_id_companies"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["service_id"],
            ["services.id"],
            name=op.f("fk_user_service_grants_service_id_services"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_user_service_grants_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("user_id", "service_id", name=op.f("pk_user_service_grants")),
    )
    with op.batch_alter_table("user_service_grants") as batch_op:
        batch_op.create_index(
            batch_op.f("ix_user_service_grants_service_id"), ["service_id"], unique=False
        )
        batch_op.create_index(
            "ix_user_service_grants_user_id_company_id", ["user_id", "company_id"], unique=False
        )
    with op.batch_alter_table("sensors") as batch_op:
        batch_op.add_column(sa.Column("service_id", sa.Uuid(), nullable=True))
        batch_op.create_foreign_key(
            op.f("fk_sensors_service_id_services"),
            "services",
            ["service_id"],
            ["id"],
            ondelete="SET NULL",
        )
        batch_op.create_index(batch_op.f("ix_sensors_service_id"), ["service_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("sensors") as batch_op:
        batch_op.drop_index(batch_op.f("ix_sensors_service_id"))
        batch_op.drop_constraint(op.f("fk_sensors_service_id_services"), type_="foreignkey")
        batch_op.drop_column("service_id")
    op.drop_table("user_service_grants")
    op.drop_table("user_access_limits")
