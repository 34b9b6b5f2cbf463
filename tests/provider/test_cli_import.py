"""``python -m portal.provider token …`` and ``import FILE.jsonl`` on a database of their own:
the token lifecycle from the shell, an import with failing lines, and the re-run that resumes."""

import json
import shutil
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func
from sqlmodel import Session, select

from portal.permissions import Role
from portal.provider.cli import main
from portal.provider.migrate import migrate
from portal.provider.platform.db import create_db_engine
from portal.provider.platform.models import (
    ApiToken,
    AuditLog,
    Company,
    Invoice,
    Maintenance,
    SensorSample,
    Service,
    ServiceType,
    Ticket,
    User,
)
from portal.settings import get_settings
from tests.provider.integration_helpers import PDF

ADMIN = "ada@patchbay.test"


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated database with an administrator, a customer and the service type the file
    refers to, copied for each test (migrating afresh each time would be slow)."""
    path = tmp_path_factory.mktemp("template") / "cli.db"
    engine = create_db_engine(f"sqlite:///{path}")
    migrate(engine)
    with Session(engine) as session:
        staff = Company(name="Patchbay")
        session.add(staff)
        session.add(ServiceType(key="ip_transit", label_en="IP transit", label_fr="Transit IP"))
        session.flush()
        for email, roles in ((ADMIN, [Role.ADMIN.value]), ("sam@patchbay.test", [])):
            session.add(
                User(email=email, firstname="A", lastname="B", company_id=staff.id, roles=roles)
            )
        session.commit()
    engine.dispose()
    return path


@pytest.fixture
def database(template: Path, tmp_path: Path) -> Iterator[str]:
    """A database and a data directory of the test's own."""
    shutil.copyfile(template, tmp_path / "cli.db")
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DATABASE_URL", url)
        patch.setenv("DATA_DIR", str(tmp_path / "data"))
        get_settings.cache_clear()
        yield url
    get_settings.cache_clear()


def count(url: str, model: type) -> int:
    with Session(create_db_engine(url)) as session:
        return session.exec(select(func.count()).select_from(model)).one()


# --- tokens -----------------------------------------------------------------------------------


