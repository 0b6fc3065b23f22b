// swift-tools-version: 6.2
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

// The DSP renders audio in real time in the node and hours of it in the tests: optimised even in
// debug builds, or the debug node under test burns a core and the audio suites take minutes.
let optimisedAlways: [SwiftSetting] = strict + [.unsafeFlags(["-O"])]

let package = Package(
    name: "NoiseClock",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "noiseclock", targets: ["noiseclock"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.8.0"),
    ],
    targets: [
        // C libraries, found by pkg-config; `make deps` installs the apt packages.
        .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        // Linux headers (timerfd) that Glibc's module map does not cover.
        .systemLibrary(name: "CLinux"),
        .systemLibrary(name: "CSndFile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        // Sample-rate conversion and EBU R128 loudness for sound files (docs/performance.md says why these).
        .systemLibrary(name: "CSoxr", pkgConfig: "soxr", providers: [.apt(["libsoxr-dev"])]),
        .systemLibrary(name: "CEBUR128", pkgConfig: "libebur128", providers: [.apt(["libebur128-dev"])]),
        // The configuration's YAML parser (Yams would bring Foundation and ICU into the process).
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        // Speech (issue 20): eSpeak NG's header only; the library is opened on first use (dlopen), so
        // an idle node never maps it. Its 22.05 kHz is brought to the node's rate by CSoxr above.
        .systemLibrary(name: "CEspeakNG", providers: [.apt(["libespeak-ng-dev"])]),
        // Radio (issue 29): the stream libraries' headers only, opened on first use like eSpeak NG
        // (docs/sounds.md says why these and not FFmpeg).
        .systemLibrary(
            name: "CStream",
            providers: [.apt(["libcurl4-openssl-dev", "libfaad-dev", "libmpg123-dev", "libogg-dev", "libvorbis-dev", "libopus-dev", "libflac-dev"])]
        ),
        // ALSA's error handler is variadic: only C can implement it.
        .target(name: "CALSASilence", dependencies: ["CALSA"]),
        // Safe mode (v1.4): a crash's signal recorded with async-signal-safe calls only, which Swift cannot promise.
        .target(name: "CCrashRecord"),

        // Pure logic: no I/O, no C, no Foundation.
        .target(name: "NoiseClockCore", swiftSettings: strict),
        // The dedicated-pthread helper shared by the MQTT, timer and audio threads.
        .target(name: "NoiseClockThreads", dependencies: ["CLinux"], swiftSettings: strict),
        .target(
            name: "NoiseClockPlatform",
            dependencies: ["NoiseClockCore", "NoiseClockThreads", "CLinux", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .target(
            name: "NoiseClockMQTT",
            dependencies: ["CMosquitto", "NoiseClockThreads", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .target(
            name: "NoiseClockAudio",
            dependencies: [
                "NoiseClockCore", "NoiseClockPlatform", "NoiseClockThreads", "CALSA", "CALSASilence", "CSndFile", "CSoxr", "CEBUR128", "CEspeakNG",
                "CStream", "CLinux",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: optimisedAlways
        ),
        // The web app's HTTP server (its own: see docs/web.md for why not Hummingbird).
        .target(
            name: "NoiseClockWeb",
            dependencies: ["NoiseClockCore", "NoiseClockPlatform", "NoiseClockThreads", "CLinux", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .target(
            name: "NoiseClockNode",
            dependencies: [
                "NoiseClockCore", "NoiseClockPlatform", "NoiseClockMQTT", "NoiseClockAudio", "NoiseClockWeb", "CYAML", "CCrashRecord",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "noiseclock",
            dependencies: [
                "NoiseClockNode", "NoiseClockAudio", "NoiseClockCore",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),

        .testTarget(name: "NoiseClockCoreTests", dependencies: ["NoiseClockCore"], swiftSettings: strict),
        .testTarget(
            name: "NoiseClockPlatformTests",
            dependencies: [
                "NoiseClockPlatform", "NoiseClockCore", "NoiseClockThreads", "NoiseClockTestSupport", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // Tests only: the test binary's own malloc family, counting calls on the audio thread
        // (AudioThreadAllocationTests). Linked into the test executable, it replaces libc's for the process.
        .target(name: "CAllocationCounter", path: "Tests/CAllocationCounter"),
        // What the suites share (docs/testing.md): the test broker, child processes, loopback ports,
        // signal analysis, the Icecast and hostile-stream rigs. A plain target, as test targets cannot
        // import each other; optimised like the audio, whose spectra it computes.
        .target(
            name: "NoiseClockTestSupport",
            dependencies: ["NoiseClockCore", .product(name: "Logging", package: "swift-log")],
            path: "Tests/NoiseClockTestSupport",
            swiftSettings: optimisedAlways
        ),
        .testTarget(
            name: "NoiseClockAudioTests",
            dependencies: ["NoiseClockAudio", "NoiseClockCore", "CSndFile", "CAllocationCounter", "NoiseClockTestSupport"],
            swiftSettings: optimisedAlways
        ),
        .testTarget(
            name: "NoiseClockMQTTTests",
            dependencies: [
                "NoiseClockMQTT", "NoiseClockThreads", "CMosquitto", "CLinux", "NoiseClockTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "NoiseClockWebTests",
            dependencies: ["NoiseClockWeb", "NoiseClockCore", "NoiseClockTestSupport", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "NoiseClockNodeTests",
            dependencies: [
                "NoiseClockNode", "NoiseClockCore", "NoiseClockPlatform", "NoiseClockMQTT", "NoiseClockWeb", "NoiseClockTestSupport",
            ],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
