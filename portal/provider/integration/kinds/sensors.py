"""Monitoring sensors, keyed on their reference, with their chart legend (the channels their
samples are sent for); the legend, when sent, replaces the stored one."""

from typing import Annotated, Any

from pydantic import Field, StringConstraints
from sqlmodel import Session

from portal.i18n import N_
from portal.provider.integration.batch import Entries, Kind
from portal.provider.integration.common import (
    DUPLICATE_IN_BATCH,
    Counts,
    InputModel,
    OptionalText,
    Reference,
    Text,
    assign,
    duplicates,
    path,
    rows_by,
    unknown,
    upsert_row,
)
from portal.provider.platform import webhooks
from portal.provider.platform.db import preload
from portal.provider.platform.errors import Violation
from portal.provider.platform.models import (
    Company,
    Sensor,
    SensorLegendEntry,
    SensorStatus,
    Service,
)

ANOTHER_COMPANYS_SERVICE = N_("The service {reference} is not one of the sensor's company.")

Color = Annotated[str, StringConstraints(pattern=r"^[0-9a-fA-F]{6}$")]


class LegendIn(InputModel):
    key: Text = Field(max_length=60, description="The channel key samples are sent for.")
    name: Text = Field(max_length=120)
    unit: OptionalText = Field(default=None, max_length=30)
    color: Color = Field(description="Hex colour without #.", examples=["1f77b4"])


class SensorIn(InputModel):
    reference: Reference = Field(description="The monitoring system's reference: the key.")
    company: Reference = Field(description="Reference of the customer company.")
    group: Text = Field(max_length=200)
    device: Text = Field(max_length=200)
    name: Text = Field(max_length=200)
    status: SensorStatus
    priority: int = Field(default=0, ge=0, le=5)
    favorite: bool = False
    value: OptionalText = Field(default=None, max_length=200)
    is_lookup: bool = False
    desc: OptionalText = Field(default=None, max_length=500)
    desc_value: OptionalText = Field(default=None, max_length=200)
    position: int = 0
    tags: list[Annotated[str, Field(max_length=100)]] | None = None
    client_references: list[Annotated[str, Field(max_length=100)]] | None = None
    port_label: OptionalText = Field(default=None, max_length=200)
    service: Reference | None = Field(
        default=None,
        description=(
            "Reference of the service the sensor watches, of the sensor's company: a user"
            " limited to some services sees the sensors of those only."
        ),
    )
    legend: list[LegendIn] | None = None


_OPTIONAL = (
    "priority",
    "favorite",
    "value",
    "is_lookup",
    "desc",
    "desc_value",
    "position",
    "tags",
    "client_references",
    "port_label",
)


def check(db: Session, entries: Entries[SensorIn]) -> tuple[Any, list[Violation]]:
    items = [item for _, item in entries]
    violations = duplicates(entries, lambda item: item.reference, "reference")
    for index, item in entries:
        keys = [entry.key for entry in item.legend or ()]
        violations += [
            Violation(path(index, f"legend[{position}].key"), DUPLICATE_IN_BATCH, {"value": key})
            for position, key in enumerate(keys)
            if key in keys[:position]
        ]
    sensors = rows_by(
        db, Sensor.reference, (item.reference for item in items), preload(Sensor.legend)
    )
    companies = rows_by(db, Company.reference, (item.company for item in items))
    named = (item.service for item in items if item.service is not None)
    services = rows_by(db, Service.reference, named)
    for index, item in entries:
        violations += unknown(index, "company", item.company, companies)
        if item.service is None:
            continue
        violations += unknown(index, "service", item.service, services)
        service, company = services.get(item.service), companies.get(item.company)
        if service is not None and company is not None and service.company_id != company.id:
            reference = {"reference": item.service}
            violations.append(
                Violation(path(index, "service"), ANOTHER_COMPANYS_SERVICE, reference)
            )
    return (sensors, companies, services), violations


def _legend(sensor: Sensor, legend: list[LegendIn]) -> bool:
    """Bring the legend to ``legend``, entry by entry: keys are unique per sensor, so an entry
    kept is updated in place rather than deleted and inserted again."""
    stored = {entry.key: entry for entry in sensor.legend}
    changed = False
    kept = []
    for given in legend:
        entry = stored.get(given.key) or SensorLegendEntry(
            sensor_id=sensor.id, key=given.key, name=given.name, color=given.color
        )
        fields = {"name": given.name, "unit": given.unit, "color": given.color.lower()}
        changed = assign(entry, fields) or changed
        kept.append(entry)
    if [entry.key for entry in kept] != [entry.key for entry in sensor.legend]:
        sensor.legend = kept
        changed = True
    return changed


def write(db: Session, entries: Entries[SensorIn], resolved: Any) -> Counts:
    sensors, companies, services = resolved
    counts = Counts()
    for _, item in entries:
        values = {
            "reference": item.reference,
            "company_id": companies[item.company].id,
            **item.values("group", "device", "name", "status", *_OPTIONAL),
        }
        if item.given("service"):
            values["service_id"] = services[item.service].id if item.service else None
        stored = sensors.get(item.reference)
        status_before = stored.status if stored is not None else None
        sensor, created, changed = upsert_row(Sensor, stored, values)
        if status_before is not None and sensor.status != status_before:
            db.flush()  # the event shows the sensor with its new status
            webhooks.announce_change(db, "sensor.status_changed", sensor.id, [sensor.company_id])
        if item.legend is not None:
            changed = _legend(sensor, item.legend) or changed
        db.add(sensor)
        counts.add(created, changed)
    return counts


KIND = Kind(
    name="sensor",
    path="sensors",
    model=SensorIn,
    limit=1_000,
    check=check,
    write=write,
    summary="Create or update monitoring sensors",
    description="Upsert up to 1 000 sensors keyed on `reference`, with their chart legend.",
    example=[
        {
            "reference": "PRTG-40211",
            "company": "C-1001",
            "group": "Paris PA2",
            "device": "pa2-edge-01",
            "name": "Traffic xe-0/0/1",
            "status": "up",
            "tags": ["product_ip_transit"],
            "clientReferences": ["ACME-PAR-001"],
            "legend": [
                {"key": "in", "name": "Traffic in", "unit": "Mbit/s", "color": "1f77b4"},
                {"key": "out", "name": "Traffic out", "unit": "Mbit/s", "color": "ff7f0e"},
            ],
        }
    ],
)
