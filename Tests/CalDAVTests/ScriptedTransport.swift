import CalDAV
import Foundation
import Synchronization

/// A transport that answers from a script, in order, and records what it was sent, for the
/// client's status and redirect handling without a server.
final class ScriptedTransport: HTTPTransport {
    struct Answer {
        var status: Int
        var headers: [String: String] = [:]
        var body: String = ""
    }

    private let state: Mutex<(answers: [Answer], sent: [HTTPRequest])>

    init(_ answers: [Answer]) { state = Mutex((answers, [])) }

    var sent: [HTTPRequest] { state.withLock { $0.sent } }

    func send(_ request: HTTPRequest, credentials: Credentials?) throws(DAVError) -> HTTPResponse {
        let answer: Answer? = state.withLock { state in
            state.sent.append(request)
            return state.answers.isEmpty ? nil : state.answers.removeFirst()
        }
        guard let answer else { throw .network(request: request.summary, detail: "script ran out") }
        return HTTPResponse(status: answer.status, headers: answer.headers, body: Array(answer.body.utf8))
    }
}

extension ScriptedTransport.Answer {
    static func xml(_ status: Int, _ body: String) -> Self {
        Self(status: status, headers: ["Content-Type": "text/xml; charset=utf-8"], body: body)
    }
}

func client(_ answers: [ScriptedTransport.Answer], account: String = "http://127.0.0.1:5232/alice/")
    -> (CalDAVClient, ScriptedTransport)
{
    let transport = ScriptedTransport(answers)
    let client = CalDAVClient(
        account: URL(string: account)!, credentials: Credentials(username: "alice", password: "pw"),
        transport: transport)
    return (client, transport)
}
