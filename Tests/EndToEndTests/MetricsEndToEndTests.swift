import Foundation
import Testing
import TestSupport

extension EndToEnd {
    /// Issue 36: a real Prometheus (Debian's package) scrapes onboard-server's `/metrics`
    /// on its own listener and the series are read back through Prometheus' HTTP API.
    @Suite struct MetricsEndToEndTests {
        /// One instant query, through python3's urllib: each series' labels and value.
        static func query(_ prometheus: String, _ expression: String) -> [(labels: [String: String], value: Double)] {
            let script = """
                import json, sys, urllib.parse, urllib.request
                url = sys.argv[1] + "/api/v1/query?" + urllib.parse.urlencode({"query": sys.argv[2]})
                try:
                    for series in json.load(urllib.request.urlopen(url, timeout=5))["data"]["result"]:
                        print(json.dumps([series["metric"], float(series["value"][1])]))
                except Exception:
                    pass
                """
            let output = Subprocess.run("/usr/bin/env", ["python3", "-c", script, prometheus, expression]).output
            return output.split(separator: "\n").compactMap { line in
                guard let pair = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any], pair.count == 2,
                    let labels = pair[0] as? [String: String], let value = pair[1] as? Double
                else { return nil }
                return (labels, value)
            }
        }

        static func value(_ prometheus: String, _ expression: String) -> Double? {
            query(prometheus, expression).first?.value
        }

        @Test func aRealPrometheusScrapesTheServersSeries() throws {
            let server = try ServerProcess(arguments: ["--sign-in-limit", "4"])
            #expect(EndToEnd.waitUntil { server.metricsURL != nil })
            let target = server.metricsURL?.dropFirst("http://".count).prefix { $0 != "/" } ?? ""
            // Traffic: a wrong password, three guests and a fourth refused by the limit (four
            // sign-ins a minute from one address), a probe, a path no route has.
            #expect(
                ServerProcess.post(server.base + "/api/v1/auth/login", json: #"{"email":"nobody@example.org","password":"wrong password"}"#)
                    == 401)
            for _ in 0..<4 { _ = ServerProcess.post(server.base + "/api/v1/auth/anonymous", json: "{}") }
            #expect(ServerProcess.get(server.base + "/livez") == 200)
            #expect(ServerProcess.get(server.base + "/no/such/place/ana@example.org") == 404)
            // Issue 47: a known path asked with another method is that route's 405, not "unmatched".
            #expect(ServerProcess.get(server.base + "/api/v1/auth/anonymous") == 405)
            // A method no route answers (WebDAV's) is no label of its own.
            let madeUp =
                "import sys,urllib.request as u\ntry:\n u.urlopen(u.Request(sys.argv[1], method='PROPFIND'), timeout=5)\nexcept Exception:\n pass"
            _ = Subprocess.run("/usr/bin/env", ["python3", "-c", madeUp, server.base + "/livez"])

            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-prometheus-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let configuration = """
                global: { scrape_interval: 1s }
                scrape_configs:
                  - job_name: onboard
                    static_configs: [{ targets: ["\(target)"] }]
                """
            try configuration.write(toFile: folder + "/prometheus.yml", atomically: true, encoding: .utf8)
            let port = ThrowawayPostgres.freePort()
            let pid = try #require(
                Subprocess.spawn(
                    "/usr/bin/env",
                    [
                        "prometheus", "--config.file=\(folder)/prometheus.yml", "--storage.tsdb.path=\(folder)/data",
                        "--web.listen-address=127.0.0.1:\(port)",
                    ], output: folder + "/prometheus.log"))
            defer {
                kill(pid, SIGTERM)
                _ = Subprocess.wait(for: pid)
            }
            let prometheus = "http://127.0.0.1:\(port)"
            #expect(
                EndToEnd.waitUntil({ Self.value(prometheus, #"up{job="onboard"}"#) == 1 }, seconds: 60),
                "Prometheus scraped the server: \((try? String(contentsOfFile: folder + "/prometheus.log", encoding: .utf8))?.suffix(1500) ?? "")"
            )

            let requests = #"onboard_http_requests_total{route="/api/v1/auth/anonymous",method="POST""#
            #expect(Self.value(prometheus, requests + #",status="200"}"#) == 3)
            #expect(Self.value(prometheus, requests + #",status="429"}"#) == 1)
            #expect(Self.value(prometheus, #"onboard_sign_ins_total{method="anonymous",outcome="success"}"#) == 3)
            #expect(Self.value(prometheus, #"onboard_sign_ins_total{method="anonymous",outcome="rate_limited"}"#) == 1)
            #expect(Self.value(prometheus, #"onboard_sign_ins_total{method="login",outcome="refused"}"#) == 1)
            #expect(Self.value(prometheus, #"onboard_rate_limit_refusals_total{limit="sign-in"}"#) == 1)
            #expect(
                Self.value(prometheus, #"onboard_http_request_duration_seconds_count{route="/api/v1/auth/anonymous",method="POST"}"#) == 4)
            #expect(Self.value(prometheus, #"onboard_http_requests_total{route="/livez"}"#) == 1)
            #expect(Self.value(prometheus, #"onboard_http_requests_total{route="unmatched",status="404"}"#) == 1)
            #expect(Self.value(prometheus, "onboard_build_info") == 1)
            // No label carries what a client sent: the email in the unknown path is nowhere.
            let everything = Self.query(prometheus, #"{__name__=~"onboard_.+"}"#)
            #expect(everything.count > 10)
            #expect(everything.allSatisfy { series in series.labels.values.allSatisfy { !$0.contains("@") && !$0.contains("PROPFIND") } })
            #expect(Self.value(prometheus, #"onboard_http_requests_total{method="other"}"#) == 1)
            #expect(Self.value(prometheus, #"onboard_http_requests_total{route="/api/v1/auth/anonymous",method="GET",status="405"}"#) == 1)
            let lint = Self.promtool(server.metrics)
            #expect(lint.status == 0, "promtool check metrics: \(lint.output)")
        }

        /// Issue 47: `promtool check metrics` (Prometheus' own linter) exited 3 on the
        /// scrape: five families had no `# HELP`. Every family, PostgreSQL's pool's too,
        /// is described.
        @Test func promtoolFindsNothingToSayAboutTheScrape() throws {
            let url = try ThrowawayPostgres.shared.get().newDatabase()
            let server = try ServerProcess(arguments: ["--database", url])
            for _ in 0..<2 { _ = ServerProcess.post(server.base + "/api/v1/auth/anonymous", json: "{}") }
            let scrape = server.metrics
            for family in ["onboard_http_requests_total", "onboard_sign_ins_total", "onboard_store_connections_in_use"] {
                #expect(scrape.contains("# HELP \(family) "), "\(family) is described: \(scrape)")
            }
            let lint = Self.promtool(scrape)
            #expect(lint.status == 0, "promtool check metrics: \(lint.output)")
        }

        /// `promtool check metrics` on a scrape: its exit status and what it said.
        static func promtool(_ scrape: String) -> (status: Int32, output: String) {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-scrape-\(UUID().uuidString).txt").path
            try? scrape.write(toFile: file, atomically: true, encoding: .utf8)
            let result = Subprocess.run("/bin/sh", ["-c", "promtool check metrics < \"$1\"", "sh", file])
            return (result.status, result.output)
        }
    }
}
