"""Sites where services start and end: data centres, offices and exchanges in France and the UK.

Street names and postcodes are real-looking; the site names are invented.
"""

from typing import NamedTuple


class Site(NamedTuple):
    name: str
    number: str
    street: str
    postal_code: str
    city: str
    country: str
    # Data centres host colocation, cross-connects and on-site work; offices do not.
    is_data_centre: bool


FRENCH_SITES: tuple[Site, ...] = (
    Site("Paris Nord DC2", "114", "Rue Ambroise Croizat", "93200", "Saint-Denis", "France", True),
    Site("Paris Voltaire DC", "137", "Boulevard Voltaire", "75011", "Paris", "France", True),
    Site(
        "Aubervilliers Campus", "45", "Avenue Victor Hugo", "93300", "Aubervilliers", "France", True
    ),
    Site(
        "Courbevoie La Défense POP",
        "8",
        "Rue des Trois Fontanot",
        "92400",
        "Courbevoie",
        "France",
        True,
    ),
    Site("Marseille MRS1", "40", "Avenue Roger Salengro", "13003", "Marseille", "France", True),
    Site("Lyon Gerland DC", "27", "Rue du Colombier", "69007", "Lyon", "France", True),
    Site("Lille Euratech POP", "165", "Avenue de Bretagne", "59000", "Lille", "France", True),
    Site("Bordeaux Lac DC", "12", "Rue Théodore Blanc", "33300", "Bordeaux", "France", True),
    Site(
        "Strasbourg Port du Rhin", "3", "Rue du Port du Rhin", "67100", "Strasbourg", "France", True
    ),
    Site("Acme siège", "21", "Rue de la Chaussée-d'Antin", "75009", "Paris", "France", False),
    Site("Agence Nantes", "6", "Quai de la Fosse", "44000", "Nantes", "France", False),
    Site("Agence Toulouse", "54", "Allées Jean Jaurès", "31000", "Toulouse", "France", False),
    Site("Boréal Télécom NOC", "18", "Rue Garibaldi", "69006", "Lyon", "France", False),
    Site(
        "Centre technique Rennes",
        "2",
        "Rue de la Frébardière",
        "35510",
        "Cesson-Sévigné",
        "France",
        False,
    ),
    Site("Site Sophia Antipolis", "930", "Route des Colles", "06410", "Biot", "France", False),
    Site(
        "Entrepôt Gennevilliers",
        "29",
        "Route du Môle Central",
        "92230",
        "Gennevilliers",
        "France",
        False,
    ),
)

UK_SITES: tuple[Site, ...] = (
    Site(
        "London Docklands LD8",
        "6",
        "Harbour Exchange Square",
        "E14 9GE",
        "London",
        "United Kingdom",
        True,
    ),
    Site(
        "London Slough SL4", "2", "Buckingham Avenue", "SL1 4NB", "Slough", "United Kingdom", True
    ),
    Site(
        "Manchester MA3",
        "1",
        "Williams House, Manchester Science Park",
        "M15 6SE",
        "Manchester",
        "United Kingdom",
        True,
    ),
    Site(
        "Edinburgh South Gyle DC",
        "10",
        "South Gyle Crescent",
        "EH12 9EB",
        "Edinburgh",
        "United Kingdom",
        True,
    ),
    Site(
        "Initech Hosting office", "88", "Wood Street", "EC2V 7RS", "London", "United Kingdom", False
    ),
    Site(
        "Nordic Fibre head office",
        "15",
        "Grey Street",
        "NE1 6EE",
        "Newcastle upon Tyne",
        "United Kingdom",
        False,
    ),
    Site(
        "Globex Bristol campus",
        "3",
        "Temple Back East",
        "BS1 6EG",
        "Bristol",
        "United Kingdom",
        False,
    ),
    Site(
        "Leeds City exchange",
        "47",
        "Wellington Street",
        "LS1 4JY",
        "Leeds",
        "United Kingdom",
        False,
    ),
)

ALL_SITES = FRENCH_SITES + UK_SITES
