#!/usr/bin/env bash
# Installs the Debian packages the test suites and the real-editor provisioning need.
# Quick when everything is already present (no apt-get update in that case), so .ci/run can
# call it unconditionally.
#   chromium      the browser playwright-core drives (browser and real-editor suites)
#   ripgrep       code-server's search (its own npm install step wants the internet) and grep tool tests
#   libkrb5-dev   headers + krb5-config for rebuilding code-server's `kerberos` native module
#   fonts-liberation, fonts-dejavu-core  readable text in screenshots
#   build-essential, pkg-config  native rebuilds (node-pty, spdlog, watcher, argon2, kerberos)
#   bubblewrap    runs each command the model runs in its own PID namespace (the key out of its reach)
set -euo pipefail

packages=(chromium ripgrep libkrb5-dev fonts-liberation fonts-dejavu-core build-essential pkg-config bubblewrap)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-system-deps: all present (${packages[*]})"
  exit 0
fi

echo "install-system-deps: installing ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
    echo "install-system-deps: not root and no sudo; install these by hand: ${missing[*]}" >&2
    exit 1
  fi
else
  SUDO=
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get -o DPkg::Lock::Timeout=600 update -q
# Waits for a concurrent apt (another suite or person) instead of failing on the dpkg lock.
$SUDO apt-get install -y -q --no-install-recommends -o DPkg::Lock::Timeout=600 "${missing[@]}"
echo "install-system-deps: done"
