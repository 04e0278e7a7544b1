#if canImport(Glibc)
    import Glibc
#endif

extension Array where Element: Sendable {
    /// `transform` applied to every element, in order, with the work split into one contiguous
    /// chunk per core — for start-up, where reading 100k stored items one by one would take most
    /// of the second systemd is kept waiting.
    ///
    /// Plain threads, joined before returning, rather than `DispatchQueue.concurrentPerform`: that
    /// starts libdispatch's worker-pool monitor, which then wakes the process every second for
    /// good — and an idle daemon must not wake at all.
    public func concurrentMap<T>(_ transform: @Sendable (Element) -> T) -> [T] {
        let chunks = Swift.min(count, Swift.max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
        guard chunks > 1 else { return map(transform) }
        var results = [T?](repeating: nil, count: count)
        results.withUnsafeMutableBufferPointer { buffer in
            let output = DisjointWrites(base: buffer.baseAddress!)
            withoutActuallyEscaping(transform) { transform in
                let work = { (chunk: Int) in
                    for index in (count * chunk / chunks)..<(count * (chunk + 1) / chunks) {
                        output.base[index] = transform(self[index])
                    }
                }
                var threads: [pthread_t] = []
                for chunk in 1..<chunks {
                    let body = Unmanaged.passRetained(ThreadBody { work(chunk) }).toOpaque()
                    var thread = pthread_t()
                    if pthread_create(&thread, nil, { ThreadBody.run($0) }, body) == 0 {
                        threads.append(thread)
                    } else {
                        Unmanaged<ThreadBody>.fromOpaque(body).release()
                        work(chunk)  // no thread to be had: do this chunk here
                    }
                }
                work(0)
                for thread in threads { pthread_join(thread, nil) }
            }
        }
        return results.map { $0! }
    }
}

/// The results buffer shared by `concurrentMap`'s chunks.
private struct DisjointWrites<T>: @unchecked Sendable {  // each chunk writes only its own index range
    let base: UnsafeMutablePointer<T?>
}

/// A chunk's work, handed to a new thread.
private final class ThreadBody: @unchecked Sendable {  // used by one thread, joined before its captures end
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }

    static func run(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().body()
        return nil
    }
}
