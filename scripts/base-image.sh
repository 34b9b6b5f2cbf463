#!/usr/bin/env bash
# The image's base made of Debian's own packages, for machines that reach no container registry
# (issue 56, item 2): mmdebstrap writes a bookworm root filesystem with the packages listed in
# scripts/base-image.packages into a tarball, which podman imports as
# localhost/patchbay-base:<hash>. Prints the image's name.
#
# The hash is that of the package list and of this script: while neither changes, the image
# already imported (or the tarball kept in BASE_IMAGE_CACHE) is reused, and CI skips the two
# minutes mmdebstrap takes. Security updates come with a new hash, or by removing the image and
# the tarball (podman rmi localhost/patchbay-base:<hash>).
set -euo pipefail
cd "$(dirname "$0")/.."
list=scripts/base-image.packages
hash=$(cat "$list" "$0" | sha256sum | cut -c1-12)
image=localhost/patchbay-base:$hash
cache=${BASE_IMAGE_CACHE:-/var/cache/patchbay}
if podman image exists "$image"; then
  echo "$image"
  exit 0
fi
tarball=$cache/patchbay-base-$hash.tar
if [ ! -s "$tarball" ]; then
  mkdir -p "$cache"
  packages=$(grep -v '^#' "$list" | paste -sd, -)
  # Documentation, manual pages and translations are left out: nothing reads them in a container.
  mmdebstrap --variant=minbase --format=tar --include="$packages" \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
    bookworm "$tarball.partial" \
    "deb http://deb.debian.org/debian bookworm main" \
    "deb http://deb.debian.org/debian bookworm-updates main" \
    "deb http://deb.debian.org/debian-security bookworm-security main" >&2
  mv "$tarball.partial" "$tarball"
fi
podman import --change 'CMD ["/bin/bash"]' "$tarball" "$image" >/dev/null
echo "$image"
