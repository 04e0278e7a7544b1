// reminder-fuzz: the fuzz targets in ReminderFuzzTargets, two ways.
//
//     reminder-fuzz TARGET FILE|DIR...        replay inputs (the normal build)
//     REMINDERD_FUZZ_TARGET=TARGET reminder-fuzz [libFuzzer options] DIR
//                                             fuzz (built by scripts/fuzz.sh with
//                                             -sanitize=fuzzer,address -DFUZZING)
//
// TARGET is json, varlink, config or item.

import ReminderFuzzTargets
import ReminderPlatform

#if canImport(Glibc)
    import Glibc
#endif

#if FUZZING
    import CFuzzerDriver

    /// The target, named by the environment: libFuzzer's own main owns the command line.
    enum Selected {
        static let target: String = {
            let name = environmentVariable("REMINDERD_FUZZ_TARGET") ?? ""
            precondition(FuzzTargets.names.contains(name), "set REMINDERD_FUZZ_TARGET to json, varlink, config or item")
            return name
        }()
    }

    /// libFuzzer calls this with each input it generates (exported under the name libFuzzer's
    /// own main, linked in but unused, refers to).
    @_cdecl("LLVMFuzzerTestOneInput")
    func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        FuzzTargets.run(Selected.target, size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    }

    _ = Selected.target
    var argc = CInt(CommandLine.argc)
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOneInput))
#else
    /// Writes `message` to stderr and exits with `status`.
    func fail(_ message: String, status: CInt) -> Never {
        var line = message + "\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
        exit(status)
    }

    let arguments = CommandLine.arguments
    guard arguments.count >= 3, FuzzTargets.names.contains(arguments[1]) else {
        fail("usage: reminder-fuzz \(FuzzTargets.names.joined(separator: "|")) FILE|DIR...", status: 2)
    }
    do {
        let count = try FuzzCorpus.replay(arguments[1], paths: Array(arguments.dropFirst(2)))
        print("\(arguments[1]): \(count) inputs replayed, no finding")
    } catch {
        fail("reminder-fuzz: \(error)", status: 1)
    }
#endif
