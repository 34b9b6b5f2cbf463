"""Word lists for generated companies and people (invented; any likeness is chance)."""

COMPANY_WORDS = (
    "Alder", "Amber", "Arden", "Argent", "Aster", "Atlas", "Aurora", "Azur", "Basalt", "Beacon",
    "Birch", "Cedar", "Cirrus", "Cobalt", "Comet", "Coral", "Delta", "Ember", "Falcon", "Fjord",
    "Granite", "Harbour", "Helix", "Horizon", "Indigo", "Iris", "Juniper", "Kestrel", "Lumen",
    "Maple", "Meridian", "Mistral", "Nimbus", "Onyx", "Orion", "Pioneer", "Quartz", "Sierra",
    "Summit", "Tidal",
)  # fmt: skip
COMPANY_KINDS = (
    "Networks", "Telecom", "Data", "Cloud", "Hosting", "Fibre", "Connect", "Systems", "Logistics",
    "Media", "Energy", "Retail", "Bank", "Insurance", "Health",
)  # fmt: skip
COMPANY_PLACES = (
    "Paris", "Lyon", "Marseille", "Lille", "Nantes", "Bordeaux", "Toulouse", "Strasbourg", "Rennes",
    "Nice", "London", "Manchester", "Leeds", "Bristol", "Glasgow", "Edinburgh", "Birmingham",
    "Cardiff", "Belfast", "Dublin",
)  # fmt: skip
FIRST_NAMES = (
    "Camille", "Léa", "Chloé", "Manon", "Inès", "Jade", "Louise", "Zoé", "Hugo", "Lucas", "Théo",
    "Nathan", "Louis", "Jules", "Gabriel", "Arthur", "Émile", "Noé", "Amélie", "Hélène", "Olivia",
    "Amelia", "Isla", "Ava", "Emily", "Sophie", "Grace", "Oliver", "George", "Harry", "Jack",
    "Jacob", "Charlie", "Thomas", "William", "James", "Siobhan", "Aoife", "Rhys", "Ewan",
)  # fmt: skip
LAST_NAMES = (
    "Martin", "Bernard", "Dubois", "Thomas", "Robert", "Richard", "Petit", "Durand", "Leroy",
    "Moreau", "Simon", "Laurent", "Lefèvre", "Michel", "Garcia", "David", "Bertrand", "Roux",
    "Vincent", "Fournier", "Smith", "Jones", "Taylor", "Brown", "Williams", "Wilson", "Johnson",
    "Davies", "Robinson", "Wright", "Thompson", "Evans", "Walker", "White", "Roberts", "Green",
    "Hall", "Wood", "Jackson", "O'Brien",
)  # fmt: skip
