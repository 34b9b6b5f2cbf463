"""Single sign-on per company with OpenID Connect: the identity provider, its domains, and the
sign-ins waiting for their callback.

Revision ID: 0027
Revises: 0026
Create Date: 2026-12-05 19:40:00

Issue 52, item 4: a provider administrator sets a company's issuer, client and the e-mail
domains it covers (a domain belongs to at most one company); the client secret is sealed.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0027"
down_revision: str | None = "0026"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "company_sso",
        sa.Column("company_id", sa.Uuid(), nullable=False),
        sa.Column("issuer", sa.String(length=500), nullable=False),
        sa.Column("client_id", sa.String(length=255), nullable=False),
        sa.Column("sealed_client_secret", sa.String(length=1000), nullable=False),
        sa.Column("password_allowed", sa.Boolean(), nullable=False),
        sa.Column("create_users", sa.Boolean(), nullable=False),
        sa.Column("default_roles", sa.JSON(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["company_id"],
            ["companies.id"],
            name=op.f("fk_company_sso_company_id_companies"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("company_id", name=op.f("pk_company_sso")),
    )
    op.create_table(
        "sso_domains",
        sa.Column("domain", sa.String(length=253), nullable=False),
        sa.Column("company_id", sa.Uuid(), nullable=False),
        sa.ForeignKeyConstraint(
            ["company_id"],
            ["company_sso.company_id"],
            name=op.f("fk_sso_domains_company_id_company_sso"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("domain", name=op.f("pk_sso_domains")),
    )
    op.create_index(op.f("ix_sso_domains_company_id"), "sso_domains", ["company_id"])
    op.create_table(
        "sso_attempts",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("company_id", sa.Uuid(), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("nonce", sa.String(length=128), nullable=False),
        sa.Column("code_verifier", sa.String(length=128), nullable=False),
        sa.Column("redirect_uri", sa.String(length=500), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["company_id"],
            ["company_sso.company_id"],
            name=op.f("fk_sso_attempts_company_id_company_sso"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sso_attempts")),
    )
    op.create_index(op.f("ix_sso_attempts_company_id"), "sso_attempts", ["company_id"])
    op.create_index(op.f("ix_sso_attempts_expires_at"), "sso_attempts", ["expires_at"])


def downgrade() -> None:
    op.drop_table("sso_attempts")
    op.drop_table("sso_domains")
    op.drop_table("company_sso")
