"""What the benchmark measures: one line per provider endpoint. A feature adds its line here.

``path`` is as the portal serves it (the provider is mounted at ``/provider``); ``{name}``
placeholders are filled from ``PLACEHOLDERS``, queries run on the generated data set. The SQL
compared with each endpoint is not written here: the benchmark records the statements the
endpoint really sends (SQLAlchemy's cursor events, one in-process request) and replays them with
pgbench, so the comparison follows the code as it changes.
"""

from typing import NamedTuple


class Endpoint(NamedTuple):
    name: str
    path: str
    user: str
    method: str = "GET"
    # The request body, built by ``bodies.py`` (POST requests).
    body: str | None = None
    # Connection counts; writes and long downloads run alone, as a user would.
    connections: tuple[int, ...] = (10, 50)
    # The most round trips to the database one request may make, session checks included
    # (tests/provider/test_generator.py holds every endpoint to it on a tiny data set): a
    # query per row cannot come back unseen.
    round_trips: int = 0
    # Sent with a personal API token of ``user`` (made first with the user's session) instead of
    # the session: what a customer's own tool costs, token check and rate limit included.
    token: bool = False
    # Sent with the ETag of a first answer (If-None-Match): what an unchanged resource costs,
    # its 304 without a body.
    revalidate: bool = False


ALICE = "alice@acme-networks.test"
# Limited by the ``delegate`` placeholder to 2 000 of the heavy tenant's services (issue 53).
BOB = "bob@acme-networks.test"
ADMIN = "admin@patchbay.test"
_SERVICES = "/provider/api/services?itemsPerPage=12&includes[]=type"
_INVOICES = "/provider/api/invoices?itemsPerPage=12"
_TICKETS = "/provider/api/tickets?itemsPerPage=12&order[dateCreated]=desc"
# Every status but closed: the open tickets of the tiles.
_OPEN_STATUSES = (
    "active", "open", "solved", "waitingForAction", "inProgress", "onHoldRFO", "onHold",
    "restoredService", "waitingForAcceptance", "onHoldCustomerFeedbackRequired",
)  # fmt: skip
_OPEN_TICKETS = "&".join(f"status[]={status}" for status in _OPEN_STATUSES)

