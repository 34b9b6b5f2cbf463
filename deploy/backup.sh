#!/usr/bin/env bash
# Back up the embedded provider: its PostgreSQL database (pg_dump's custom format, consistent
# while the portal runs) and its documents directory (DATA_DIR: PDFs, attachments, uploads).
#
#   DATABASE_URL=postgresql://patchbay@db.internal/patchbay DATA_DIR=/srv/patchbay/data \
#     deploy/backup.sh /backups/2026-11-24
#
# Writes DEST/database.dump and DEST/documents.tar.gz. The database is dumped first: a document
# written between the two steps is in the archive without its row, which is harmless; the other
# way round, a row would name a missing file. tests/operations/test_backup.py rehearses it.
set -euo pipefail
dest=${1:?usage: deploy/backup.sh DESTINATION_DIRECTORY}
: "${DATABASE_URL:?DATABASE_URL must name the PostgreSQL database}"
data_dir=${DATA_DIR:-data}
mkdir -p "$dest"
pg_dump --format=custom --no-owner --file="$dest/database.dump" "$DATABASE_URL"
# user-guide/ holds the documentation PDFs, which the portal builds again from its sources.
tar --create --gzip --file="$dest/documents.tar.gz" --directory="$data_dir" \
  --exclude=./user-guide .
echo "Backed up the database and $data_dir into $dest"
