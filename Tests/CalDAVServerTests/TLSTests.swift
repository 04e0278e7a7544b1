import CalDAV
import Foundation
import Testing

/// TLS verification is always on: a certificate nobody vouched for, or one for another name, is
/// refused with a named error; a self-hosted CA given as a PEM file is trusted.
@Suite struct TLSTests {
    /// Radicale behind the fault proxy serving https with a self-signed certificate for `name`.
    func withTLSProxy(certificateFor name: String, _ body: (URL, String) throws -> Void) throws {
        let server = try TestServer.start(.radicale)
        defer { server.stop() }
        let folder = try TestServer.temporaryFolder("tls")
        defer { try? FileManager.default.removeItem(at: folder) }
        let certificate = folder.appendingPathComponent("cert.pem").path
        let key = folder.appendingPathComponent("key.pem").path
        try run([
            "/usr/bin/openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=\(name)",
            "-addext", "subjectAltName=\(name == "127.0.0.1" ? "IP" : "DNS"):\(name)", "-keyout", key, "-out",
            certificate,
        ])
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "fault_proxy.py")
        let port = try TestServer.freePort()
        let proxy = try TestServer.launch(
            "TLS proxy", ["python3", script.path, String(server.port), String(port), certificate, key], port: port,
            folder: try TestServer.temporaryFolder("tls-proxy"))
        defer { proxy.stop() }
        try body(URL(string: "https://127.0.0.1:\(port)/")!, certificate)
    }

    func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(arguments.joined(separator: " ")) failed")
    }

    func isTLSError(_ error: any Error, _ request: String) -> Bool {
        guard let error = error as? DAVError, case .tls(let failed, _) = error else { return false }
        return failed == request && !error.isRetryable && error.description.contains("certificate was not accepted")
    }

    @Test func aSelfSignedCertificateIsRefused() throws {
        try withTLSProxy(certificateFor: "127.0.0.1") { origin, _ in
            let client = CalDAVClient(
                account: origin, credentials: ServerAccount.credentials, transport: try! CurlTransport())
            let request = "PROPFIND \(origin.absoluteString).well-known/caldav"
            #expect { try client.discover() } throws: { isTLSError($0, request) }
        }
    }

    @Test func aTrustedCertificateForAnotherNameIsRefused() throws {
        try withTLSProxy(certificateFor: "dav.example.org") { origin, certificate in
            let account = origin.appendingPathComponent("alice/")
            let client = CalDAVClient(
                account: account, credentials: ServerAccount.credentials,
                transport: try! CurlTransport(trustedCertificates: certificate))
            #expect { try client.discover() } throws: { isTLSError($0, "PROPFIND \(account.absoluteString)") }
        }
    }

    @Test func aCertificateFromTheGivenCAIsTrusted() throws {
        try withTLSProxy(certificateFor: "127.0.0.1") { origin, certificate in
            let client = CalDAVClient(
                account: origin, credentials: ServerAccount.credentials,
                transport: try! CurlTransport(trustedCertificates: certificate))
            let home = try client.discover().calendarHome
            #expect(home == origin.appendingPathComponent("alice/"))
        }
    }
}
