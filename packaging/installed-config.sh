#!/usr/bin/env bash
# Prints the installed configuration made from the documented defaults (config/noiseclock.yaml):
# state in /var/lib/noiseclock, the node named after the host. The package's conffile and
# `make install`'s /etc/noiseclock/noiseclock.yaml are both this.
#   packaging/installed-config.sh config/noiseclock.yaml
set -euo pipefail
sed -e "s|^state_dir: .*|state_dir: /var/lib/noiseclock     # the unit also sets NOISECLOCK_STATE_DIR|" \
    -e "s|^node_id: .*|node_id: null       # null: the host name; set one if two nodes share a host name|" \
    "$1"
