// reminder-load: the socket load generator behind scripts/bench-daemon.sh.
//
//     reminder-load echo SOCKET                      serve the raw echo baseline
//     reminder-load run SOCKET CLIENTS REQUESTS [--echo]
//                                                    CLIENTS connections × REQUESTS mixed
//                                                    requests; prints the figures as JSON

import Foundation

let arguments = CommandLine.arguments
switch arguments.dropFirst().first {
case "echo" where arguments.count == 3:
    EchoServer.run(path: arguments[2])
case "run" where arguments.count >= 5:
    guard let clients = Int(arguments[3]), let requests = Int(arguments[4]) else {
        fatal("CLIENTS and REQUESTS are numbers")
    }
    let run = LoadRun(
        path: arguments[2], clients: clients, requestsPerClient: requests, checkReplies: !arguments.contains("--echo"))
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    print(String(decoding: try! encoder.encode(run.run()), as: UTF8.self))
default:
    fatal("usage: reminder-load echo SOCKET | run SOCKET CLIENTS REQUESTS [--echo]")
}
