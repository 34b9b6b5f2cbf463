"""Companies and people of the demo: the provider's sales team and its customers' users.

The accounts of DESIGN section 7 are among them, with their exact e-mails and roles; every other
person exists so that lists page, contacts have managers and assistants, and staff have somebody
to impersonate. Phone numbers come from the ranges the French (ARCEP) and British (Ofcom)
regulators reserve for fiction, so none of them rings anybody.
"""

from typing import NamedTuple

from portal.permissions import Role
from portal.provider.platform.models import Job

# Published in DESIGN section 7 and printed by ``make run``: a demo password, not a secret.
DEMO_PASSWORD = "Patchbay-demo-2026"

# The staff company's name comes from the settings; this key stands for it below.
STAFF_COMPANY = "staff"
ACME = "Acme Networks"
ACME_BENELUX = "Acme Networks Benelux"
GLOBEX = "Globex"
BOREAL = "Boréal Télécom"
INITECH = "Initech Hosting"
NORDIC = "Nordic Fibre Ltd"
RHONE = "Rhône Data Centres"

CUSTOMER_COMPANIES = (ACME, ACME_BENELUX, GLOBEX, BOREAL, INITECH, NORDIC, RHONE)
# Customers billed and supported in French; the others get English texts.
FRENCH_SPEAKING = frozenset({ACME, BOREAL, RHONE})
# Billing addresses (street, postal code, city, country), printed on the invoices.
COMPANY_ADDRESSES = {
    ACME: ("27 avenue des Câbles", "92100", "Boulogne-Billancourt", "France"),
    ACME_BENELUX: ("Glasvezelstraat 14", "1043 GR", "Amsterdam", "Netherlands"),
    GLOBEX: ("100 Fibre Lane", "EC2A 4NE", "London", "United Kingdom"),
    BOREAL: ("8 quai des Ondes", "69002", "Lyon", "France"),
    INITECH: ("4120 Freidrich Lane", "78744", "Austin, TX", "United States"),
    NORDIC: ("Kuituvägen 3", "00100", "Helsinki", "Finland"),
    RHONE: ("15 rue du Datacentre", "13002", "Marseille", "France"),
}


class Person(NamedTuple):
    email: str
    firstname: str
    lastname: str
    company: str
    roles: tuple[Role, ...] = ()
    job: Job | None = None
    office_phone: str | None = None
    mobile_phone: str | None = None
    auxiliary_companies: tuple[str, ...] = ()
    has_accepted_terms: bool = True
    # Staff only: the e-mail of the manager, and the customers this person sells to.
    manager: str | None = None
    assistants: tuple[str, ...] = ()
    serves: tuple[str, ...] = ()
    # Shown in ``make run``'s table of demo logins; only the accounts of DESIGN section 7.
    demo_description: str | None = None


