// The specs' own time targets, measured through the client's own call path
// (`OperationRunner`, as the flows use it) on the embedded mock or a server:
//
//     onboard-bench [--service mock|URL] [--runs N]
//
// Prints one JSON object per measure: {"measure", "service", "runs", "median_ms", "worst_ms"}.
import EmbeddedMock
import FlowEngine
import Foundation
import OnboardRuntime
import OnboardService
import SQLiteStore
import ScreenTable
import ServiceAPI
import ServiceClient

struct Options {
  var service = "mock"
  var runs = 20

  init(_ arguments: [String]) {
    var rest = arguments.dropFirst()
    while let argument = rest.popFirst() {
      switch argument {
      case "--service": service = rest.popFirst() ?? service
      case "--runs": runs = Int(rest.popFirst() ?? "") ?? runs
      default:
        FileHandle.standardError.write(Data("onboard-bench: unknown argument \(argument)\n".utf8))
        exit(2)
      }
    }
  }
}

let options = Options(CommandLine.arguments)
let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
  "onboard-bench-\(UUID().uuidString)"
).path
try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: scratch) }

/// The transport a client would use: the embedded mock (rate limits raised for the run,
/// as they are on the server the script starts) or HTTP.
func transport() throws -> any AuthService {
  guard options.service == "mock" else { return try HTTPTransport(base: options.service) }
  var settings = ServiceSettings()
  settings.signInPerAddress = RateLimit(limit: 1_000_000, window: 60)
  let service = try OnboardService(
    database: try ServiceDatabase.open(path: scratch + "/mock.sqlite"), settings: settings)
  return InProcessTransport(service: service)
}

let service = try transport()
var nextID = 0

func runner(_ flow: String, folder: String? = nil) -> OperationRunner {
  OperationRunner(service: service, flowID: flow, device: DeviceSetup(folder: folder))
}

/// Runs one operation the way the engine asks for it; a failure stops the benchmark.
@discardableResult
@MainActor func call(
  _ operation: ScreenTable.Operation, _ runner: OperationRunner, session: Session? = nil,
  inputs: [String: String] = [:], fields: [String: Value] = [:]
) async -> CallOutput {
  nextID += 1
  let request = CallRequest(
    id: nextID, operation: operation, session: session, inputs: inputs, fields: fields)
  switch await runner.run(request) {
  case .success(let output): return output
  case .failure(let failure):
    FileHandle.standardError.write(
      Data("onboard-bench: \(operation.rawValue) failed: \(failure.code) \(failure.message)\n".utf8)
    )
    exit(1)
  }
}

/// Milliseconds `work` takes.
@MainActor func timed(_ work: @MainActor () async -> Void) async -> Double {
  let start = ContinuousClock.now
  await work()
  let elapsed = ContinuousClock.now - start
  return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
}

/// Runs `body` (which times its own part with `timed`) over the runs; prints the result.
@MainActor func measure(_ name: String, _ body: @MainActor () async -> Double) async {
  var samples: [Double] = []
  for _ in 0..<options.runs { samples.append(await body()) }
  samples.sort()
  let result: [String: Any] = [
    "measure": name, "service": options.service, "runs": samples.count,
    "median_ms": samples[samples.count / 2], "worst_ms": samples.last ?? 0,
  ]
  let data = try! JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
  print(String(decoding: data, as: UTF8.self))
}

await measure("account creation") {
  let babyBasics = runner("babybasics")
  return await timed {
    await call(
      .register, babyBasics,
      inputs: [
        "name": "Bench", "email": "bench-\(UUID().uuidString)@example.org",
        "password": "long enough",
      ])
  }
}

await measure("token refresh") {
  let oklah = runner("oklah")
  let signedIn = await call(.signInAnonymously, oklah)
  return await timed { await call(.refreshSession, oklah, session: signedIn.session) }
}

await measure("profile save") {
  let abby = runner("abby")
  let signedIn = await call(
    .socialSignIn, abby,
    inputs: ["provider": "apple", "social_account": "bench-\(UUID().uuidString)@icloud.com"])
  let fields: [String: Value] = [
    "full_name": .text("Bench Mark"),
    "display_name": .text("Bench\(Int.random(in: 100_000...999_999))"),
  ]
  return await timed { await call(.saveProfile, abby, session: signedIn.session, fields: fields) }
}

await measure("content preload") {
  let miga = runner("miga", folder: scratch + "/miga-\(UUID().uuidString)")
  await call(.prepareStore, miga)
  let signedIn = await call(.signInAnonymously, miga)
  return await timed { await call(.preloadContent, miga, session: signedIn.session) }
}

await measure("compatibility check") {
  let miga = runner("miga", folder: scratch + "/miga-\(UUID().uuidString)")
  await call(.prepareStore, miga)
  return await timed { await call(.checkCompatibility, miga) }
}

await measure("setup (MIGA's five tasks)") {
  let miga = runner("miga", folder: scratch + "/miga-\(UUID().uuidString)")
  return await timed {
    await call(.prepareStore, miga)
    let signedIn = await call(.signInAnonymously, miga)
    await call(.fetchConfig, miga, session: signedIn.session)
    await call(.preloadContent, miga, session: signedIn.session)
    await call(.checkCompatibility, miga)
  }
}
