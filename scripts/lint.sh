#!/usr/bin/env bash
# `make lint`: swift-format's rules (the repository's .swift-format) over the Swift sources, and no
# line in Sources or Tests longer than 150 columns. Exits 1 on any finding.
#
# Only the rules: swift-format's pretty printer (which would re-indent and re-wrap every
# hand-formatted call) is off (--debug-disable-pretty-print), so the house style as written
# passes; line length, one of the printer's findings, is checked here instead. Do not run
# `swift format -i` over the tree: it would rewrite the layout of every file.
set -u
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
status=0
"$SWIFT" format lint --strict --parallel --debug-disable-pretty-print -r \
    Sources Tests Package.swift Fuzz/Package.swift Fuzz/Sources/Fuzz* || status=1
# Columns are characters (a UTF-8 locale for grep -P), as an editor counts them.
if LC_ALL=C.UTF-8 grep -rnP --include='*.swift' '^.{151,}' Sources Tests Package.swift Fuzz/Package.swift Fuzz/Sources/Fuzz*; then
    echo "lint: the lines above are longer than 150 columns"
    status=1
fi
# The binary's version is VERSION's (scripts/version.sh).
scripts/version.sh --check || status=1
[ $status -eq 0 ] && echo "lint: clean"
exit $status
