"""The migrations match the models and run both ways; the app migrates when it starts."""

import gc
import uuid
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from fastapi import FastAPI
from sqlmodel import Session, select

from portal.provider import seed
from portal.provider.accounts.sealing import seal, unseal
from portal.provider.integration.kinds import SCOPES
from portal.provider.main import create_app
from portal.provider.migrate import alembic_config, migrate
from portal.provider.platform.db import create_db_engine
from portal.provider.platform.models import ApiToken, Company, SecondFactor, User, metadata
from portal.settings import get_settings
from tests.provider.settings_override import overridden


def test_the_migrated_schema_matches_the_models(engine: sa.Engine) -> None:
    # Raises when autogenerate would find a difference on this database (SQLite or PostgreSQL).
    command.check(alembic_config(engine))


def test_the_initial_migration_downgrades_and_upgrades_again(tmp_path: Path) -> None:
    engine = create_db_engine(f"sqlite:///{tmp_path / 'roundtrip.db'}")
    migrate(engine)
    command.downgrade(alembic_config(engine), "base")
    assert sa.inspect(engine).get_table_names() == ["alembic_version"]
    migrate(engine)
    assert set(metadata.tables) <= set(sa.inspect(engine).get_table_names())


def test_maintenance_links_take_their_services_companies_when_migrated(tmp_path: Path) -> None:
    # 0016 copies each service's company onto its maintenance links, on data made before it.
    engine = create_db_engine(f"sqlite:///{tmp_path / 'links.db'}")
    migrate(engine)
    with Session(engine) as session:
        seed.seed_demo(session, tmp_path)
        session.commit()
    command.downgrade(alembic_config(engine), "0015")
    migrate(engine)
    with engine.connect() as connection:
        links = connection.execute(
            sa.text(
                "SELECT count(*), sum(l.company_id = s.company_id) FROM maintenance_services l"
                " JOIN services s ON s.id = l.service_id"
            )
        ).one()
    assert links[0] > 0
    assert links[1] == links[0]


def test_second_factors_are_sealed_when_migrated_and_opened_when_downgraded(
    tmp_path: Path,
) -> None:
    # 0020 seals the secrets stored in clear before it (issue 47, item 18); its downgrade opens
    # them again.
    engine = create_db_engine(f"sqlite:///{tmp_path / 'factors.db'}")
    secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
    with overridden(data_dir=tmp_path / "data"):
        migrate(engine)
        with Session(engine) as session:
            company = Company(name="Acme")
            user = User(firstname="A", lastname="B", email="a@acme.test", company=company)
            session.add(user)
            session.flush()
            session.add(SecondFactor(user_id=user.id, sealed_secret=seal(secret, user.id)))
            session.commit()
            user_id = user.id
        command.downgrade(alembic_config(engine), "0019")
        with engine.connect() as connection:
            stored = connection.execute(sa.text("SELECT secret FROM second_factors")).scalar()
        assert stored == secret
        migrate(engine)
        with Session(engine) as session:
            sealed = session.get_one(SecondFactor, user_id).sealed_secret
        assert secret not in sealed
        assert unseal(sealed, user_id) == (secret, True)
    engine.dispose()


async def test_the_lifespan_migrates_a_new_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SEED_DEMO", "false")
    get_settings.cache_clear()
    try:
        engine = create_db_engine(f"sqlite:///{tmp_path / 'nested' / 'fresh.db'}")
        app: FastAPI = create_app(engine)
        gc.unfreeze()
        async with app.router.lifespan_context(app):
            assert set(metadata.tables) <= set(sa.inspect(engine).get_table_names())
            # Started: its objects are left out of the collector's later passes.
            assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        monkeypatch.undo()
        get_settings.cache_clear()


def test_tokens_made_before_scopes_keep_every_kind_but_users(tmp_path: Path) -> None:
    # 0017: a token of before may go on loading the estate, but makes no account.
    engine = create_db_engine(f"sqlite:///{tmp_path / 'tokens.db'}")
    migrate(engine)
    with Session(engine) as session:
        seed.seed_demo(session, tmp_path)
        session.commit()
    command.downgrade(alembic_config(engine), "0016")
    with engine.begin() as connection:
        admin = connection.execute(
            sa.text("SELECT id FROM users WHERE email = 'admin@patchbay.test'")
        ).scalar_one()
        connection.execute(
            sa.text(
                "INSERT INTO api_tokens (id, name, token_hash, user_id, created_at)"
                " VALUES (:id, 'ERP', :hash, :user, CURRENT_TIMESTAMP)"
            ),
            {"id": uuid.uuid4().hex, "hash": "0" * 64, "user": admin},
        )
    migrate(engine)
    with Session(engine) as session:
        token = session.exec(select(ApiToken)).one()
    # Nor does it answer customers' tickets: ticket_replies came after, and mails them too.
    assert token.scopes == [kind for kind in SCOPES if kind not in ("users", "ticket_replies")]


def test_tickets_take_their_services_ids_when_migrated(tmp_path: Path) -> None:
    # 0028 fills in each ticket's service id from its service reference (issue 53); a reference
    # naming no service leaves it empty.
    engine = create_db_engine(f"sqlite:///{tmp_path / 'tickets.db'}")
    migrate(engine)
    with Session(engine) as session:
        seed.seed_demo(session, tmp_path)
        session.commit()
    command.downgrade(alembic_config(engine), "0027")
    with engine.begin() as connection:
        connection.execute(
            sa.text(
                "UPDATE tickets SET service_reference = 'PB-NOWHERE'"
                " WHERE number = (SELECT min(number) FROM tickets)"
            )
        )
    migrate(engine)
    with engine.connect() as connection:
        rows = connection.execute(
            sa.text(
                "SELECT t.service_reference, t.service_id, s.id FROM tickets t"
                " LEFT JOIN services s ON s.reference = t.service_reference"
            )
        ).all()
    assert any(found is not None for _, _, found in rows)
    assert any(reference is None for reference, _, _ in rows)
    assert ("PB-NOWHERE", None, None) in rows
    assert all(stored == found for _, stored, found in rows)
