// swift-tools-version:6.1
import PackageDescription

/// Release builds of the code that is not on the daemon's hot paths — reminderctl's own, the
/// catalog, reminderd-sync's (CalDAV, XML, iCalendar text, the sync loop and setup), sync's model,
/// the protocol's requests and replies, the store's layer and the platform's files — optimized for
/// size: issue 21's installed package of at most 32 MiB (2026-11-28: 32.3 MiB with these at -O,
/// 31.9 MiB with them at -Osize and reminderd's functions in sections of their own for the
/// linker's garbage collection, scripts/package-deb.sh). The engine's, the domain's, JSON's and
/// time's modules stay at -O: with all of it at -Osize, start-up with 100k items took 0.76 s
/// instead of 0.67 (issue 21: at most 0.7).
let sizeOptimized: [SwiftSetting] = [.unsafeFlags(["-Osize"], .when(configuration: .release))]

let package = Package(
    name: "reminderd",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "reminderd", targets: ["reminderd"]),
        .executable(name: "reminderctl", targets: ["reminderctl"]),
        .executable(name: "reminderd-sync", targets: ["reminderd-sync"]),
        .executable(name: "reminder-bench", targets: ["reminder-bench"]),
        .executable(name: "reminder-load", targets: ["reminder-load"]),
        .library(name: "ReminderCore", targets: ["ReminderCore", "ReminderJSON", "CivilTime"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // The JSON reader and writer, and reading an object field by field. Pure.
        .target(name: "ReminderJSON"),
        // Calendar dates, wall-clock times, RFC 3339 timestamps and time-zone rules from TZif bytes. Pure.
        .target(name: "CivilTime"),
        // RFC 5545 text: content lines, folding, escaping, the component tree. Pure Swift, so it can
        // be fuzzed and has no C boundary (docs/SYNC-FORMAT.md says why not libical).
        .target(name: "ICalendar", swiftSettings: sizeOptimized),
        // glibc's gettext header, for ReminderCore's `Translation`.
        .systemLibrary(name: "CIntl"),
        // Pure domain logic: items, fire-time rules, timer wheel, notification text.
        .target(name: "ReminderCore", dependencies: ["ReminderJSON", "CivilTime", "ICalendar", "CIntl"]),
        // Items as CalDAV VTODOs and back, other clients' completions, the 3-way merge: no I/O.
        .target(
            name: "ReminderSyncModel", dependencies: ["ReminderCore", "ReminderJSON", "CivilTime", "ICalendar"],
            swiftSettings: sizeOptimized),
        // The few OS-facing pieces shared by the executables: the zoneinfo database, files.
        .target(
            name: "ReminderPlatform", dependencies: ["ReminderCore", "ReminderJSON", "CivilTime"],
            swiftSettings: sizeOptimized),
        // The bundled card catalog and subscription templates.
        .target(
            name: "ReminderCatalog", dependencies: ["ReminderCore", "ReminderJSON", "CivilTime", "ReminderPlatform"],
            resources: [.embedInCode("Resources/cards.json")], swiftSettings: sizeOptimized),
        // The system's libsqlite3, which the store speaks to through its own small layer.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // SQLite: items, per-occurrence state, fires, history. Through a layer of its own over
        // libsqlite3 (not GRDB, which brought full Foundation and ICU's data into the daemon).
        .target(
            name: "ReminderStore",
            dependencies: ["ReminderCore", "ReminderJSON", "CivilTime", "ReminderPlatform", "CSQLite"],
            swiftSettings: sizeOptimized
        ),
        // Varlink framing, the io.reminderd.Reminders interface, and the client.
        .target(
            name: "ReminderProtocol", dependencies: ["ReminderCore", "ReminderJSON", "ReminderPlatform"],
            swiftSettings: sizeOptimized),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .systemLibrary(name: "CNotify", pkgConfig: "gio-2.0", providers: [.apt(["libglib2.0-dev"])]),
        // libcurl's easy API, loaded with dlopen on first use, not linked: reminderd carries the CalDAV
        // client (it is reminderd-sync too), and the daemon should not load libcurl and what it pulls
        // in (Sources/CCurl/CurlLoader.c). Builds with curl.h from libcurl4-openssl-dev.
        .target(name: "CCurl"),
        .systemLibrary(name: "CSecret", pkgConfig: "libsecret-1", providers: [.apt(["libsecret-1-dev"])]),
        // The XML reader for WebDAV/CalDAV answers: namespaces, entities, CDATA; no DOCTYPE. Pure
        // Swift, so it can be fuzzed, and no FoundationXML (libxml2, full Foundation and ICU).
        .target(name: "DAVXML", swiftSettings: sizeOptimized),
        // The CalDAV client for reminderd-sync: HTTP over libcurl, WebDAV/CalDAV operations on
        // DAVXML's trees, and the account's password (command, 0600 file or Secret Service).
        .target(
            name: "CalDAV", dependencies: ["ReminderCore", "ReminderJSON", "DAVXML", "CCurl", "CSecret"],
            swiftSettings: sizeOptimized),
        // reminderd-sync's logic: the sync pass (pull into reminderd, push to the server) and the
        // loop that waits in poll() for reminderd's SyncWait answer, a stop signal or the next
        // periodic pass.
        .target(
            name: "ReminderSyncService",
            dependencies: [
                "ReminderCore", "ReminderJSON", "ReminderPlatform", "ReminderProtocol", "ICalendar", "CalDAV", "CSystemd",
            ],
            swiftSettings: sizeOptimized
        ),
        // The options of `sync setup`, declared once for reminderctl (which parses them and hands
        // over) and reminderd-sync (which runs the setup with its CalDAV client).
        .target(
            name: "SyncSetupOptions", dependencies: [.product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: sizeOptimized),
        // reminderd-sync's command line: the sync loop, and `setup`. A library, so that reminderd
        // carries it too (see the reminderd target).
        .target(
            name: "ReminderdSyncCommand",
            dependencies: [
                "ReminderSyncService", "ReminderCore", "ReminderJSON", "ReminderPlatform", "ReminderProtocol",
                // `reminderd-sync setup` (`reminderctl sync setup`) checks the account and stores its password.
                "CalDAV", "SyncSetupOptions",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: sizeOptimized
        ),
        // reminderd-sync on its own, as `swift build` makes it, for development and the end-to-end
        // tests (SwiftPM cannot make a link). The package ships reminderd's instead (below).
        .executableTarget(name: "reminderd-sync", dependencies: ["ReminderdSyncCommand"]),
        // The runtime: scheduler, notifier, socket server, systemd integration. At -Osize: what makes
        // start-up and fire times fast is in ReminderCore and the store, and the package must stay
        // under 32 MiB (scripts/package-deb.sh has the figures).
        .target(
            name: "ReminderDaemon",
            dependencies: [
                "ReminderCore", "ReminderJSON", "CivilTime", "ReminderPlatform", "ReminderStore", "ReminderProtocol",
                "CSystemd", "CNotify",
                // mallopt and malloc_trim: what the daemon's reads leave behind goes back (MallocTuning).
                "CMallocInfo",
                // Sync: items as CalDAV resources and the 3-way merge (reminderd owns all sync state).
                "ReminderSyncModel", "ICalendar",
                .product(name: "Logging", package: "swift-log"),
                // The panel indicator's parts by when time alone changes them (IndicatorCache).
                .product(name: "HeapModule", package: "swift-collections"),
            ],
            swiftSettings: sizeOptimized
        ),
        // reminderd, and reminderd-sync when started under that name (Sources/reminderd/main.swift):
        // the package installs reminderd-sync as a link to it, so the Swift runtime is in it twice
        // (here and in reminderctl), not three times (issue 21). The end-to-end tests run this
        // executable as reminderd, and under the name reminderd-sync too (test_sync_setup.py).
        .executableTarget(
            name: "reminderd",
            dependencies: [
                "ReminderDaemon", "ReminderCore", "ReminderPlatform", "ReminderdSyncCommand",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // 1.5 MB less of the package's 35 (issue 21: installed ≤ 32 MiB), and fewer relocations
            // at start: linked by the toolchain's lld with relative relocations packed (DT_RELR,
            // glibc 2.36, Debian 12), not gold's 1 MB .rela.dyn; and exporting no symbols, which
            // nothing looks up in an executable and which kept --gc-sections from dropping code.
            linkerSettings: [
                .unsafeFlags(
                    ["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic"],
                    .when(platforms: [.linux]))
            ]
        ),
        .executableTarget(
            name: "reminderctl",
            dependencies: [
                "ReminderCore", "ReminderJSON", "CivilTime", "ReminderPlatform", "ReminderProtocol", "ReminderCatalog",
                // `sync setup` parses these, then runs `reminderd-sync setup` with them: the CalDAV
                // client (libcurl, libsecret) stays out of reminderctl.
                "SyncSetupOptions",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // Packaged as a static, non-PIE executable (issue 21: `status` within 3× of `remind -n`),
            // which scripts/package-deb.sh asks for on its command line (`static_reminderctl` in
            // scripts/setup.sh), not this manifest: linked statically only with the Swift runtime
            // static too (--static-swift-stdlib), else FoundationEssentials' C shims are missing
            // (`undefined reference to '_stringshims_strtod_clocale'`), and a plain
            // `swift build -c release` must build every product (issue 27).
            swiftSettings: sizeOptimized
        ),
        // glibc's mallinfo2 for the benchmark's memory figures, mallopt and malloc_trim for the
        // daemon (malloc.h is not in the Glibc module).
        .target(name: "CMallocInfo"),
        // What tests and the benchmark share: a seeded random generator and test fixtures.
        .target(
            name: "ReminderTestSupport",
            dependencies: ["ReminderCore", "ReminderJSON", "CivilTime", "ReminderPlatform"]
        ),
        .executableTarget(
            name: "reminder-bench",
            dependencies: [
                "ReminderCore", "CivilTime", "ReminderPlatform", "ReminderTestSupport", "CMallocInfo",
                .product(name: "HeapModule", package: "swift-collections"),
            ]
        ),
        // The socket load generator and raw echo baseline for scripts/bench-daemon.sh.
        .executableTarget(
            name: "reminder-load",
            dependencies: ["ReminderCore", "ReminderJSON", "ReminderPlatform", "ReminderProtocol"]
        ),
        // The parsers that read outside input, as fuzz targets, and their driver.
        .target(
            name: "ReminderFuzzTargets",
            dependencies: [
                "ReminderCore", "ReminderJSON", "ReminderPlatform", "ReminderProtocol", "ICalendar",
                "ReminderSyncModel", "DAVXML",
            ]
        ),
        .target(name: "CFuzzerDriver"),
        .executableTarget(
            name: "reminder-fuzz", dependencies: ["ReminderFuzzTargets", "ReminderPlatform", "CFuzzerDriver"]),
        .testTarget(name: "ReminderFuzzTargetsTests", dependencies: ["ReminderFuzzTargets"]),
        .testTarget(name: "ReminderJSONTests", dependencies: ["ReminderJSON"]),
        .testTarget(name: "CivilTimeTests", dependencies: ["CivilTime", "ReminderTestSupport"]),
        .testTarget(name: "ICalendarTests", dependencies: ["ICalendar"]),
        .testTarget(
            name: "ReminderSyncModelTests",
            dependencies: [
                "ReminderSyncModel", "ReminderCore", "CivilTime", "ICalendar", "ReminderPlatform",
                "ReminderTestSupport",
            ]),
        .testTarget(
            name: "ReminderCoreTests",
            dependencies: ["ReminderCore", "ReminderJSON", "CivilTime", "ReminderPlatform", "ReminderTestSupport"]),
        .testTarget(
            name: "ReminderStoreTests",
            dependencies: [
                "ReminderStore", "ReminderCore", "CivilTime",
            ]
        ),
        .testTarget(name: "ReminderProtocolTests", dependencies: ["ReminderProtocol", "ReminderCore", "ReminderJSON"]),
        .testTarget(
            name: "ReminderctlTests",
            dependencies: [
                "ReminderCore", "ReminderJSON", "CivilTime", "ReminderPlatform", "reminderctl", "ReminderProtocol",
            ]),
        .testTarget(name: "ReminderCatalogTests", dependencies: ["ReminderCatalog", "ReminderCore", "ReminderJSON"]),
        .testTarget(name: "CalDAVTests", dependencies: ["CalDAV", "DAVXML", "ReminderCore", "ReminderJSON"]),
        // Against Radicale and Xandikos from the tests' venv, started on 127.0.0.1 per test.
        // And reminderd-sync's pass against them, with a fake reminderd that records the calls.
        .testTarget(
            name: "CalDAVServerTests",
            dependencies: ["CalDAV", "ReminderCore", "ReminderJSON", "ReminderProtocol", "ReminderSyncService"],
            exclude: ["fault_proxy.py"]),
        .testTarget(
            name: "ReminderSyncServiceTests",
            dependencies: ["ReminderSyncService", "CalDAV", "ReminderProtocol", "ReminderJSON"]),
        .testTarget(
            name: "ReminderDaemonTests",
            dependencies: [
                "ReminderDaemon", "ReminderCore", "ReminderJSON", "CivilTime", "ReminderStore", "ReminderProtocol",
                "ReminderPlatform", .product(name: "Logging", package: "swift-log"),
                // To build the GErrors the notifier classifies.
                "CNotify",
                // To play another device's writes in the sync tests, and seed their random runs.
                "ReminderSyncModel", "ICalendar", "ReminderTestSupport",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