STAFF: tuple[Person, ...] = (
    Person(
        "admin@patchbay.test",
        "Nadia",
        "Benali",
        STAFF_COMPANY,
        (Role.ADMIN,),
        office_phone="+33 1 99 00 12 01",
        demo_description="Staff administrator",
    ),
    Person(
        "sales@patchbay.test",
        "Julien",
        "Lefèvre",
        STAFF_COMPANY,
        (Role.SPH_SALES,),
        job=Job.CORPORATE_SALES_MANAGER,
        office_phone="+33 1 99 00 12 10",
        mobile_phone="+33 6 39 98 12 10",
        manager="olivier.bertin@patchbay.test",
        assistants=("camille.dubois@patchbay.test",),
        serves=(ACME, BOREAL, GLOBEX),
        demo_description="Staff sales, impersonates customers",
    ),
    Person(
        "support@patchbay.test",
        "Kévin",
        "Moreau",
        STAFF_COMPANY,
        (Role.SPH_READ_ONLY,),
        office_phone="+33 1 99 00 12 20",
        demo_description="Staff support, read-only",
    ),
    Person(
        "usermanager@patchbay.test",
        "Isabelle",
        "Fontaine",
        STAFF_COMPANY,
        (Role.SPH_MANAGE_USERS,),
        office_phone="+33 1 99 00 12 30",
        demo_description="Staff user manager",
    ),
    Person(
        "helene.marchand@patchbay.test",
        "Hélène",
        "Marchand",
        STAFF_COMPANY,
        (Role.SPH_READ_ONLY,),
        job=Job.CEO,
        office_phone="+33 1 99 00 10 00",
        # A loop the contacts walk must end: Nathalie assists Hélène, who is her manager.
        assistants=("nathalie.roux@patchbay.test",),
    ),
    Person(
        "olivier.bertin@patchbay.test",
        "Olivier",
        "Bertin",
        STAFF_COMPANY,
        (Role.SPH_SALES,),
        job=Job.SALES_DIRECTOR_FRANCE,
        office_phone="+33 1 99 00 11 00",
        mobile_phone="+33 6 39 98 11 00",
        manager="helene.marchand@patchbay.test",
        assistants=("nathalie.roux@patchbay.test",),
    ),
    Person(
        "sarah.whitfield@patchbay.test",
        "Sarah",
        "Whitfield",
        STAFF_COMPANY,
        (Role.SPH_SALES,),
        job=Job.DEPUTY_SALES_DIRECTOR,
        office_phone="+44 20 7946 0110",
        mobile_phone="+44 7700 900110",
        manager="olivier.bertin@patchbay.test",
        assistants=("lucy.hughes@patchbay.test",),
    ),
    Person(
        "priya.raman@patchbay.test",
        "Priya",
        "Raman",
        STAFF_COMPANY,
        (Role.SPH_SALES,),
        job=Job.WHOLESALES_MANAGER,
        office_phone="+44 20 7946 0120",
        mobile_phone="+44 7700 900120",
        manager="sarah.whitfield@patchbay.test",
        assistants=("lucy.hughes@patchbay.test",),
        serves=(GLOBEX, NORDIC, INITECH),
    ),
    Person(
        "thomas.girard@patchbay.test",
        "Thomas",
        "Girard",
        STAFF_COMPANY,
        (Role.SPH_SALES,),
        job=Job.BUSINESS_ENGINEER,
        office_phone="+33 4 65 71 12 40",
        mobile_phone="+33 6 39 98 12 40",
        manager="sales@patchbay.test",
        assistants=("camille.dubois@patchbay.test",),
        serves=(ACME, RHONE, BOREAL),
    ),
    Person(
        "emma.clarke@patchbay.test",
        "Emma",
        "Clarke",
        STAFF_COMPANY,
        (Role.SPH_SALES,),
        job=Job.BUSINESS_ENGINEER,
        office_phone="+44 161 496 0150",
        mobile_phone="+44 7700 900150",
        manager="priya.raman@patchbay.test",
        serves=(ACME_BENELUX, INITECH),
    ),
    Person(
        "marc-antoine.petit@patchbay.test",
        "Marc-Antoine",
        "Petit",
        STAFF_COMPANY,
        (Role.SPH_READ_ONLY,),
        job=Job.SALES_ADMINISTRATION_MANAGER,
        office_phone="+33 1 99 00 11 60",
        manager="olivier.bertin@patchbay.test",
    ),
    Person(
        "camille.dubois@patchbay.test",
        "Camille",
        "Dubois",
        STAFF_COMPANY,
        (Role.SPH_READ_ONLY,),
        job=Job.SALES_ASSISTANT,
        office_phone="+33 1 99 00 11 70",
        manager="marc-antoine.petit@patchbay.test",
    ),
    Person(
        "nathalie.roux@patchbay.test",
        "Nathalie",
        "Roux",
        STAFF_COMPANY,
        (Role.SPH_READ_ONLY,),
        job=Job.SALES_MANAGEMENT_ASSISTANT,
        office_phone="+33 1 99 00 11 80",
        manager="helene.marchand@patchbay.test",
    ),
    Person(
        "lucy.hughes@patchbay.test",
        "Lucy",
        "Hughes",
        STAFF_COMPANY,
        (Role.SPH_READ_ONLY,),
        job=Job.SALES_ASSISTANT,
        office_phone="+44 20 7946 0190",
        manager="marc-antoine.petit@patchbay.test",
    ),
)

