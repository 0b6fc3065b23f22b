#!/usr/bin/env bash
# axe-core for the accessibility browser tests (Tests/Browser/test_accessibility.py), fetched
# from PyPI and checked by hash, never committed: axe-core is MPL-2.0 and its axe.min.js is
# 560 KB, five times the whole web app. PyPI's axe-selenium-python ships axe-core 3.1.1,
# too old for the WCAG 2.1/2.2 rule tags; axe-playwright-python 0.1.8 bundles axe-core 4.12.1
# as a plain file, which is all we take from it (no Playwright: Selenium drives the browser).
# Usage: scripts/axe-core.sh   (idempotent: a second run only checks the hash)
set -eu
cd "$(dirname "$0")/.."
wheel_name=axe-playwright-python
wheel_version=0.1.8
wheel_sha256=fdd263c998388f1a8e67cad02677e612d946248bd44d163be5e8650ea31f95f8
axe_sha256=84494fec757e4710dc751c8d7a636e457f4532f08f85c86dc9070133fbff53bc
target=Tests/Browser/.axe-core/axe.min.js
if [ -f "$target" ] && echo "$axe_sha256  $target" | sha256sum -c --status; then exit 0; fi
# Debian's pip (python3-pip, make deps) when there, else whatever python3 has.
python=python3
[ -x /usr/bin/python3 ] && /usr/bin/python3 -m pip --version >/dev/null 2>&1 && python=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$python" -m pip download --quiet --no-deps --no-cache-dir --disable-pip-version-check \
	--only-binary :all: -d "$tmp" "$wheel_name==$wheel_version"
wheel=$(ls "$tmp"/*.whl)
echo "$wheel_sha256  $wheel" | sha256sum -c --status || { echo "axe-core: $wheel does not match its pinned hash" >&2; exit 1; }
"$python" -c 'import sys, zipfile; sys.stdout.buffer.write(zipfile.ZipFile(sys.argv[1]).read("axe_playwright_python/axe.min.js"))' "$wheel" >"$tmp/axe.min.js"
echo "$axe_sha256  $tmp/axe.min.js" | sha256sum -c --status || { echo "axe-core: axe.min.js does not match its pinned hash" >&2; exit 1; }
mkdir -p "$(dirname "$target")"
mv "$tmp/axe.min.js" "$target"
echo "axe-core 4.12.1 (from $wheel_name $wheel_version) in $target"
