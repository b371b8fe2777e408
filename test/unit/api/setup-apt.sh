#!/usr/bin/env bash
# Installs the system packages the service-client tests need: tinyproxy (a real HTTP proxy that the
# transport tests start on loopback). Idempotent: does nothing when it is already there. The lead
# calls this from `npm test`; run it by hand with sudo/root on a fresh machine.
set -euo pipefail
if command -v tinyproxy >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  SUDO=sudo
else
  SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
# Another process may hold the apt lock for a while; wait for it rather than fail.
$SUDO apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends tinyproxy \
  || { $SUDO apt-get -o DPkg::Lock::Timeout=600 update && $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends tinyproxy; }
command -v tinyproxy >/dev/null
