#!/usr/bin/env bash
# `make bench`: every benchmark, given the release noiseclock binary as $1.
set -euo pipefail
cd "$(dirname "$0")/.."
Benchmarks/render-vs-sox.sh "$@"
