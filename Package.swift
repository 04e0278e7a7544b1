// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "reminderd",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "reminderctl", targets: ["reminderctl"]),
        .executable(name: "reminder-bench", targets: ["reminder-bench"]),
        .library(name: "ReminderCore", targets: ["ReminderCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    ],
    targets: [
        // Pure domain logic: items, civil time, fire-time rules, timer wheel, notification text.
        .target(name: "ReminderCore"),
        // The few OS-facing pieces shared by the executables: the zoneinfo database, files.
        .target(name: "ReminderPlatform", dependencies: ["ReminderCore"]),
        // glibc's mallinfo2 for the benchmark's memory figures (malloc.h is not in the Glibc module).
        .target(name: "CMallocInfo"),
        .executableTarget(
            name: "reminderctl",
            dependencies: [
                "ReminderCore", "ReminderPlatform",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "reminder-bench",
            dependencies: [
                "ReminderCore", "ReminderPlatform", "CMallocInfo",
                .product(name: "HeapModule", package: "swift-collections"),
            ]
        ),
        .testTarget(name: "ReminderCoreTests", dependencies: ["ReminderCore", "ReminderPlatform"]),
        .testTarget(name: "ReminderctlTests", dependencies: ["ReminderCore", "ReminderPlatform"]),
    ],
    swiftLanguageModes: [.v6]
)
