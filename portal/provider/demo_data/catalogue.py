"""The catalogue of service types a network and infrastructure provider sells.

Plain data, shared by the demo seed and by anything that needs the product list (the benchmark
generator, an import of a real catalogue). Keys are stable identifiers: they never change once
a service refers to them; labels may be reworded freely. The attributes a service carries are
the provider's own catalogue (``portal.provider.services.catalogue``).
"""

from enum import StrEnum
from typing import NamedTuple


class Family(StrEnum):
    """Groups of products that share their technical attributes."""

    TRANSIT = "transit"
    ACCESS = "access"
    ETHERNET = "ethernet"
    WAVELENGTH = "wavelength"
    OTN = "otn"
    DARK_FIBRE = "dark_fibre"
    COLOCATION = "colocation"
    CROSS_CONNECT = "cross_connect"
    ON_SITE = "on_site"
    HOSTING = "hosting"
    EQUIPMENT = "equipment"
    NETWORK_SERVICE = "network_service"
    STORAGE_NETWORK = "storage_network"
    VOICE = "voice"


class ServiceTypeEntry(NamedTuple):
    key: str
    label_en: str
    label_fr: str
    family: Family


SERVICE_TYPES: tuple[ServiceTypeEntry, ...] = (
    # Internet
    ServiceTypeEntry("ip_transit", "IP transit", "Transit IP", Family.TRANSIT),
    ServiceTypeEntry(
        "internet_exchange_port",
        "Internet exchange port",
        "Port d'échange internet (IX)",
        Family.TRANSIT,
    ),
    ServiceTypeEntry(
        "internet_access_fibre", "Internet access – fibre", "Accès internet – fibre", Family.ACCESS
    ),
    ServiceTypeEntry(
        "internet_access_copper",
        "Internet access – copper (SDSL/VDSL)",
        "Accès internet – cuivre (SDSL/VDSL)",
        Family.ACCESS,
    ),
    ServiceTypeEntry(
        "internet_access_mobile_backup",
        "Internet access – 4G/5G backup",
        "Accès internet – secours 4G/5G",
        Family.ACCESS,
    ),
    # Ethernet
    ServiceTypeEntry(
        "ethernet_epl",
        "Ethernet private line (EPL)",
        "Ligne privée Ethernet (EPL)",
        Family.ETHERNET,
    ),
    ServiceTypeEntry(
        "ethernet_evpl",
        "Ethernet virtual private line (EVPL)",
        "Ligne privée virtuelle Ethernet (EVPL)",
        Family.ETHERNET,
    ),
    ServiceTypeEntry(
        "ethernet_elan",
        "Ethernet multipoint (E-LAN)",
        "Ethernet multipoint (E-LAN)",
        Family.ETHERNET,
    ),
    ServiceTypeEntry(
        "mobile_backhaul", "Mobile backhaul", "Collecte mobile (backhaul)", Family.ETHERNET
    ),
    # Optical
    ServiceTypeEntry("wavelength_10g", "Wavelength 10G", "Longueur d'onde 10G", Family.WAVELENGTH),
    ServiceTypeEntry(
        "wavelength_100g", "Wavelength 100G", "Longueur d'onde 100G", Family.WAVELENGTH
    ),
    ServiceTypeEntry(
        "wavelength_400g", "Wavelength 400G", "Longueur d'onde 400G", Family.WAVELENGTH
    ),
    ServiceTypeEntry(
        "data_centre_interconnect",
        "Data centre interconnect (DCI)",
        "Interconnexion de centres de données (DCI)",
        Family.WAVELENGTH,
    ),
    ServiceTypeEntry("otn_odu2", "OTN ODU2 (10G)", "OTN ODU2 (10G)", Family.OTN),
    ServiceTypeEntry("otn_odu4", "OTN ODU4 (100G)", "OTN ODU4 (100G)", Family.OTN),
    # Fibre
    ServiceTypeEntry(
        "dark_fibre_metro", "Dark fibre – metro", "Fibre noire – métropolitaine", Family.DARK_FIBRE
    ),
    ServiceTypeEntry(
        "dark_fibre_long_haul",
        "Dark fibre – long haul",
        "Fibre noire – longue distance",
        Family.DARK_FIBRE,
    ),
    ServiceTypeEntry(
        "fibre_iru",
        "Fibre IRU (indefeasible right of use)",
        "Fibre en IRU (droit irrévocable d'usage)",
        Family.DARK_FIBRE,
    ),
    ServiceTypeEntry("duct_rental", "Duct rental", "Location de fourreaux", Family.DARK_FIBRE),
    # Data centre
    ServiceTypeEntry(
        "colocation_rack", "Colocation – full rack", "Colocation – baie complète", Family.COLOCATION
    ),
    ServiceTypeEntry(
        "colocation_half_rack",
        "Colocation – half rack",
        "Colocation – demi-baie",
        Family.COLOCATION,
    ),
    ServiceTypeEntry(
        "colocation_quarter_rack",
        "Colocation – quarter rack",
        "Colocation – quart de baie",
        Family.COLOCATION,
    ),
    ServiceTypeEntry(
        "colocation_cage",
        "Colocation – private cage",
        "Colocation – cage privative",
        Family.COLOCATION,
    ),
    ServiceTypeEntry(
        "power_feed",
        "Additional power feed",
        "Alimentation électrique supplémentaire",
        Family.COLOCATION,
    ),
    ServiceTypeEntry(
        "cross_connect_fibre", "Cross-connect – fibre", "Jarretière optique", Family.CROSS_CONNECT
    ),
    ServiceTypeEntry(
        "cross_connect_copper", "Cross-connect – copper", "Jarretière cuivre", Family.CROSS_CONNECT
    ),
    ServiceTypeEntry(
        "remote_hands", "Remote hands", "Intervention sur site (remote hands)", Family.ON_SITE
    ),
    # Hosting
    ServiceTypeEntry("virtual_server", "Virtual server", "Serveur virtuel", Family.HOSTING),
    ServiceTypeEntry("dedicated_server", "Dedicated server", "Serveur dédié", Family.HOSTING),
    ServiceTypeEntry("managed_firewall", "Managed firewall", "Pare-feu infogéré", Family.HOSTING),
    ServiceTypeEntry("cloud_backup", "Cloud backup", "Sauvegarde externalisée", Family.HOSTING),
    ServiceTypeEntry("object_storage", "Object storage", "Stockage objet", Family.HOSTING),
    # Equipment
    ServiceTypeEntry("router_sale", "Router – sale", "Routeur – vente", Family.EQUIPMENT),
    ServiceTypeEntry("router_rental", "Router – rental", "Routeur – location", Family.EQUIPMENT),
    ServiceTypeEntry("switch_sale", "Switch – sale", "Commutateur – vente", Family.EQUIPMENT),
    ServiceTypeEntry(
        "switch_rental", "Switch – rental", "Commutateur – location", Family.EQUIPMENT
    ),
    ServiceTypeEntry(
        "optical_transceiver_sale",
        "Optical transceiver – sale",
        "Module optique – vente",
        Family.EQUIPMENT,
    ),
    # Network services
    ServiceTypeEntry("ip_vpn_mpls", "IP VPN (MPLS)", "VPN IP (MPLS)", Family.NETWORK_SERVICE),
    ServiceTypeEntry("sd_wan", "SD-WAN", "SD-WAN", Family.NETWORK_SERVICE),
    ServiceTypeEntry(
        "ddos_protection", "DDoS protection", "Protection anti-DDoS", Family.NETWORK_SERVICE
    ),
    ServiceTypeEntry(
        "ip_address_block", "IP address block", "Bloc d'adresses IP", Family.NETWORK_SERVICE
    ),
    ServiceTypeEntry("managed_dns", "Managed DNS", "DNS infogéré", Family.NETWORK_SERVICE),
    ServiceTypeEntry("managed_wifi", "Managed Wi-Fi", "Wi-Fi infogéré", Family.NETWORK_SERVICE),
    ServiceTypeEntry("fibre_channel", "Fibre Channel", "Fibre Channel", Family.STORAGE_NETWORK),
    ServiceTypeEntry("sip_trunk", "Voice SIP trunk", "Trunk SIP (voix)", Family.VOICE),
)
