// swift-tools-version: 6.2
// libFuzzer targets for the command parser and the configuration loader. A package of its own
// so the fuzzer's instrumentation and its `main` never reach the product build; the targets
// below are symlinks to the real sources (Sources/NoiseClockCore, Sources/NoiseClockNode/Config).
// Build and run with `make fuzz` (Fuzz/run.sh).
import PackageDescription

let package = Package(
    name: "NoiseClockFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.0.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        .target(name: "NoiseClockCore"),
        // The loader's folder compiled on its own: it needs only these four modules.
        .target(
            name: "NoiseClockConfig",
            dependencies: [
                "NoiseClockCore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        // No `main`: libFuzzer's own main calls `LLVMFuzzerTestOneInput`.
        .executableTarget(name: "FuzzCommand", dependencies: ["NoiseClockCore"], swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
        .executableTarget(name: "FuzzConfig", dependencies: ["NoiseClockConfig"], swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
    ],
    swiftLanguageModes: [.v6]
)
