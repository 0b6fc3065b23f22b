# NoiseClock — `make run` and `make test` work on a fresh Debian 12 machine (as root, or with sudo).
SHELL := /bin/bash
SWIFT ?= swift
CONFIG ?= config/noiseclock.yaml
PREFIX ?= /usr/local
# libmicrohttpd-dev: only for the comparison server of Benchmarks/web-attack.sh (docs/web.md).
DEB_PACKAGES := libmosquitto-dev mosquitto mosquitto-clients libasound2-dev libsndfile1-dev libsoxr-dev libebur128-dev libyaml-dev \
	pkg-config tzdata sox alsa-utils openssl chromium chromium-driver python3-selenium libmicrohttpd-dev

.PHONY: all deps build release run web-url test cluster-test stream-test soak deb package-test perf lint browser-test screenshots fuzz bench sanitize install uninstall clean

all: build

# What needs root (a chroot, cgroups) runs through sudo for a newcomer who is not root, their
# environment and PATH kept (sudo's secure_path would drop the Swift toolchain's folder), with
# root's sbin folders in front: an ordinary user's PATH has no chroot or mosquitto. Python writes
# no caches there: root's __pycache__ in their clone is a folder they cannot remove.
AS_ROOT = $$([ "$$(id -u)" -eq 0 ] || echo sudo -E env "PATH=/usr/local/sbin:/usr/sbin:/sbin:$$PATH" PYTHONDONTWRITEBYTECODE=1)

# Installs only what is missing, so a second run costs a dpkg query.
deps:
	@missing=$$(for p in $(DEB_PACKAGES); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing:" $$missing; \
		sudo=""; [ "$$(id -u)" -eq 0 ] || sudo=sudo; \
		$$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing >/dev/null; \
	fi

# axe-core for the accessibility browser tests: a pinned PyPI wheel (fetched with Debian's pip),
# checked by hash, unpacked into Tests/Browser/.axe-core/ (ignored; scripts/axe-core.sh says
# why it is not committed).
DEB_PACKAGES += python3-pip
# The failover stage's clustered broker (make cluster-test).
DEB_PACKAGES += rabbitmq-server
# Speech (issue 20): eSpeak NG's library and voices, and its command line (the tests' reference).
DEB_PACKAGES += libespeak-ng-dev espeak-ng-data espeak-ng
# Radio (issue 29): the headers of libcurl, libfaad2, libmpg123, libogg, libvorbis, libopus and
# libFLAC (the libraries are opened on first use; the last four are libsndfile's own, named here
# because CStream includes them); icecast2 and ffmpeg serve and encode the test stations of
# `make stream-test` (python3 serves its HLS and FLAC over plain HTTP).
DEB_PACKAGES += libcurl4-openssl-dev libfaad-dev libmpg123-dev libogg-dev libvorbis-dev libopus-dev libflac-dev icecast2 ffmpeg
.PHONY: axe-core
axe-core: deps
	@scripts/axe-core.sh

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

run: release
	@scripts/run-local.sh "$$($(SWIFT) build -c release --show-bin-path)/noiseclock" "$(CONFIG)"

# The web app's address with its token (the node started by `make run` serves it).
# Only the address goes to stdout (URL=$$(make -s web-url) works); building talks on stderr.
web-url: deps
	@$(SWIFT) build -c release >&2
	@"$$($(SWIFT) build -c release --show-bin-path)/noiseclock" web-url --config "$(CONFIG)"

# The fuzz run (FUZZ_SECONDS per target, two targets at a time: Fuzz/run.sh) is part of CI. In
# `make test` the targets are built in debug mode (quicker to build than optimised) and run two at
# a time (one core each), at idle priority beside the tests (scripts/test-suites.sh says when),
# which keeps `make test` within its bound on a 2-core machine; `make fuzz FUZZ_SECONDS=600`
# builds them optimised and fuzzes for longer. Nine targets (Fuzz/README): `make fuzz` takes
# five rounds of FUZZ_SECONDS.
FUZZ_SECONDS ?= 30
# In `make test` they run beside TimingSuite, which leaves them about 70 % of the two cores: five
# rounds of 9 s (45 s) take what four rounds of 11 s took before, and end before TimingSuite does.
TEST_FUZZ_SECONDS ?= 9
# How many tests run at once in the parallel stage (swift-testing's limit; unset = no limit).
TEST_WIDTH ?= 8

# Each stage prints its duration ("stage build: 95 s"). scripts/test-suites.sh runs the integration
# suites (at most TEST_WIDTH tests at a time), the long proofs and the browser tests at once, then
# TimingSuite in two lanes, each one test at a time (Tests/NoiseClockNodeTests/TimingSuite.swift),
# with the unit suites and the fuzz run beside it at idle priority (the fuzz targets' build starts
# with the stage); the test runner's summary is the last thing CI prints.
test: deps axe-core
	@scripts/stage.sh build $(SWIFT) build --build-tests
	@SWIFT=$(SWIFT) TEST_WIDTH=$(TEST_WIDTH) FUZZ_SECONDS=$(TEST_FUZZ_SECONDS) scripts/test-suites.sh

# mqtt.hosts failover against a three-node RabbitMQ cluster on loopback, a graceful stop and a kill -9
# of a broker node: its own stage (the cluster takes 20-40 s to start on 2 cores and is heavy), one
# start for the suite (scripts/cluster-tests.sh).
cluster-test: deps
	@scripts/stage.sh build $(SWIFT) build --build-tests
	@SWIFT=$(SWIFT) scripts/stage.sh cluster scripts/cluster-tests.sh

# Internet radio (issue 29, docs/sounds.md "Radio"): the real node against stations on loopback.
# Its own stage, out of `make test` (whose test stage is at its bound); scripts/stream-tests.sh.
stream-test: deps
	@scripts/stage.sh build $(SWIFT) build --build-tests
	@SWIFT=$(SWIFT) scripts/stage.sh stream scripts/stream-tests.sh

# A week of nights (issue 31, docs/reliability.md): the real node, mosquitto and ALSA through
# SOAK_NIGHTS simulated nights on the test clock (WeekOfNightsTests/aWeekOfNights), printing rings
# per alarm, RSS/fd/thread drift and bytes written per night. Not in CI; `make test` runs one night.
SOAK_NIGHTS ?= 7
soak: deps
	@scripts/stage.sh build $(SWIFT) build --build-tests
	@NOISECLOCK_SOAK_NIGHTS=$(SOAK_NIGHTS) scripts/stage.sh soak $(SWIFT) test --skip-build --filter 'WeekOfNightsTests/aWeekOfNights'

# The Debian package (issue 28; docs/install.md): the node built with the Swift runtime linked in
# (its own build directory, .build-deb), laid out by debhelper into dist/noiseclock_<VERSION>_<arch>.deb.
DEB_PACKAGES += debhelper dpkg-dev lintian
# -z now: the dynamic loader binds every symbol at start, so the relocations become read-only (RELRO).
DEB_SWIFT_FLAGS := -c release --static-swift-stdlib --scratch-path .build-deb -Xlinker -z -Xlinker now
deb: deps
	$(SWIFT) build $(DEB_SWIFT_FLAGS)
	@packaging/build-deb.sh "$$($(SWIFT) build $(DEB_SWIFT_FLAGS) --show-bin-path)/noiseclock" dist

# The package's own CI stage: lintian, then install, run, upgrade, remove and purge in a clean
# Debian 12 root made by mmdebstrap (cached in /var/cache/noiseclock-test-root; packaging/package-test.sh);
# the upgrade from the previous release's package, built once from a git worktree of it and cached there
# too (packaging/previous-release.sh).
DEB_PACKAGES += mmdebstrap systemd curl
package-test: deps
	@scripts/stage.sh deb $(MAKE) --no-print-directory deb
	@scripts/stage.sh package $(AS_ROOT) packaging/package-test.sh "dist/noiseclock_$$(cat VERSION)_$$(dpkg --print-architecture).deb"

# swift-format's rules (.swift-format) and lines of at most 150 columns in Sources and Tests (scripts/lint.sh:
# the rules only, not swift-format's re-layout of the hand-formatted code). A second; CI runs it.
lint:
	@SWIFT=$(SWIFT) scripts/lint.sh

# The web app in a real headless Chromium against the real node and mosquitto (Tests/Browser/);
# part of `make test`, alone here.
browser-test: build axe-core
	@scripts/browser-tests.sh "$$($(SWIFT) build --show-bin-path)/noiseclock"

# The screenshots in docs/images/ (and the README): real captures from the browser tests. A Korean
# font, so the Korean pages (and the wizard's "한국어") are drawn in letters, not empty boxes.
DEB_PACKAGES += fonts-nanum
screenshots: build axe-core
	@SCREENSHOT_DIR=docs/images scripts/browser-tests.sh "$$($(SWIFT) build --show-bin-path)/noiseclock"

# libFuzzer with ASan over the command parser, the configuration loader, the six parsers that
# read a station and the station directory's reader (nine targets, two at a time: Fuzz/run.sh, Fuzz/README.md).
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) Fuzz/run.sh

