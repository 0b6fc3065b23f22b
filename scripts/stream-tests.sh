#!/usr/bin/env bash
# The radio's own stage (issue 29; `make stream-test`): the stream tests run the real node against
# stations on loopback. Kept out of `make test`, whose test stage is at its bound. Builds nothing
# (swift build --build-tests first).
set -u
cd "$(dirname "$0")/.."
NOISECLOCK_STREAM_TESTS=1 ${SWIFT:-swift} test --skip-build --filter 'StreamAlarmNodeTests|StationPlayerNodeTests|StationFormatNodeTests|StreamConnectionTests|StreamFormatTests'
