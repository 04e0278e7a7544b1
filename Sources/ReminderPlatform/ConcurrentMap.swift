import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

extension Array where Element: Sendable {
    /// `transform` applied to every element, in order, with the work split into one contiguous
    /// chunk per core — for start-up, where reading 100k stored items one by one would take most
    /// of the second systemd is kept waiting.
    public func concurrentMap<T>(_ transform: @Sendable (Element) -> T) -> [T] {
        let chunks = Swift.min(count, Swift.max(1, System.coreCount))
        guard chunks > 1 else { return map(transform) }
        var results = [T?](repeating: nil, count: count)
        results.withUnsafeMutableBufferPointer { buffer in
            let output = DisjointWrites(base: buffer.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                let range = (count * chunk / chunks)..<(count * (chunk + 1) / chunks)
                for index in range { output.base[index] = transform(self[index]) }
            }
        }
        return results.map { $0! }
    }
}

/// The results buffer shared by `concurrentMap`'s chunks.
private struct DisjointWrites<T>: @unchecked Sendable {  // each chunk writes only its own index range
    let base: UnsafeMutablePointer<T?>
}

enum System {
    /// Online processors.
    static var coreCount: Int {
        #if canImport(Glibc)
            return Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        #else
            return 1
        #endif
    }
}