bench: release
	@Benchmarks/run.sh "$$($(SWIFT) build -c release --show-bin-path)/noiseclock"

# CI's perf stage (Benchmarks/perf.sh, docs/testing.md): every bound of docs/performance.md that a
# stage can hold, one table, each figure against a baseline of the same run or in callgrind's
# instruction counts; it fails on a bound missed or a row that measured nothing, within 10 minutes
# (the release build is a stage of its own). `make perf PERF_NODE_QUOTA=1`: the nodes capped at 1 %
# of one core each (cgroups, as root), to see rows fail; `make perf PERF_DOC=1` rewrites the
# generated section of docs/performance.md from a passing run. (make passes both to the script.)
# `make perf PERF_FROM_DEB=1` (CI, after package-test): the package's own binary (.build-deb, the
# Swift runtime linked in: what an owner installs), no second release build.
DEB_PACKAGES += valgrind linux-perf
perf: deps
	@if [ "$(PERF_FROM_DEB)" = 1 ]; then \
		bin="$$($(SWIFT) build $(DEB_SWIFT_FLAGS) --show-bin-path)/noiseclock"; \
		[ -x "$$bin" ] || { echo "make perf PERF_FROM_DEB=1: no package build at $$bin (make deb first)"; exit 1; }; \
	else \
		scripts/stage.sh release $(SWIFT) build -c release || exit 1; \
		bin="$$($(SWIFT) build -c release --show-bin-path)/noiseclock"; \
	fi; \
	scripts/stage.sh perf $(AS_ROOT) Benchmarks/perf.sh "$$bin"

# Core and node suites under TSan and ASan, the node process included (too slow for CI: see
# docs/performance.md for the time it takes).
sanitize: deps
	SWIFT=$(SWIFT) scripts/sanitize.sh

install: release
	@scripts/install.sh "$$($(SWIFT) build -c release --show-bin-path)/noiseclock" "$(PREFIX)"

uninstall:
	@scripts/uninstall.sh "$(PREFIX)"

clean:
	rm -rf .build .build-* dist
