#!/usr/bin/env bash
# Restore a backup of deploy/backup.sh into an EMPTY database and documents directory, with the
# portal stopped:
#
#   createdb patchbay    # or: an empty database made by your provider of PostgreSQL
#   DATABASE_URL=postgresql://patchbay@db.internal/patchbay DATA_DIR=/srv/patchbay/data \
#     deploy/restore.sh /backups/2026-11-24
#
# Then start the portal: it migrates a backup taken before an upgrade to the newest schema.
set -euo pipefail
src=${1:?usage: deploy/restore.sh BACKUP_DIRECTORY}
: "${DATABASE_URL:?DATABASE_URL must name the PostgreSQL database}"
data_dir=${DATA_DIR:-data}
pg_restore --no-owner --exit-on-error --dbname="$DATABASE_URL" "$src/database.dump"
mkdir -p "$data_dir"
tar --extract --gzip --file="$src/documents.tar.gz" --directory="$data_dir"
echo "Restored the database and $data_dir from $src"
