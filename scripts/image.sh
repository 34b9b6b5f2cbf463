#!/usr/bin/env bash
# Builds the project's Dockerfile with podman (Debian's package, no daemon) on the base made of
# Debian's packages (scripts/base-image.sh); prints the image's name (IMAGE, or
# localhost/patchbay:latest). The same Dockerfile builds from the public python image where a
# registry is reachable (`docker build .`).
#
# runc, not podman's default crun, which refuses hybrid cgroup hierarchies (this machine's);
# explicit open-file and process limits, because podman's defaults are above what a process
# without CAP_SYS_RESOURCE may set. The machine's certificate authorities are mounted for the
# build's steps (here a proxy signs what PyPI and npm answer), never copied into a layer.
# Layers are cached: an unchanged pyproject.toml reuses the installed dependencies.
set -euo pipefail
cd "$(dirname "$0")/.."
base=$(scripts/base-image.sh)
image=${IMAGE:-localhost/patchbay:latest}
ca=/etc/ssl/certs/ca-certificates.crt
podman --runtime runc build --format docker --layers \
  --ulimit nofile=4096:4096 --ulimit nproc=4096:4096 \
  --build-arg BASE_IMAGE="$base" \
  --volume "$ca:$ca:ro" --build-arg PIP_CERT="$ca" --build-arg NODE_EXTRA_CA_CERTS="$ca" \
  ${PORTAL_PUBLIC_URL:+--build-arg PORTAL_PUBLIC_URL="$PORTAL_PUBLIC_URL"} \
  --tag "$image" . >&2
echo "$image"
