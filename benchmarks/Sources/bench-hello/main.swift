// The ceiling for the server benchmark: a bare Hummingbird "hello" route on the same
// stack onboard-server uses, measured in the same run.
//
//     bench-hello PORT
import Hummingbird

let port = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 8090
let router = Router()
router.get("hello") { _, _ in "hello" }
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
