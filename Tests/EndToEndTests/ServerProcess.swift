import Foundation
import Testing
import TestSupport

/// The real `onboard-server` binary on a free loopback port.
final class ServerProcess {
    let pid: pid_t
    let port: Int
    let outputPath: String

    static var binary: String {
        URL(fileURLWithPath: Tmux.binary).deletingLastPathComponent().appendingPathComponent("onboard-server").path
    }

    /// The server's SQLite file.
    let database: String

    /// `database`: an existing SQLite file (a restart after a kill); a new one otherwise.
    /// `environment`: variables set for the server on top of the test's.
    init(arguments: [String] = ["--dev"], database existing: String? = nil, environment: [String: String] = [:]) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-server-\(UUID().uuidString)").path
        database = existing ?? folder + "/server.sqlite"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        outputPath = folder + "/output.txt"
        // Metrics on a free port too: instances side by side never contend for 9464.
        // A server given its store (PostgreSQL, or a file of the test's) has no other.
        let store = arguments.contains("--database") || arguments.contains("--db") ? [] : ["--db", database]
        let base = ["--port", "0", "--metrics-address", "127.0.0.1:0"] + store
        let variables = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        guard let pid = Subprocess.spawn("/usr/bin/env", variables + [Self.binary] + base + arguments, output: outputPath)
        else {
            throw POSIXError(.ENOENT)
        }
        self.pid = pid
        // The server prints "onboard-server listening on http://127.0.0.1:PORT".
        var found: Int?
        for _ in 0..<400 where found == nil {
            usleep(50_000)
            let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            if let range = output.range(of: "listening on http://127.0.0.1:") {
                found = Int(output[range.upperBound...].prefix { $0.isNumber })
            }
        }
        guard let found else {
            kill(pid, SIGKILL)
            throw POSIXError(.ETIMEDOUT)
        }
        port = found
    }

    var base: String { "http://127.0.0.1:\(port)" }

    var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

    /// `http://127.0.0.1:PORT/metrics` once the metrics listener said where it is.
    var metricsURL: String? {
        output.split(separator: "\n").first { $0.hasPrefix("onboard-server metrics on ") }.map {
            String($0.dropFirst("onboard-server metrics on ".count))
        }
    }

    /// What `/metrics` says now (empty when it does not answer).
    var metrics: String {
        guard let url = metricsURL else { return "" }
        let script =
            "import sys,urllib.request as u\ntry:\n print(u.urlopen(sys.argv[1],timeout=5).read().decode())\nexcept Exception:\n pass"
        return Subprocess.run("/usr/bin/env", ["python3", "-c", script, url]).output
    }

    /// Sends SIGTERM and returns the exit status (0 after a graceful shutdown).
    func terminate() -> Int32 {
        kill(pid, SIGTERM)
        return Subprocess.wait(for: pid)
    }

    /// POSTs JSON through python3's urllib (every machine here has it): an HTTP client
    /// independent of ours. Returns the status, or 0 when there was no answer.
    static func post(_ url: String, json: String) -> Int {
        let script =
            "import sys,urllib.request as u\ntry:\n r=u.urlopen(u.Request(sys.argv[1],data=sys.argv[2].encode(),headers={'Content-Type':'application/json'}),timeout=20); print(r.status)\nexcept Exception as e:\n print(getattr(e,'code',0))"
        let result = Subprocess.run("/usr/bin/env", ["python3", "-c", script, url, json])
        return Int(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// GETs through python3's urllib: the status, or 0 when there was no answer within
    /// `timeout` seconds.
    static func get(_ url: String, timeout: Int = 5) -> Int {
        let script =
            "import sys,urllib.request as u\ntry:\n r=u.urlopen(sys.argv[1],timeout=int(sys.argv[2])); print(r.status)\nexcept Exception as e:\n print(getattr(e,'code',0))"
        let result = Subprocess.run("/usr/bin/env", ["python3", "-c", script, url, "\(timeout)"])
        return Int(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    deinit {
        if kill(pid, 0) == 0 { _ = terminate() }
    }
}