def test_tokens_are_created_listed_and_revoked_from_the_shell(
    database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    arguments = ["--name", "ERP sync", "--owner", ADMIN, "--scope", "services,invoices"]
    assert main(["token", "create", *arguments, "--scope", "tickets"]) == 0
    printed = capsys.readouterr().out.splitlines()
    value = printed[-1]
    assert value.startswith("pbt_")
    token_id = printed[0].split()[3]
    assert printed[0].endswith("writing services, invoices, tickets.")
    with Session(create_db_engine(database)) as session:
        stored = session.get_one(ApiToken, uuid.UUID(token_id))
        audited = session.exec(select(AuditLog).where(AuditLog.action == "token.create")).one()
    assert stored.token_hash != value
    assert stored.scopes == ["services", "invoices", "tickets"]
    assert audited.detail["scopes"] == stored.scopes

    assert main(["token", "list"]) == 0
    listing = capsys.readouterr().out
    assert "ERP sync" in listing
    assert "services,invoices,tickets" in listing
    assert "active" in listing
    assert value not in listing

    assert main(["token", "revoke", token_id]) == 0
    assert main(["token", "list"]) == 0
    assert "revoked" in capsys.readouterr().out


@pytest.mark.parametrize(
    "arguments",
    [
        ["--name", "x", "--owner", "sam@patchbay.test"],  # not an administrator
        ["--name", "x", "--owner", "nobody@patchbay.test"],
        ["--name", "x", "--owner", ADMIN, "--expires", "2020-01-01"],
        ["--name", "x", "--owner", ADMIN, "--expires", "someday"],
        ["--name", " ", "--owner", ADMIN],
        ["--name", "x", "--owner", ADMIN, "--scope", "accounts"],
        ["--name", "x", "--owner", ADMIN, "--scope", " , "],
    ],
)
def test_token_creation_refusals(
    database: str, capsys: pytest.CaptureFixture[str], arguments: list[str]
) -> None:
    if "--scope" not in arguments:
        arguments = [*arguments, "--scope", "services"]
    assert main(["token", "create", *arguments]) == 1
    assert capsys.readouterr().out.startswith("Refused:")
    assert count(database, ApiToken) == 0


def test_revoking_an_unknown_token_is_refused(database: str) -> None:
    assert main(["token", "revoke", str(uuid.uuid4())]) == 1
    assert main(["token", "revoke", "not-an-id"]) == 1


# --- import -----------------------------------------------------------------------------------

GOOD: list[dict[str, Any]] = [
    {"kind": "company", "reference": "C-1", "name": "Northwind"},
    {
        "kind": "user",
        "reference": "U-1",
        "email": "dana@northwind.test",
        "firstname": "Dana",
        "lastname": "Scully",
        "company": "C-1",
    },
    {
        "kind": "service",
        "reference": "PB-1",
        "company": "C-1",
        "type": "ip_transit",
        "status": "active",
        "documents": [{"kind": "handover", "file": "files/handover.pdf"}],
        "orderPdf": "files/order.pdf",
    },
    {
        "kind": "invoice",
        "reference": "INV-1",
        "company": "C-1",
        "type": "invoice",
        "dateInvoice": "2026-10-01",
        "dateDue": "2026-10-31",
        "amount": "10.00",
        "amountWithTax": "12.00",
        "status": "unpaid",
        "lines": [{"label": "Transit", "amount": "10.00", "service": "PB-1"}],
        "pdf": "files/invoice.pdf",
    },
    {
        "kind": "ticket",
        "reference": "HD-1",
        "number": 1,
        "company": "C-1",
        "name": "Loss",
        "subject": "Loss",
        "status": "open",
        "priority": "low",
        "description": "<p>hi<script>x</script></p>",
        "attachments": ["files/trace.txt"],
    },
    {
        "kind": "maintenance",
        "reference": "MNT-1",
        "name": "Works",
        "type": "preventive",
        "classification": "noImpact",
        "status": "scheduled",
        "dateStart": "2026-12-01T01:00:00Z",
        "dateEnd": "2026-12-01T02:00:00Z",
        "services": ["PB-1"],
    },
    {
        "kind": "sensor",
        "reference": "S-1",
        "company": "C-1",
        "group": "g",
        "device": "d",
        "name": "n",
        "status": "up",
        "legend": [{"key": "in", "name": "In", "color": "00ff00"}],
    },
]
SAMPLES = 10_001  # one more than a batch of samples


def write_file(directory: Path, lines: list[str]) -> Path:
    files = directory / "files"
    files.mkdir(parents=True, exist_ok=True)
    for name in ("handover.pdf", "order.pdf", "invoice.pdf"):
        (files / name).write_bytes(PDF)
    (files / "trace.txt").write_text("1 10.0.0.1 0.4 ms\n")
    source = directory / "estate.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return source


def estate(bad: bool, samples: int = SAMPLES) -> list[str]:
    lines = [json.dumps(line) for line in GOOD]
    if bad:
        unknown_company = {**GOOD[1], "reference": "U-2", "email": "x@y.test", "company": "C-404"}
        lines[2:2] = [
            json.dumps(unknown_company),
            "{not json",
            json.dumps({"kind": "spaceship", "reference": "X"}),
            "",
        ]
    start = datetime(2026, 1, 1, tzinfo=UTC)
    for index in range(samples):
        at = (start + timedelta(minutes=5 * index)).isoformat()
        sample = {"kind": "sample", "sensor": "S-1", "key": "in", "at": at, "value": index}
        lines.append(json.dumps(sample))
    return lines


def test_an_import_writes_the_good_lines_reports_the_bad_ones_and_resumes(
    database: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write_file(tmp_path / "in", estate(bad=True))
    assert main(["import", str(source)]) == 1
    captured = capsys.readouterr()
    assert "lines/s" in captured.err
    assert "ETA" in captured.err
    output = captured.out
    assert "line 3: company: Nothing has the reference C-404." in output
    assert "line 4: not valid JSON" in output
    assert "line 5: kind: should be one of" in output
    summary = {
        row.split()[0]: row.split()[1:] for row in output.splitlines() if row.startswith("  ")
    }
    assert summary["companies"] == ["1", "0", "0", "0"]
    assert summary["users"] == ["1", "0", "0", "1"]
    assert summary["samples"] == [str(SAMPLES), "0", "0", "0"]
    assert summary["file"] == ["4", "0", "0", "0"]

    assert count(database, Company) == 2
    assert count(database, Service) == 1
    assert count(database, Invoice) == 1
    assert count(database, Maintenance) == 1
    assert count(database, SensorSample) == SAMPLES
    with Session(create_db_engine(database)) as session:
        ticket = session.exec(select(Ticket)).one()
        service = session.exec(select(Service)).one()
        invoice = session.exec(select(Invoice)).one()
    assert "script" not in ticket.description_html
    assert service.order_pdf_name == "order.pdf"
    assert invoice.pdf_name == "invoice.pdf"
    data_dir = get_settings().data_dir
    assert (data_dir / (invoice.pdf_path or "")).read_bytes() == PDF

    # The same file again: nothing new, the same failures.
    assert main(["import", str(source)]) == 1
    output = capsys.readouterr().out
    summary = {
        row.split()[0]: row.split()[1:] for row in output.splitlines() if row.startswith("  ")
    }
    assert summary["companies"] == ["0", "0", "1", "0"]
    assert summary["samples"] == ["0", "0", str(SAMPLES), "0"]
    assert summary["file"] == ["0", "0", "4", "0"]
    assert count(database, SensorSample) == SAMPLES

    # Fixed, the file goes in whole.
    fixed = write_file(tmp_path / "fixed", estate(bad=False, samples=10))
    assert main(["import", str(fixed)]) == 0
    assert count(database, Company) == 2


def test_importing_a_missing_file_is_refused(database: str, tmp_path: Path) -> None:
    assert main(["import", str(tmp_path / "nope.jsonl")]) == 1
