"""Technical attributes of a demo service, by product family (spec section 3)."""

import random
from typing import NamedTuple

from portal.provider.demo_data.catalogue import Family, ServiceTypeEntry
from portal.provider.demo_data.places import Site
from portal.provider.services.catalogue import (
    FIBRE_CHANNEL_RATES,
    OTN_RATES,
    RACK_UNITS,
    RATES,
    SERVICE_LEVELS,
    STRAND_COUNTS,
)

# Other networks a cross-connect may lead to.
CARRIERS = ("Hexaline Carrier", "Manche Telecom", "Transalpine Networks", "Eurobridge Fibre")
_CHARACTERISTICS = "characteristics"
_ENUMERATED = frozenset(
    {"rate", "serviceLevel", "protocolAndRate", "rackCount", "strandCount", "interface"}
)


class Attribute(NamedTuple):
    name: str
    value: str
    group_name: str
    constrained: bool


def _location(rng: random.Random, site: Site) -> str:
    return f"{site.name}, room {rng.randint(1, 4)}, rack {_rack(rng)}"


def _rack(rng: random.Random) -> str:
    return f"{rng.choice('ABCDEF')}{rng.randint(1, 24):02d}"


def _delivery_point(rng: random.Random, group: str) -> list[tuple[str, str, str]]:
    """Room, rack, drawer and port of one end, as installers label them."""
    return [
        ("room", f"S{rng.randint(1, 4)}", group),
        ("rack", _rack(rng), group),
        ("drawer", f"T{rng.randint(1, 12):02d}", group),
        ("port", f"{rng.randint(1, 24)}-{rng.randint(1, 24) + 24}", group),
    ]


def _two_ends(rng: random.Random, site_a: Site, site_b: Site) -> list[tuple[str, str, str]]:
    return [
        ("from", site_a.city, _CHARACTERISTICS),
        ("to", site_b.city, _CHARACTERISTICS),
        ("deliveryPointA", _location(rng, site_a), _CHARACTERISTICS),
        ("deliveryPointB", _location(rng, site_b), _CHARACTERISTICS),
    ]


def _family_attributes(
    rng: random.Random, entry: ServiceTypeEntry, site_a: Site, site_b: Site | None
) -> list[tuple[str, str, str]]:
    level = ("serviceLevel", rng.choice(SERVICE_LEVELS), _CHARACTERISTICS)
    ends = _two_ends(rng, site_a, site_b) if site_b else []
    match entry.family:
        case Family.TRANSIT | Family.ACCESS:
            interface = rng.choice(("1000BASE-LX", "10GBASE-LR", "100GBASE-LR4"))
            return [
                ("rate", rng.choice(RATES), _CHARACTERISTICS),
                (
                    "protocol",
                    rng.choice(("BGP", "BGP + static IPv6", "Static routing")),
                    _CHARACTERISTICS,
                ),
                ("interface", interface, _CHARACTERISTICS),
                level,
                *_delivery_point(rng, "deliveryPointA"),
            ]
        case Family.ETHERNET:
            return [
                *ends,
                ("rate", rng.choice(RATES), _CHARACTERISTICS),
                (
                    "protocol",
                    rng.choice(("Ethernet 802.1Q", "Ethernet QinQ", "Ethernet port-based")),
                    _CHARACTERISTICS,
                ),
                ("interface", rng.choice(("1000BASE-LX", "10GBASE-LR")), _CHARACTERISTICS),
                level,
            ]
        case Family.WAVELENGTH:
            rate = {"wavelength_10g": "10GE LAN PHY", "wavelength_400g": "400GE"}.get(
                entry.key, "100GE"
            )
            return [*ends, ("protocolAndRate", rate, _CHARACTERISTICS), level]
        case Family.OTN:
            rate = OTN_RATES[2] if entry.key == "otn_odu4" else rng.choice(OTN_RATES[:2])
            return [*ends, ("protocolAndRate", rate, _CHARACTERISTICS), level]
        case Family.DARK_FIBRE:
            return [
                *ends,
                ("strandCount", rng.choice(STRAND_COUNTS[:5]), _CHARACTERISTICS),
                (
                    "cable",
                    f"CBL-{site_a.city[:3].upper()}-{rng.randint(100, 999)}",
                    _CHARACTERISTICS,
                ),
                *_delivery_point(rng, "deliveryPointA"),
                *_delivery_point(rng, "deliveryPointB"),
            ]
        case Family.COLOCATION:
            units = "10 U" if entry.key == "colocation_quarter_rack" else None
            return [
                ("room", f"S{rng.randint(1, 4)}", _CHARACTERISTICS),
                ("rack", _rack(rng), _CHARACTERISTICS),
                *([("rackCount", units, _CHARACTERISTICS)] if units else []),
                level,
            ]
        case Family.CROSS_CONNECT:
            medium = "LC/UPC single-mode" if entry.key.endswith("fibre") else "RJ45 Cat6A"
            return [
                ("companyName", rng.choice(CARRIERS), _CHARACTERISTICS),
                ("interface", medium, _CHARACTERISTICS),
                ("cable", f"XC-{rng.randint(10000, 99999)}", _CHARACTERISTICS),
                *_delivery_point(rng, "deliveryPointA"),
                *_delivery_point(rng, "deliveryPointB"),
            ]
        case Family.HOSTING | Family.EQUIPMENT:
            return [
                ("rackCount", rng.choice(RACK_UNITS[:5]), _CHARACTERISTICS),
                (
                    "interface",
                    rng.choice(("2 × 10GBASE-SR", "4 × 25GBASE-SR", "48 × 1000BASE-T")),
                    _CHARACTERISTICS,
                ),
                level,
            ]
        case Family.STORAGE_NETWORK:
            return [
                *ends,
                ("protocolAndRate", rng.choice(FIBRE_CHANNEL_RATES), _CHARACTERISTICS),
                level,
            ]
        case Family.VOICE:
            return [
                ("protocol", "SIP over UDP", _CHARACTERISTICS),
                ("port", "5060", _CHARACTERISTICS),
                level,
            ]
        case Family.NETWORK_SERVICE:
            return [("rate", rng.choice(RATES), _CHARACTERISTICS), level]
        case Family.ON_SITE:
            return [("room", f"S{rng.randint(1, 4)}", _CHARACTERISTICS), level]
    return [level]


def service_attributes(
    rng: random.Random, entry: ServiceTypeEntry, site_a: Site, site_b: Site | None
) -> list[Attribute]:
    return [
        Attribute(name, value, group, name in _ENUMERATED)
        for name, value, group in _family_attributes(rng, entry, site_a, site_b)
    ]
