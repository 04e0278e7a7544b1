import FoundationEssentials
import ReminderPlatform

/// The committed inputs: `Fuzz/corpus/TARGET` (seeds and what fuzzing found worth keeping) and
/// `Fuzz/regressions/TARGET` (inputs that once crashed), replayed by the tests on every run.
public enum FuzzCorpus {
    /// The files at `path` (a file, or a directory's regular files), sorted by name.
    public static func files(at path: String) -> [String] {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [] }
        guard isDirectory else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { "\(path)/\($0)" }
    }

    /// Runs every input at `paths` through `target`; returns how many there were.
    public static func replay(_ target: String, paths: [String]) throws(ReminderPlatformError) -> Int {
        var count = 0
        for path in paths {
            for file in files(at: path) {
                FuzzTargets.run(target, try FileReader.read(file))
                count += 1
            }
        }
        return count
    }
}
