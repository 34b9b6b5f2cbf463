#!/usr/bin/env bash
# The image step (scripts/base-image.sh, scripts/image.sh) builds and runs containers with
# Debian's podman, its runc and mmdebstrap: no daemon, no registry.
set -euo pipefail
if command -v podman >/dev/null && command -v runc >/dev/null && command -v mmdebstrap >/dev/null; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's podman, runc and mmdebstrap for the image step…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman runc mmdebstrap >/dev/null
  exit 0
fi
echo "The image step needs Debian's podman, runc and mmdebstrap: sudo apt-get install -y podman runc mmdebstrap" >&2
exit 1
