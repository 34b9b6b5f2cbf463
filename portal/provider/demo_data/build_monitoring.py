"""Monitoring sensors grouped by site and device, their chart legends, and network paths."""

import random
from typing import NamedTuple

from portal.provider.demo_data.catalogue import SERVICE_TYPES, Family
from portal.provider.demo_data.context import SeedContext
from portal.provider.demo_data.people import ACME, CUSTOMER_COMPANIES, FRENCH_SPEAKING, GLOBEX
from portal.provider.demo_data.places import FRENCH_SITES, UK_SITES
from portal.provider.demo_data.samples import expected_value
from portal.provider.demo_data.sensors import (
    LATENCY,
    LOOKUP_VALUES,
    LOOKUP_VALUES_FR,
    OPERATIONAL_STATE,
    OPTICAL_POWER,
    POWER_DRAW,
    TEMPERATURE,
    TRAFFIC,
    Channel,
    SensorTemplate,
    reading_text,
)
from portal.provider.platform.models import (
    Sensor,
    SensorLegendEntry,
    SensorStatus,
    Service,
    ServiceStatus,
)

# What is watched on a service, by family; families absent here are not monitored.
WATCHED = {
    Family.TRANSIT: (TRAFFIC, LATENCY, OPERATIONAL_STATE),
    Family.ACCESS: (TRAFFIC, LATENCY, OPERATIONAL_STATE),
    Family.ETHERNET: (TRAFFIC, OPERATIONAL_STATE),
    Family.NETWORK_SERVICE: (TRAFFIC, LATENCY),
    Family.WAVELENGTH: (OPTICAL_POWER, TRAFFIC, OPERATIONAL_STATE),
    Family.OTN: (OPTICAL_POWER, OPERATIONAL_STATE),
    Family.DARK_FIBRE: (OPTICAL_POWER,),
    Family.STORAGE_NETWORK: (OPTICAL_POWER, OPERATIONAL_STATE),
    Family.COLOCATION: (TEMPERATURE, POWER_DRAW),
}
_OPTICAL = {Family.WAVELENGTH, Family.OTN, Family.DARK_FIBRE, Family.STORAGE_NETWORK}
_FACILITY_PORTS = {TEMPERATURE.kind: "Inlet A", POWER_DRAW.kind: "PDU A"}
PRODUCT_TAG_PREFIX = "product_"
# Path types (DESIGN section 6): sensors tagged so are left out of the status counts.
PATH_TAGS = ("product_path", "product_path_backup")
MAX_MONITORED_SERVICES = 8
# States the first sensors take, so that the demo has every status and lookup value.
SHOWCASE_STATUSES = (
    SensorStatus.WARNING,
    SensorStatus.DOWN,
    SensorStatus.PAUSED,
    SensorStatus.UNKNOWN,
)
SHOWCASE_LOOKUPS = ("testing", "down", "noData", "dormant", "notPresent", "lowerLayerDown")
_RANDOM_STATUSES = {
    SensorStatus.UP: 82,
    SensorStatus.WARNING: 7,
    SensorStatus.DOWN: 3,
    SensorStatus.PAUSED: 5,
    SensorStatus.UNKNOWN: 3,
}
_LOOKUP_STATUSES = {
    "up": SensorStatus.UP,
    "testing": SensorStatus.WARNING,
    "noData": SensorStatus.UNKNOWN,
    "unknown": SensorStatus.UNKNOWN,
}
_FAMILIES = {entry.key: entry.family for entry in SERVICE_TYPES}


class DemoSensor(NamedTuple):
    sensor: Sensor
    template: SensorTemplate
    company: str
    # The template's channels at this sensor's own level.
    channels: tuple[Channel, ...]


def build_monitoring(context: SeedContext) -> list[DemoSensor]:
    """Every sensor with its legend, flushed; ``build_samples`` adds the time series."""
    built: list[DemoSensor] = []
    for company in CUSTOMER_COMPANIES:
        built += [
            _demo_sensor(context, sensor, template, company)
            for service in _monitored_services(context, company)
            for sensor, template in _service_sensors(context, company, service)
        ]
        if company in (ACME, GLOBEX):
            built += _path_sensors(context, company)
    _set_states(context, built)
    for number, demo in enumerate(built, start=1):
        demo.sensor.reference = f"SNS-{number:05d}"
    context.session.add_all(demo.sensor for demo in built)
    context.session.flush()
    return built


def _demo_sensor(
    context: SeedContext, sensor: Sensor, template: SensorTemplate, company: str
) -> DemoSensor:
    level = 1 + context.rng.uniform(-template.variation, template.variation)
    channels = tuple(
        channel._replace(baseline=round(channel.baseline * level, 2))
        for channel in template.channels
    )
    return DemoSensor(sensor, template, company, channels)


