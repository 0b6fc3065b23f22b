// swift-tools-version: 6.2
// libFuzzer targets for the command parser, the configuration loader and every parser that reads
// a station (Fuzz/README lists them). A package of its own so the fuzzer's instrumentation and
// its `main` never reach the product build; the targets below are symlinks to the real sources
// (Sources/NoiseClockCore, Sources/NoiseClockNode/Config, Sources/NoiseClockPlatform,
// Sources/NoiseClockThreads, Sources/CYAML, Sources/CLinux, Sources/CStream, and the radio's
// files of Sources/NoiseClockAudio/Radio, one symlink each, its Decoders and HLS folders whole).
// Build and run with `make fuzz` (Fuzz/run.sh).
import PackageDescription

let package = Package(
    name: "NoiseClockFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        .target(name: "NoiseClockCore"),
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1"),
        .systemLibrary(name: "CLinux"),
        // The stream libraries' headers; the libraries themselves are opened with dlopen, as the node does.
        .systemLibrary(name: "CStream"),
        .target(name: "NoiseClockThreads", dependencies: ["CLinux"]),
        // The node's one file reader (FileBytes) lives here.
        .target(
            name: "NoiseClockPlatform",
            dependencies: ["NoiseClockCore", "NoiseClockThreads", "CLinux", .product(name: "Logging", package: "swift-log")]
        ),
        // The loader's folder compiled on its own: it needs only these modules.
        .target(
            name: "NoiseClockConfig",
            dependencies: ["NoiseClockCore", "NoiseClockPlatform", "CYAML", .product(name: "Logging", package: "swift-log")]
        ),
        // The radio's readers and decoders without the player's thread, ring and resampler (so
        // without ALSA, libsoxr and the DSP). Testable: the readers are internal to the product.
        .target(name: "NoiseClockRadio", dependencies: ["NoiseClockCore", "CStream", "CLinux"], swiftSettings: [.unsafeFlags(["-enable-testing"])]),
        .target(name: "FuzzSupport"),
        // No `main`: libFuzzer's own main calls `LLVMFuzzerTestOneInput`.
        .executableTarget(name: "FuzzCommand", dependencies: ["NoiseClockCore"], swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
        .executableTarget(name: "FuzzConfig", dependencies: ["NoiseClockConfig"], swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
        // The station directory's answer and the search's query (v1.4): pure core code.
        .executableTarget(
            name: "FuzzDirectory", dependencies: ["NoiseClockCore", "FuzzSupport"], swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ] + ["FuzzStreamHead", "FuzzIcy", "FuzzPlaylist", "FuzzHLS", "FuzzFraming", "FuzzPlayer"].map {
        .executableTarget(
            name: $0, dependencies: ["NoiseClockRadio", "FuzzSupport", "NoiseClockCore"], swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        )
    },
    swiftLanguageModes: [.v6]
)
