#!/usr/bin/env bash
# The two-instance test runs deploy/nginx.conf with Debian's nginx (never started as a service).
set -euo pipefail
if [ -x /usr/sbin/nginx ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's nginx for the two-instance test…"
  apt-get update -qq
  # Installed for its binary: policy-rc.d (or the lack of systemd) keeps the service stopped.
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null 2>&1 \
    || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null
  exit 0
fi
echo "The two-instance test needs Debian's nginx: sudo apt-get install -y nginx" >&2
exit 1
