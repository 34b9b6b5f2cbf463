# syntax=docker/dockerfile:1
#
# Patchbay in one container: the Reflex app (front end, websocket, document routes) and the
# embedded provider API under /provider, all on port 3000.
#
#   docker build -t patchbay .
#   docker run -p 3000:3000 \
#     -e DATABASE_URL=postgresql://… -e REDIS_URL=redis://… patchbay
#
# Production environment (see portal/settings.py for every setting):
#   DATABASE_URL        required: PostgreSQL of the embedded provider, postgresql://user:pass@host/db
#                       (the SQLite default lives in /app/data, lost with the container).
#   REDIS_URL           required: Reflex state shared by the workers (GRANIAN_WORKERS, one per core
#                       by default); without Redis, a single worker runs.
#   PORTAL_PUBLIC_URL   the address users type, used in the links of e-mails (default
#                       http://localhost:$PORT, right only on the server itself).
#   PROVIDER_API_URL    the provider's own API; empty means the embedded one.
#   SEED_DEMO=false     keeps the demo companies and users out of a real database.
#   INSTANCE_NAME       names this container in X-Served-By and /readyz (the host name by default).
#   METRICS_TOKEN       the bearer token Prometheus sends to /metrics (README, Operations).
#   SMTP_URL            the mail relay; mails wait in the database's outbox while it is down.
# Logs are JSON lines on stderr (LOG_FORMAT=text for readable ones). Migrations run at start,
# one container at a time (an advisory lock); `docker stop` lets requests in progress finish.
# Documents live in /app/data: mount a volume there and back it up with the database
# (deploy/backup.sh).

FROM python:3.11-slim-bookworm AS builder

# The npm registry used to fetch the front end's packages; naming it skips Reflex's mirror probe.
ARG NPM_CONFIG_REGISTRY=https://registry.npmjs.org/
ENV VIRTUAL_ENV=/opt/venv \
    PATH=/opt/venv/bin:$PATH \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    NPM_CONFIG_REGISTRY=${NPM_CONFIG_REGISTRY} \
    REFLEX_USE_NPM=1 \
    REFLEX_CHECK_LATEST_VERSION=0

RUN python -m venv /opt/venv
WORKDIR /app

# Dependencies first, in their own layer, so that a code change does not reinstall them.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" \
        > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt

# An editable install keeps the code in /app, where the settings, catalogs and documentation
# are looked up; the venv and /app sit at the same paths in the runtime stage.
COPY . .
RUN pip install --no-deps -e . \
    && reflex export --frontend-only --no-zip \
    && mkdir -p data

FROM python:3.11-slim-bookworm AS runtime

ENV VIRTUAL_ENV=/opt/venv \
    PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    ENVIRONMENT=production \
    PORT=3000 \
    REFLEX_USE_NPM=1 \
    REFLEX_CHECK_LATEST_VERSION=0

RUN groupadd --system --gid 10001 patchbay \
    && useradd --system --uid 10001 --gid patchbay --home-dir /app --shell /usr/sbin/nologin patchbay

WORKDIR /app
COPY --from=builder /opt/venv /opt/venv
# Writable by the app: Reflex writes its front-end build into .web at start, SQLite lives in data.
COPY --from=builder --chown=patchbay:patchbay /app /app
USER patchbay

EXPOSE 3000
VOLUME ["/app/data"]

# /healthz answers while the process does; readiness (/readyz: database, Redis, provider) is for
# the load balancer, not a reason to restart the container during a database outage.
HEALTHCHECK --interval=30s --timeout=5s --start-period=120s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:3000/healthz', timeout=4)"]

# Production mode serves the built front end, the websocket and the mounted routes on one port.
CMD ["reflex", "run", "--env", "prod", "--single-port", "--frontend-port", "3000", "--backend-port", "3000", "--backend-host", "0.0.0.0"]