ENDPOINTS: tuple[Endpoint, ...] = (
    # Issue 52 added one: whether the e-mail's domain is a company's that refuses passwords
    # (read whether the account exists or not, so the answer tells nothing of it).
    Endpoint("login", "/provider/login", ALICE, "POST", "login", round_trips=11),
    # The login page's first step (issue 52): the e-mail's domain looked up, no session.
    Endpoint(
        "sso lookup", "/provider/login/sso/lookup", ALICE, "POST", "sso_lookup", round_trips=1
    ),
    # An administrator's view of a company's single sign-on: the principal, the company, its
    # settings and its domains.
    Endpoint("company sso", "/provider/api/companies/{acme}/sso", ADMIN, round_trips=4),
    # Issue 52: the two-step sign-in page's reads (the principal, then the factors, the passkeys
    # and the recovery codes left), and the options of a passkey sign-in (its challenge written).
    Endpoint("second factor status", "/provider/api/second_factor", ALICE, round_trips=4),
    Endpoint("passkeys", "/provider/api/passkeys", ALICE, round_trips=2),
    Endpoint(
        "passkey sign-in options",
        "/provider/login/passkey/options",
        ALICE,
        "POST",
        connections=(10,),
        round_trips=3,
    ),
    # The principal, the page with its count, the companies, who is limited (issue 53).
    Endpoint(
        "users list",
        "/provider/api/users?page=1&itemsPerPage=10&order[lastname]=asc",
        ALICE,
        round_trips=4,
    ),
    # Issue 53: a colleague's access (the principal, the user, their auxiliary companies, the
    # companies with the limits and counts of grants) and the page of the services granted.
    Endpoint("a user's access", "/provider/api/users/{delegate}/access", ALICE, round_trips=4),
    Endpoint(
        "a user's granted services",
        "/provider/api/users/{delegate}/access/{acme}/services?itemsPerPage=12",
        ALICE,
        round_trips=4,
    ),
    Endpoint("a user", "/provider/api/users/{alice_colleague}", ALICE, round_trips=3),
    # Issue 5's targets (a filtered list page and the detail under 50 ms at the median) are
    # about one request at a time: these two are measured with a single connection too.
    Endpoint(
        "services p1 filtered",
        f"{_SERVICES}&page=1&status[]=active&order[dateStart]=desc",
        ALICE,
        connections=(1, 10, 50),
        round_trips=3,
    ),
    Endpoint(
        "services p1 sorted", f"{_SERVICES}&page=1&order[dateStart]=desc", ALICE, round_trips=3
    ),
    Endpoint(
        "services p1000 sorted",
        f"{_SERVICES}&page=1000&order[dateStart]=desc",
        ALICE,
        round_trips=3,
    ),
    # Issue 55: the other sorts the screen offers, as deep (by the first page sorted by date,
    # whose cost a first page of any sort shares: docs/decisions/deep-service-pages.md).
    Endpoint(
        "services p1000 by reference",
        f"{_SERVICES}&page=1000&order[reference]=desc",
        ALICE,
        round_trips=3,
    ),
    Endpoint(
        "services p1000 by status",
        f"{_SERVICES}&page=1000&order[status]=asc",
        ALICE,
        round_trips=3,
    ),
    Endpoint(
        "services search",
        f"{_SERVICES}&page=1&search=paris&order[reference]=asc",
        ALICE,
        round_trips=3,
    ),
    # A customer's NOC tool reading the same page with a personal API token (issue 51), on the
    # token's first use: the page's two reads, the token and its owner, the last use noted, the
    # rate limit's upsert, the owner's companies, and three reads again of the token and its
    # owner after the commits of the last use and of the count.
    Endpoint(
        "services p1 with a token",
        f"{_SERVICES}&page=1&order[dateStart]=desc",
        ALICE,
        round_trips=10,
        token=True,
    ),
    # A tile of the services screen: the count alone, no row read.
    Endpoint(
        "services count",
        "/provider/api/services?itemsPerPage=0&status[]=active",
        ALICE,
        connections=(10,),
        round_trips=2,
    ),
    Endpoint(
        "a service",
        "/provider/api/services/{alice_service}",
        ALICE,
        connections=(1, 10, 50),
        round_trips=3,
    ),
    Endpoint(
        "services export 50k",
        "/provider/api/services/export?{types_50k}",
        ADMIN,
        connections=(1,),
        round_trips=2,
    ),
    # The home page's table: the heavy tenant's newest five of its 11 508 maintenances, counted.
    Endpoint(
        "maintenances p1",
        "/provider/api/maintenances?page=1&itemsPerPage=5&order[dateStart]=desc",
        ALICE,
        round_trips=2,
    ),
    Endpoint(
        "maintenances of a service",
        "/provider/api/maintenances?service.reference={maintained_reference}",
        ALICE,
        round_trips=2,
    ),
    Endpoint(
        "a maintenance", "/provider/api/maintenances/{alice_maintenance}", ALICE, round_trips=4
    ),
    Endpoint("service types", "/provider/api/service_types", ALICE, round_trips=2),
    Endpoint(
        "company autocomplete",
        "/provider/api/companies?name=net&itemsPerPage=20",
        ADMIN,
        round_trips=3,
    ),
    Endpoint("invoices p1", f"{_INVOICES}&page=1", ALICE, round_trips=2),
    # Past the last page (the tests' small data set) the count is read alone: one more.
    Endpoint("invoices p1000", f"{_INVOICES}&page=1000", ALICE, round_trips=3),
    # Issue 12's targets: page 1000 at most 1.5 times page 1, a filtered first page and the
    # invoicing tiles and chart under 50 ms at the median, one request at a time.
    Endpoint(
        "invoices p1 filtered",
        f"{_INVOICES}&page=1&isPaid=0&order[dateDue]=asc",
        ALICE,
        connections=(1, 10, 50),
        round_trips=2,
    ),
    # Six characters of one of alice's invoices, typed in the reference filter.
    Endpoint(
        "invoices p1 by reference",
        f"{_INVOICES}&page=1&reference={{alice_invoice_fragment}}",
        ALICE,
        round_trips=2,
    ),
    Endpoint(
        "invoices p1000 by due date",
        f"{_INVOICES}&page=1000&order[dateDue]=desc",
        ALICE,
        round_trips=3,
    ),
    Endpoint(
        "invoice summary",
        "/provider/api/invoices/summary",
        ALICE,
        connections=(1, 10, 50),
        round_trips=3,
    ),
    Endpoint("an invoice", "/provider/api/invoices/{alice_invoice}", ALICE, round_trips=2),
    # Issue 13: the tickets tab (every status but closed, as its tile) and one ticket.
    Endpoint(
        "tickets p1 filtered",
        f"{_TICKETS}&page=1&{_OPEN_TICKETS}",
        ALICE,
        connections=(1, 10, 50),
        round_trips=3,
    ),
    Endpoint("tickets p1", f"{_TICKETS}&page=1", ALICE, round_trips=3),
    # Issue 53: a user limited to 2 000 of the heavy tenant's services reads the services and
    # tickets lists and the dashboard within 1.5x of the same lines of alice, unlimited.
    Endpoint(
        "services p1 sorted, limited",
        f"{_SERVICES}&page=1&order[dateStart]=desc",
        BOB,
        round_trips=3,
    ),
    Endpoint("tickets p1, limited", f"{_TICKETS}&page=1", BOB, round_trips=3),
    Endpoint(
        "dashboard, limited",
        "/provider/api/users/{delegate}/dashboard",
        BOB,
        connections=(1, 10, 50),
        round_trips=4,
    ),
    Endpoint("tickets p1000", f"{_TICKETS}&page=1000", ALICE, round_trips=3),
    # The open tickets' tile: the count alone.
    Endpoint(
        "tickets count",
        f"/provider/api/tickets?itemsPerPage=0&{_OPEN_TICKETS}",
        ALICE,
        connections=(10,),
        round_trips=2,
    ),
    Endpoint(
        "a ticket",
        "/provider/api/tickets/{alice_ticket}",
        ALICE,
        connections=(1, 10, 50),
        round_trips=4,
    ),
    # Issue 49: a ticket's conversation (the principal, the ticket, the page with its count and
    # each message's files as JSON) and opening a ticket (the principal, the service, the rate
    # count, the feed's lock and number, the ticket, its event, the company's webhook endpoints
    # (issue 51), the audit entry, the commit, and the answer read as "a ticket" reads it).
    Endpoint(
        "messages of a ticket",
        "/provider/api/tickets/{alice_ticket}/messages",
        ALICE,
        round_trips=4,
    ),
    Endpoint(
        "open a ticket",
        "/provider/api/tickets",
        ALICE,
        "POST",
        "open_ticket",
        (1,),
        round_trips=12,
    ),
    # A reply in the conversation: the principal, the ticket, the rate count, the author's
    # name, the message, the feed's lock and the event for the e-mails, the company's webhook
    # endpoints, the author's read mark.
    Endpoint(
        "reply to a ticket",
        "/provider/api/tickets/{alice_ticket}/messages",
        ALICE,
        "POST",
        "reply",
        (1,),
        round_trips=9,
    ),
    # Issue 51: a company's webhook endpoints, as their page lists them, one of them, its
    # delivery log (the principal, the endpoint, the page with its count), registering one (the
    # principal, the user's main company, the endpoint and its audit entry) and rotating a
    # secret.
    Endpoint("webhooks", "/provider/api/webhooks", ALICE, round_trips=2),
    Endpoint("a webhook", "/provider/api/webhooks/{alice_webhook}", ALICE, round_trips=2),
    Endpoint(
        "a webhook's deliveries",
        "/provider/api/webhooks/{alice_webhook}/deliveries",
        ALICE,
        round_trips=3,
    ),
    Endpoint(
        "rotate a webhook's secret",
        "/provider/api/webhooks/{alice_webhook}/rotate_secret",
        ALICE,
        "POST",
        connections=(1,),
        round_trips=5,
    ),
    Endpoint(
        "register a webhook",
        "/provider/api/webhooks",
        ALICE,
        "POST",
        "webhook",
        (1,),
        round_trips=5,
    ),
    Endpoint(
        "change a webhook",
        "/provider/api/webhooks/{alice_webhook}",
        ALICE,
        "PATCH",
        "webhook_change",
        (1,),
        round_trips=5,
    ),
    # A test event: the principal, the endpoint, the outbox's lock, the delivery queued and read
    # back for the 202 (its sending is the outbox's, after the answer).
    Endpoint(
        "send a webhook test",
        "/provider/api/webhooks/{alice_webhook}/test",
        ALICE,
        "POST",
        connections=(1,),
        round_trips=5,
    ),
    # Issue 51: the API access page's list of one's personal tokens, and making one. Revoking a
    # token and deleting a webhook are left out: the second request would find nothing.
    Endpoint("personal tokens", "/provider/api/personal_tokens", ALICE, round_trips=2),
    Endpoint(
        "make a personal token",
        "/provider/api/personal_tokens",
        ALICE,
        "POST",
        "token",
        (1,),
        round_trips=4,
    ),
    # Issue 16: the heavy tenant's dashboard, under 50 ms at the median at 1 connection.
    Endpoint(
        "dashboard",
        "/provider/api/users/{alice}/dashboard",
        ALICE,
        connections=(1, 10, 50),
        round_trips=4,
    ),
    # Issue 15: the monitoring screen's list (all of a customer's sensors in one call) and a
    # sampled sensor's chart over each span: 365 days under 100 ms and 2 hours under 50 ms at
    # the median, one request at a time.
    Endpoint(
        "sensors list", "/provider/api/sensors", ALICE, connections=(1, 10, 50), round_trips=2
    ),
    # Issue 55, item 5: what the screen's refresh reads now, its cards' fields only.
    Endpoint(
        "sensors cards",
        "/provider/api/sensors?view=card",
        ALICE,
        connections=(1, 10, 50),
        round_trips=2,
    ),
    *(
        Endpoint(
            f"sensor chart {label}",
            f"/provider/api/sensors/{{alice_sensor}}/chart/svg?span={span}&timezone=Europe/Paris",
            ALICE,
            connections=(1, 10),
            round_trips=4,
        )
        for span, label in (
            ("last_2_hours", "2 h"),
            ("last_48_hours", "48 h"),
            ("last_30_days", "30 d"),
            ("last_365_days", "365 d"),
        )
    ),
    Endpoint(
        "sensor legend", "/provider/api/sensors/{alice_sensor}/chart_legend", ALICE, round_trips=3
    ),
    # Issue 54: the points of a chart (its text alternative, table and readout): the principal,
    # the sensor, its legend, the one range scan of its span's resolution.
    *(
        Endpoint(
            f"sensor chart data {label}",
            f"/provider/api/sensors/{{alice_sensor}}/chart/data?span={span}",
            ALICE,
            round_trips=4,
        )
        for span, label in (("last_2_hours", "2 h"), ("last_365_days", "365 d"))
    ),
    # Issue 15: the contacts page, Alice's two companies with their whole sales tree.
    Endpoint(
        "companies with sales",
        "/provider/api/companies?{alice_companies}&includes[]=sales",
        ALICE,
        connections=(1, 10, 50),
        round_trips=4,
    ),
    # Issue 14: the calendar's month (a 6-week grid, every page of it is one request here: the
    # first 100 windows) for the heavy tenant, under 50 ms at the median at 1 connection; and
    # the private iCalendar feed a calendar program polls.
    Endpoint(
        "maintenances month",
        "/provider/api/maintenances?dateEnd[after]={month_start}&dateStart[before]={month_end}"
        "&itemsPerPage=100&order[dateStart]=asc",
        ALICE,
        connections=(1, 10, 50),
        round_trips=2,
    ),
    # Issue 55, item 5 added the validator's aggregate (one round trip) before the build.
    Endpoint(
        "maintenance feed", "/provider/feeds/maintenances/{alice_feed}.ics", ALICE, round_trips=8
    ),
    # Issue 55, item 5: what a calendar program's poll of an unchanged feed costs (≤ 20 ms): the
    # link, its user and one aggregate, then 304 without a body.
    Endpoint(
        "maintenance feed unchanged",
        "/provider/feeds/maintenances/{alice_feed}.ics",
        ALICE,
        round_trips=4,
        revalidate=True,
    ),
    Endpoint(
        "import 10k references",
        "/provider/api/services/client_reference/import",
        ALICE,
        "POST",
        "import",
        (1,),
        round_trips=4,
    ),
)

