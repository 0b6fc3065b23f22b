#!/usr/bin/env bash
# The radio's own stage (issue 29; `make stream-test`): the stream tests run the real node against
# stations on loopback. Kept out of `make test`, whose test stage is at its bound. Builds nothing
# (swift build --build-tests first). Also the broker's real-time 10 s roll-back (issue 30), too long
# for the integration run.
set -u
cd "$(dirname "$0")/.."
NOISECLOCK_STREAM_TESTS=1 ${SWIFT:-swift} test --skip-build --filter 'StreamAlarmNodeTests|StationPlayerNodeTests|StationFormatNodeTests|StreamFormatTests|StreamConnectionTests|StreamFaultNodeTests|StreamRingNodeTests|SleepRadioNodeTests|BrokerRollBackRealTimeTests'
