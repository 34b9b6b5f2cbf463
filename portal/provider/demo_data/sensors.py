"""Monitoring sensor templates: what is measured, in which unit, drawn with which colours.

Sensor names follow the network equipment's own naming (interface names, English technical
terms), as monitoring systems report them; only the portal's labels around them are translated.
The states a monitoring system words ("Link down", "No data received") are in the company's
language, as a French-speaking company's monitoring is set up.
"""

from typing import NamedTuple


class Channel(NamedTuple):
    name: str
    unit: str
    color: str  # hex without '#', as the chart legend carries it
    # The samples: a baseline, a daily swing (fraction of the baseline) and noise (fraction).
    baseline: float
    daily_swing: float
    noise: float


class SensorTemplate(NamedTuple):
    kind: str
    name: str  # ``{port}`` is replaced by the port the sensor watches
    description: str
    channels: tuple[Channel, ...]
    # How much one sensor's level differs from another's (fraction of the baselines).
    variation: float = 0.0
    # Lookup sensors report a state (up, down, testing…) instead of a measured value.
    is_lookup: bool = False


TRAFFIC = SensorTemplate(
    "traffic",
    "Traffic {port}",
    "Traffic in and out",
    (
        Channel("Traffic in", "bit/s", "1f77b4", 3.2e9, 0.55, 0.08),
        Channel("Traffic out", "bit/s", "2ca02c", 1.8e9, 0.5, 0.1),
    ),
    variation=0.8,
)
LATENCY = SensorTemplate(
    "latency",
    "Ping {port}",
    "Round-trip time",
    (Channel("Round-trip time", "ms", "9467bd", 4.2, 0.1, 0.15),),
    variation=0.6,
)
OPTICAL_POWER = SensorTemplate(
    "optical_power",
    "Optical power {port}",
    "Received and transmitted optical power",
    (
        Channel("Rx power", "dBm", "ff7f0e", -7.5, 0.0, 0.02),
        Channel("Tx power", "dBm", "8c564b", -2.1, 0.0, 0.01),
    ),
    variation=0.3,
)
TEMPERATURE = SensorTemplate(
    "temperature",
    "Temperature {port}",
    "Inlet temperature",
    (Channel("Temperature", "°C", "d62728", 23.5, 0.06, 0.02),),
    variation=0.1,
)
POWER_DRAW = SensorTemplate(
    "power_draw",
    "Power draw {port}",
    "Electrical power drawn by the rack",
    (Channel("Power", "kW", "bcbd22", 3.4, 0.08, 0.03),),
    variation=0.4,
)
OPERATIONAL_STATE = SensorTemplate(
    "operational_state",
    "Link state {port}",
    "Operational state of the interface",
    (Channel("State", "", "17becf", 1.0, 0.0, 0.0),),
    is_lookup=True,
)

_BIT_PREFIXES = ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"))


def reading_text(value: float, unit: str) -> str:
    """A reading as a monitoring system reports it: ``2.4 Gbit/s``, ``4.2 ms``."""
    if unit == "bit/s":
        factor, prefix = next(((f, p) for f, p in _BIT_PREFIXES if abs(value) >= f), (1.0, ""))
        return f"{value / factor:.1f} {prefix}bit/s"
    return f"{value:.1f} {unit}".strip()


TEMPLATES = (TRAFFIC, LATENCY, OPTICAL_POWER, TEMPERATURE, POWER_DRAW, OPERATIONAL_STATE)

# Values lookup sensors report, and the description each is shown with.
LOOKUP_VALUES: dict[str, str] = {
    "up": "Link up",
    "testing": "Link in test mode",
    "down": "Link down",
    "noData": "No data received",
    "unknown": "State unknown",
    "dormant": "Link dormant",
    "notPresent": "Transceiver not present",
    "lowerLayerDown": "Lower layer down",
}
LOOKUP_VALUES_FR: dict[str, str] = {
    "up": "Lien actif",
    "testing": "Lien en mode test",
    "down": "Lien coupé",
    "noData": "Aucune donnée reçue",
    "unknown": "État inconnu",
    "dormant": "Lien en veille",
    "notPresent": "Émetteur-récepteur absent",
    "lowerLayerDown": "Couche inférieure coupée",
}
