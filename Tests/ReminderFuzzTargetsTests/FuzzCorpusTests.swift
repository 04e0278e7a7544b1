import ReminderFuzzTargets
import Testing

/// Every committed fuzz input — the seed corpus and each input that once crashed — goes through
/// its target again on every test run, without sanitizers.
@Suite struct FuzzCorpusTests {
    static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/Fuzz"
    }()

    @Test(arguments: FuzzTargets.names) func corpusAndRegressionsPass(target: String) throws {
        let count = try FuzzCorpus.replay(
            target, paths: ["\(Self.root)/corpus/\(target)", "\(Self.root)/regressions/\(target)"])
        #expect(count >= 5, "the \(target) seed corpus is missing")
    }
}
