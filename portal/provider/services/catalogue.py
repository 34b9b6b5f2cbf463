"""The service attributes the provider knows (spec section 3): their names, the groups they are
shown under and the enumerated values, each with its label.

The API labels attributes from here in the reader's language, and the demo data picks its values
from here. Names and values are stable identifiers, labels may be reworded freely; an attribute,
group or value the catalogue lacks is sent with its raw text.
"""

from portal.i18n import N_

# Service attributes (spec section 3): the names the provider sends, with their labels.
ATTRIBUTE_LABELS = {
    "from": N_("From"),
    "to": N_("To"),
    "rate": N_("Rate"),
    "protocol": N_("Protocol"),
    "port": N_("Port"),
    "strandCount": N_("Strand count"),
    "rackCount": N_("Rack units"),
    "deliveryPointA": N_("Delivery point A"),
    "deliveryPointB": N_("Delivery point B"),
    "companyName": N_("Company name"),
    "room": N_("Room"),
    "rack": N_("Rack"),
    "drawer": N_("Drawer"),
    "cable": N_("Cable"),
    "serviceLevel": N_("Service level"),
    "protocolAndRate": N_("Protocol and rate"),
    "interface": N_("Interface"),
}
ATTRIBUTE_NAMES = tuple(ATTRIBUTE_LABELS)
# Groups an attribute is shown under; the two delivery point groups hold room, rack, drawer…
GROUP_LABELS = {
    "characteristics": N_("Characteristics"),
    "deliveryPointA": N_("Delivery point A"),
    "deliveryPointB": N_("Delivery point B"),
}
ATTRIBUTE_GROUPS = tuple(GROUP_LABELS)

# The enumerated values, each with its label (French writes decimals with a comma).
RATE_LABELS = {
    "1 Gbit/s": N_("1 Gbit/s"),
    "10 Gbit/s": N_("10 Gbit/s"),
    "100 Gbit/s": N_("100 Gbit/s"),
}
RACK_UNIT_LABELS = {
    "0.5 U": N_("0.5 U"),
    "1 U": N_("1 U"),
    "2 U": N_("2 U"),
    "3 U": N_("3 U"),
    "4 U": N_("4 U"),
    "5 U": N_("5 U"),
    "6 U": N_("6 U"),
    "7 U": N_("7 U"),
    "8 U": N_("8 U"),
    "9 U": N_("9 U"),
    "10 U": N_("10 U"),
}
SERVICE_LEVEL_LABELS = {
    "standard": N_("Standard"),
    "enhanced": N_("Enhanced"),
    "premium": N_("Premium"),
    "highAvailability": N_("High availability"),
}
OTN_RATE_LABELS = {
    "ODU2 – 10.04 Gbit/s": N_("ODU2 – 10.04 Gbit/s"),
    "ODU2e – 10.40 Gbit/s": N_("ODU2e – 10.40 Gbit/s"),
    "ODU4 – 104.79 Gbit/s": N_("ODU4 – 104.79 Gbit/s"),
}
FIBRE_CHANNEL_RATE_LABELS = {
    "8GFC – 8.5 Gbit/s": N_("8GFC – 8.5 Gbit/s"),
    "16GFC – 14.03 Gbit/s": N_("16GFC – 14.03 Gbit/s"),
    "32GFC – 28.05 Gbit/s": N_("32GFC – 28.05 Gbit/s"),
}
STRAND_COUNTS = ("2", "4", "8", "12", "24", "48", "96", "144")
RATES = tuple(RATE_LABELS)
RACK_UNITS = tuple(RACK_UNIT_LABELS)
SERVICE_LEVELS = tuple(SERVICE_LEVEL_LABELS)
OTN_RATES = tuple(OTN_RATE_LABELS)
FIBRE_CHANNEL_RATES = tuple(FIBRE_CHANNEL_RATE_LABELS)
# Every enumerated value's label, whatever the attribute: values never collide across lists.
VALUE_LABELS = {
    **RATE_LABELS,
    **RACK_UNIT_LABELS,
    **SERVICE_LEVEL_LABELS,
    **OTN_RATE_LABELS,
    **FIBRE_CHANNEL_RATE_LABELS,
}