def _monitored_services(context: SeedContext, company: str) -> list[Service]:
    live = (ServiceStatus.ACTIVE, ServiceStatus.UNDER_TERMINATION)
    watched = [
        service
        for service in context.services_of(company)
        if service.status in live and _FAMILIES[service.type.key] in WATCHED
    ]
    return watched[:MAX_MONITORED_SERVICES]


def _service_sensors(
    context: SeedContext, company: str, service: Service
) -> list[tuple[Sensor, SensorTemplate]]:
    family = _FAMILIES[service.type.key]
    site = service.endpoint_a
    group = site.name if site else "Core network"
    city = (site.city if site and site.city else "core")[:3].lower()
    device = f"{city}-ce{context.rng.randint(1, 4)} ({service.reference})"
    port = f"{'et' if family in _OPTICAL else 'xe'}-0/0/{context.rng.randint(0, 47)}"
    sensors = []
    for position, template in enumerate(WATCHED[family], start=1):
        port_label = _FACILITY_PORTS.get(template.kind, port)
        sensor = _sensor(context, company, template, group, device, port_label, position)
        sensor.tags = [PRODUCT_TAG_PREFIX + service.type.key, template.kind]
        sensor.client_references = list(service.client_references)
        sensor.service_id = service.id
        sensors.append((sensor, template))
    return sensors


def _path_sensors(context: SeedContext, company: str) -> list[DemoSensor]:
    """Latency along the primary and backup paths between two of the company's cities."""
    site_a, site_b = (FRENCH_SITES[0], FRENCH_SITES[5]) if company == ACME else UK_SITES[:3:2]
    device = f"{site_a.city} – {site_b.city}"
    sensors = []
    for position, (tag, role) in enumerate(zip(PATH_TAGS, ("primary", "backup"), strict=True)):
        port_label = f"path {role}"
        sensor = _sensor(context, company, LATENCY, "Network paths", device, port_label, position)
        sensor.tags = [tag, LATENCY.kind]
        sensors.append(_demo_sensor(context, sensor, LATENCY, company))
    return sensors


def _sensor(
    context: SeedContext,
    company: str,
    template: SensorTemplate,
    group: str,
    device: str,
    port_label: str,
    position: int,
) -> Sensor:
    sensor = Sensor(
        id=context.new_id(),
        reference="",
        company_id=context.companies[company].id,
        group=group,
        device=device,
        name=template.name.format(port=port_label),
        status=SensorStatus.UP,
        priority=context.rng.randint(1, 5),
        favorite=context.rng.random() < 0.15,
        is_lookup=template.is_lookup,
        desc=template.description,
        position=position,
        port_label=port_label,
    )
    sensor.legend = [
        SensorLegendEntry(
            id=context.new_id(),
            sensor_id=sensor.id,
            key=channel_key(channel.name),
            name=channel.name,
            unit=channel.unit or None,
            color=channel.color,
        )
        for channel in template.channels
    ]
    return sensor


def channel_key(channel_name: str) -> str:
    return channel_name.lower().replace(" ", "_")


_SILENT = {
    SensorStatus.PAUSED: "Paused",
    SensorStatus.UNKNOWN: "No data received",
    SensorStatus.DOWN: "No response from the device",
}
_SILENT_FR = {
    SensorStatus.PAUSED: "En pause",
    SensorStatus.UNKNOWN: "Aucune donnée reçue",
    SensorStatus.DOWN: "Pas de réponse de l'équipement",
}


def _set_states(context: SeedContext, sensors: list[DemoSensor]) -> None:
    """Status, value and description of each sensor, as the monitoring system last saw them.
    The first sensors (Acme's) take the showcase states, so the demo has every one of them."""
    statuses, lookups = iter(SHOWCASE_STATUSES), iter(SHOWCASE_LOOKUPS)
    for sensor, template, company, channels in sensors:
        french = company in FRENCH_SPEAKING
        if template.is_lookup:
            value = next(lookups, None) or _random_lookup(context.rng)
            sensor.status = _LOOKUP_STATUSES.get(value, SensorStatus.DOWN)
            sensor.value = value
            sensor.desc_value = (LOOKUP_VALUES_FR if french else LOOKUP_VALUES)[value]
            continue
        sensor.status = next(statuses, None) or _random_status(context.rng)
        if sensor.status in _SILENT:
            sensor.value = None
            sensor.desc_value = (_SILENT_FR if french else _SILENT)[sensor.status]
            continue
        channel = channels[0]
        reading = expected_value(channel, context.now)
        sensor.value = reading_text(reading, channel.unit)
        sensor.desc_value = f"{channel.name}: {sensor.value}"


def _random_status(rng: random.Random) -> SensorStatus:
    return rng.choices(list(_RANDOM_STATUSES), list(_RANDOM_STATUSES.values()))[0]


def _random_lookup(rng: random.Random) -> str:
    return "up" if rng.random() < 0.85 else rng.choice(("testing", "down", "noData"))