# (deep page, first page) pairs whose latency ratio the report gives.
DEEP_PAGES = (
    ("services p1000 sorted", "services p1 sorted"),
    ("services p1000 by reference", "services p1 sorted"),
    ("services p1000 by status", "services p1 sorted"),
    ("invoices p1000", "invoices p1"),
    ("tickets p1000", "tickets p1"),
)
# (limited user, unlimited user) pairs of issue 53: the ratio must stay under 1.5.
LIMITED_PAIRS = (
    ("services p1 sorted, limited", "services p1 sorted"),
    ("tickets p1, limited", "tickets p1"),
    ("dashboard, limited", "dashboard"),
)

# Values the paths need, read from the data set (alice's own rows, so scoping is measured).
PLACEHOLDERS = {
    "alice": "SELECT id FROM users WHERE email = 'alice@acme-networks.test'",
    "acme": "SELECT id FROM companies WHERE name = 'Acme Networks'",
    # Bob, limited in Acme to 2 000 of its services spread over the list (issue 53): made
    # here, as the data set has no limits (a new request of his session reads them), then
    # analysed, as autovacuum would soon do: the planner must know how many he keeps.
    "delegate": """
        WITH bob AS (
            SELECT id, company_id FROM users WHERE email = 'bob@acme-networks.test'
        ), limited AS (
            INSERT INTO user_access_limits (user_id, company_id, changed_at)
            SELECT id, company_id, now() FROM bob ON CONFLICT DO NOTHING
        ), granted AS (
            INSERT INTO user_service_grants (user_id, service_id, company_id)
            SELECT bob.id, s.id, s.company_id FROM bob
            JOIN services s ON s.company_id = bob.company_id
            ORDER BY md5(s.id::text) LIMIT 2000
            ON CONFLICT DO NOTHING
        )
        SELECT id FROM bob;
        ANALYZE user_service_grants""",
    "alice_colleague": """
        SELECT u.id FROM users u JOIN companies c ON c.id = u.company_id
        WHERE c.name = 'Acme Networks' AND u.email <> 'alice@acme-networks.test'
        ORDER BY u.email LIMIT 1""",
    # The 101st of alice's services, or her last on a data set too small to have one.
    "alice_service": """
        SELECT id FROM (
            SELECT s.id, row_number() OVER (ORDER BY s.reference) AS n
            FROM services s JOIN companies c ON c.id = s.company_id
            WHERE c.name = 'Acme Networks') numbered
        WHERE n <= 101 ORDER BY n DESC LIMIT 1""",
    "maintained_reference": """
        SELECT s.reference FROM services s JOIN companies c ON c.id = s.company_id
        JOIN maintenance_services m ON m.service_id = s.id
        WHERE c.name = 'Acme Networks' GROUP BY s.reference ORDER BY count(*) DESC, s.reference
        LIMIT 1""",
    "alice_maintenance": """
        SELECT m.maintenance_id FROM maintenance_services m
        JOIN services s ON s.id = m.service_id JOIN companies c ON c.id = s.company_id
        WHERE c.name = 'Acme Networks' GROUP BY m.maintenance_id
        ORDER BY count(*) DESC, m.maintenance_id LIMIT 1""",
    "alice_invoice": """
        SELECT i.id FROM invoices i JOIN companies c ON c.id = i.company_id
        WHERE c.name = 'Acme Networks' ORDER BY i.date_invoice DESC, i.id LIMIT 1""",
    "alice_invoice_fragment": """
        SELECT lower(right(i.reference, 6)) FROM invoices i JOIN companies c ON c.id = i.company_id
        WHERE c.name = 'Acme Networks' ORDER BY i.date_invoice, i.id LIMIT 1 OFFSET 5000""",
    "alice_ticket": """
        SELECT t.id FROM tickets t JOIN companies c ON c.id = t.company_id
        WHERE c.name = 'Acme Networks' ORDER BY t.date_created DESC, t.number LIMIT 1 OFFSET 50""",
    # Issue 15's customer with about 1 000 sensors: a user of the company nearest that count
    # who may open the monitoring screen.
    "monitoring_user": """
        SELECT u.email FROM users u
        JOIN (SELECT company_id, count(*) AS n FROM sensors GROUP BY company_id) c
          ON c.company_id = u.company_id
        WHERE u.is_active AND u.has_accepted_terms
          AND u.roles::jsonb ? 'ROLE_ACCESS_MONITORING'
        ORDER BY abs(c.n - 1000), u.email LIMIT 1""",
    # A sensor of alice's with a year of history.
    "alice_sensor": """
        SELECT s.id FROM sensors s JOIN companies c ON c.id = s.company_id
        WHERE c.name = 'Acme Networks' AND EXISTS (
            SELECT 1 FROM sensor_rollups r WHERE r.sensor_id = s.id AND r.resolution = 'day')
        ORDER BY s.reference LIMIT 1""",
    "alice_companies": """
        SELECT string_agg('uuid[]=' || c.id::text, '&' ORDER BY c.name) FROM companies c
        WHERE c.id IN (
            SELECT u.company_id FROM users u WHERE u.email = 'alice@acme-networks.test'
            UNION SELECT a.company_id FROM user_auxiliary_companies a
            JOIN users u ON u.id = a.user_id WHERE u.email = 'alice@acme-networks.test')""",
    # The month grid around the data set's today (its ongoing maintenances): Monday before the
    # 1st, six weeks.
    "month_start": """
        SELECT to_char(date_trunc('week', date_trunc('month', min(date_start)))
                       AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
        FROM maintenances WHERE status = 'ongoing'""",
    "month_end": """
        SELECT to_char(
            (date_trunc('week', date_trunc('month', min(date_start))) + interval '42 days')
            AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
        FROM maintenances WHERE status = 'ongoing'""",
    # Alice's feed, made here: only the token's hash is stored, so the benchmark sets a known one.
    "alice_feed": """
        INSERT INTO calendar_feeds (id, user_id, token_hash, language, created_at)
        SELECT gen_random_uuid(), id,
               encode(sha256('pbc_benchmark-feed-of-alice-0123456789'::bytea), 'hex'), 'en', now()
        FROM users WHERE email = 'alice@acme-networks.test'
        ON CONFLICT (user_id) DO UPDATE SET token_hash = EXCLUDED.token_hash
        RETURNING 'pbc_benchmark-feed-of-alice-0123456789'""",
    # A webhook endpoint of alice's company with 50 deliveries in its log, made here (the data
    # set has none); delivered already, so no worker tries them.
    "alice_webhook": """
        WITH endpoint AS (
            INSERT INTO webhook_endpoints (id, company_id, url, description, event_types,
                                           enabled, secret, created_at)
            SELECT gen_random_uuid(), company_id, 'https://93.184.215.14/bench', 'bench',
                   '["maintenance.updated"]'::json, true, 'v1.bench', now()
            FROM users WHERE email = 'alice@acme-networks.test'
            RETURNING id),
        logged AS (
            INSERT INTO webhook_deliveries (message_id, endpoint_id, event_type, payload,
                                            created_at, state, attempts, next_attempt_at,
                                            response_status, latency_ms, response_excerpt, error)
            SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), endpoint.id,
                   'maintenance.updated', '{}', now() - n * interval '1 minute', 'delivered', 1,
                   now(), 200, 40, 'ok', ''
            FROM endpoint, generate_series(1, 50) n)
        SELECT id FROM endpoint""",
    # Service types in catalogue order up to about 50 000 services (the last one crosses it).
    "types_50k": """
        SELECT string_agg('type.uuid[]=' || id::text, '&' ORDER BY position) FROM (
            SELECT t.id, t.position, count(*) AS n,
                   sum(count(*)) OVER (ORDER BY t.position) AS running
            FROM service_types t JOIN services s ON s.type_id = t.id GROUP BY t.id, t.position
        ) counted WHERE running - n < 50000""",
}
