#!/usr/bin/env bash
# CI runs the tests with the clock a year ahead (libfaketime), so a test that only passes on the
# day it was written fails at once instead of on some later morning.
set -euo pipefail
if command -v faketime >/dev/null; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing faketime for the moved-clock test runs…"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq faketime >/dev/null 2>&1 || {
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq faketime >/dev/null
  }
  exit 0
fi
cat >&2 <<'MSG'
CI runs the tests with a moved clock through faketime, and it is not installed.
Install it as root, then run CI again:

    sudo apt-get update && sudo apt-get install -y faketime

MSG
exit 1
