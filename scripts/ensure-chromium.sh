#!/usr/bin/env bash
# Browser tests drive Debian's Chromium; nothing downloads a browser of its own.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's chromium for the browser tests…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
  exit 0
fi
cat >&2 <<'MSG'
The browser tests need Debian's Chromium at /usr/bin/chromium, and it is not installed.
Install it as root, then run the tests again:

    sudo apt-get update && sudo apt-get install -y chromium

MSG
exit 1