CUSTOMERS: tuple[Person, ...] = (
    Person(
        "alice@acme-networks.test",
        "Alice",
        "Martin",
        ACME,
        (Role.MANAGE_USERS, Role.ACCESS_INVOICES, Role.ACCESS_MONITORING, Role.REFERENCE_MASTER),
        office_phone="+33 1 99 00 21 01",
        mobile_phone="+33 6 39 98 21 01",
        auxiliary_companies=(ACME_BENELUX,),
        demo_description="Acme Networks and Benelux: users, invoices, monitoring, references",
    ),
    Person(
        "bob@acme-networks.test",
        "Bob",
        "Durand",
        ACME,
        (Role.ACCESS_MONITORING,),
        office_phone="+33 1 99 00 21 02",
        demo_description="Acme Networks: monitoring only",
    ),
    Person(
        "claire@globex.test",
        "Claire",
        "Dupont",
        GLOBEX,
        (Role.MANAGE_USERS, Role.ACCESS_INVOICES),
        office_phone="+44 117 496 0301",
        mobile_phone="+44 7700 900301",
        demo_description="Globex: users, invoices",
    ),
    Person(
        "newbie@acme-networks.test",
        "Noé",
        "Lambert",
        ACME,
        (Role.ACCESS_INVOICES,),
        has_accepted_terms=False,
        demo_description="Acme Networks: has not accepted the terms of use yet",
    ),
    Person(
        "jerome.caron@acme-networks.test",
        "Jérôme",
        "Caron",
        ACME,
        (Role.ACCESS_MONITORING, Role.REFERENCE_MASTER),
        office_phone="+33 1 99 00 21 05",
    ),
    Person(
        "sophie.lemaire@acme-networks.test",
        "Sophie",
        "Lemaire",
        ACME,
        (Role.ACCESS_INVOICES,),
        office_phone="+33 1 99 00 21 06",
    ),
    Person(
        "pieter.janssens@acme-networks.test",
        "Pieter",
        "Janssens",
        ACME_BENELUX,
        (Role.MANAGE_USERS, Role.ACCESS_MONITORING),
        office_phone="+32 2 555 01 07",
    ),
    Person(
        "lotte.devries@acme-networks.test",
        "Lotte",
        "de Vries",
        ACME_BENELUX,
        (Role.ACCESS_INVOICES,),
        office_phone="+31 20 555 0108",
    ),
    Person(
        "george.patel@globex.test",
        "George",
        "Patel",
        GLOBEX,
        (Role.ACCESS_MONITORING, Role.REFERENCE_MASTER),
        office_phone="+44 117 496 0302",
    ),
    Person(
        "hannah.brooks@globex.test",
        "Hannah",
        "Brooks",
        GLOBEX,
        (Role.ACCESS_INVOICES,),
        office_phone="+44 117 496 0303",
    ),
    Person(
        "oliver.reid@globex.test",
        "Oliver",
        "Reid",
        GLOBEX,
        (Role.ACCESS_MONITORING,),
        mobile_phone="+44 7700 900304",
    ),
    Person(
        "mathilde.perrin@boreal-telecom.test",
        "Mathilde",
        "Perrin",
        BOREAL,
        (Role.MANAGE_USERS, Role.ACCESS_INVOICES, Role.ACCESS_MONITORING),
        office_phone="+33 4 65 71 31 01",
        mobile_phone="+33 6 39 98 31 01",
    ),
    Person(
        "yanis.haddad@boreal-telecom.test",
        "Yanis",
        "Haddad",
        BOREAL,
        (Role.ACCESS_MONITORING,),
        office_phone="+33 4 65 71 31 02",
    ),
    Person(
        "elodie.garnier@boreal-telecom.test",
        "Élodie",
        "Garnier",
        BOREAL,
        (Role.ACCESS_INVOICES, Role.REFERENCE_MASTER),
        office_phone="+33 4 65 71 31 03",
    ),
    Person(
        "michael.oconnor@initech.test",
        "Michael",
        "O'Connor",
        INITECH,
        (Role.MANAGE_USERS, Role.ACCESS_INVOICES, Role.ACCESS_MONITORING),
        office_phone="+44 20 7946 0401",
        mobile_phone="+44 7700 900401",
    ),
    Person(
        "samira.khan@initech.test",
        "Samira",
        "Khan",
        INITECH,
        (Role.ACCESS_MONITORING,),
        office_phone="+44 20 7946 0402",
    ),
    Person(
        "peter.gibbons@initech.test",
        "Peter",
        "Gibbons",
        INITECH,
        (Role.ACCESS_INVOICES,),
        office_phone="+44 20 7946 0403",
    ),
    Person(
        "ingrid.larsen@nordicfibre.test",
        "Ingrid",
        "Larsen",
        NORDIC,
        (Role.MANAGE_USERS, Role.ACCESS_INVOICES, Role.ACCESS_MONITORING, Role.REFERENCE_MASTER),
        office_phone="+44 191 498 0501",
        mobile_phone="+44 7700 900501",
    ),
    Person(
        "callum.fraser@nordicfibre.test",
        "Callum",
        "Fraser",
        NORDIC,
        (Role.ACCESS_MONITORING,),
        office_phone="+44 191 498 0502",
    ),
    Person(
        "lucas.bonnet@rhone-dc.test",
        "Lucas",
        "Bonnet",
        RHONE,
        (Role.MANAGE_USERS, Role.ACCESS_INVOICES, Role.ACCESS_MONITORING),
        office_phone="+33 4 65 71 61 01",
        mobile_phone="+33 6 39 98 61 01",
    ),
    Person(
        "ines.robert@rhone-dc.test",
        "Inès",
        "Robert",
        RHONE,
        (Role.ACCESS_MONITORING,),
        office_phone="+33 4 65 71 61 02",
    ),
)

PEOPLE = STAFF + CUSTOMERS
