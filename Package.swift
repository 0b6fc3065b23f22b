// swift-tools-version: 6.2
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

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
        // The configuration's YAML parser (Yams would bring Foundation and ICU into the process).
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        // ALSA's error handler is variadic: only C can implement it.
        .target(name: "CALSASilence", dependencies: ["CALSA"]),

        // Pure logic: no I/O, no C, no Foundation.
        .target(name: "NoiseClockCore", swiftSettings: strict),
        .target(
            name: "NoiseClockPlatform",
            dependencies: ["NoiseClockCore", "CLinux", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .target(
            name: "NoiseClockMQTT",
            dependencies: ["CMosquitto", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .target(
            name: "NoiseClockAudio",
            dependencies: ["NoiseClockCore", "CALSA", "CALSASilence", "CSndFile", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .target(
            name: "NoiseClockNode",
            dependencies: [
                "NoiseClockCore", "NoiseClockPlatform", "NoiseClockMQTT", "NoiseClockAudio", "CYAML",
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
            dependencies: ["NoiseClockPlatform", "NoiseClockCore", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .testTarget(name: "NoiseClockAudioTests", dependencies: ["NoiseClockAudio", "NoiseClockCore", "CSndFile"], swiftSettings: strict),
        .testTarget(
            name: "NoiseClockNodeTests",
            dependencies: ["NoiseClockNode", "NoiseClockCore", "NoiseClockPlatform", "NoiseClockMQTT"],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
