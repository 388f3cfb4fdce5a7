import Foundation
import Testing
import TestSupport

extension EndToEnd {
    /// The OKLah flow against a real onboard-server process, as well as the mock.
    @Suite struct RemoteServiceEndToEndTests {
        /// OKLah's sign-up against `base`, then a relaunch 25 h later that renews the
        /// session: the guest and its two session files.
        func signUpThenRenew(at base: String) throws -> (tmux: Tmux, before: [String: Any], after: [String: Any]) {
            let tmux = Tmux()
            tmux.start("run oklah --service \(base)")
            tmux.waitFor("Welcome to OKLah")
            tmux.send("Enter")
            tmux.waitFor("Pick your name")
            let names = tmux.offeredNames
            #expect(names.count == 3)
            tmux.send("Enter")
            tmux.waitFor("Hi, \(names.first ?? "?")")
            tmux.send("C-c")
            tmux.waitFor("[exit 0]")
            let before = try #require(tmux.sessionFile)

            // 25 h later on the client: the access token is renewed by the server.
            tmux.start("run oklah --service \(base) --clock-offset 25h")
            tmux.waitFor("Hi, \(names.first ?? "?")")
            tmux.send("C-c")
            tmux.waitFor("[exit 0]")
            let after = try #require(tmux.sessionFile)
            #expect(after["userID"] as? String == before["userID"] as? String)
            #expect(after["refreshToken"] as? String != before["refreshToken"] as? String)
            return (tmux, before, after)
        }

        @Test func oklahWalksEndToEndAgainstOnboardServer() throws {
            let server = try ServerProcess()
            let (tmux, before, _) = try signUpThenRenew(at: server.base)

            // Against a server, the client makes no mock database; the server's file is 0600.
            #expect(!FileManager.default.fileExists(atPath: tmux.stateDirectory + "/mock.sqlite"))
            let mode = (try FileManager.default.attributesOfItem(atPath: server.database)[.posixPermissions] as? NSNumber)?.intValue
            #expect(mode == 0o600)

            #expect(server.terminate() == 0, "graceful shutdown on SIGTERM:\n\(server.output)")
            #expect(!server.output.contains(before["refreshToken"] as? String ?? "no token"), "tokens never reach the log")
        }

        /// OKLah through nginx to two instances on one PostgreSQL: the guest made on one
        /// instance picks its name and renews its session on whichever answers.
        @Test func oklahWalksEndToEndAgainstTwoInstancesBehindOneAddress() throws {
            let servers = try LoadBalancedServers()
            _ = try signUpThenRenew(at: servers.base)
        }

        /// Issue 30: a device clock almost a day fast (the README's renewal recipe) made
        /// the client call /auth/refresh 250-300 times a second. Expiry is judged on the
        /// server's clock: one renewal, then quiet.
        @Test func aClockADayFastRenewsOnceAgainstTheServer() throws {
            let server = try ServerProcess()
            let tmux = Tmux()
            tmux.start("run oklah --service \(server.base)")
            tmux.waitFor("Welcome to OKLah")
            tmux.send("Enter")
            tmux.waitFor("Pick your name")
            let name = tmux.offeredNames.first ?? "?"
            tmux.send("Enter")
            tmux.waitFor("Hi, \(name)")
            tmux.send("C-c")
            tmux.waitFor("[exit 0]")
            let before = try #require(tmux.sessionFile)

            tmux.start("run oklah --service \(server.base) --clock-offset 23h59m")
            tmux.waitFor("Hi, \(name)")
            for _ in 0..<100 where tmux.sessionFile?["refreshToken"] as? String == before["refreshToken"] as? String {
                usleep(50_000)
            }
            sleep(3)  // a storm would make hundreds of calls in this time
            tmux.send("C-c")
            tmux.waitFor("[exit 0]")
            let refreshes = server.output.components(separatedBy: "/api/v1/auth/refresh").count - 1
            #expect(refreshes == 1, "\(refreshes) renewals")
            #expect(tmux.sessionFile?["userID"] as? String == before["userID"] as? String)
            let events = (try? String(contentsOfFile: tmux.stateDirectory + "/oklah/events.jsonl", encoding: .utf8)) ?? ""
            #expect(events.split(separator: "\n").count < 20)
        }

        /// Issue 31: `--dev` on a non-loopback address started without a word, opening
        /// /dev/reset and the outbox to the network. Refused unless meant, and warned.
        @Test func devOnANetworkAddressIsRefusedUnlessMeantAndThenWarned() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dev-host-\(UUID().uuidString)").path
            let refused = Subprocess.run(ServerProcess.binary, ["--dev", "--host", "0.0.0.0", "--port", "0", "--db", folder + ".sqlite"])
            #expect(refused.status == 64)
            #expect(refused.output.contains("--dev-on-network"), "\(refused.output)")
            let output = folder + ".out"
            let pid = try #require(
                Subprocess.spawn(
                    ServerProcess.binary, ["--dev", "--host", "0.0.0.0", "--dev-on-network", "--port", "0", "--db", folder + ".sqlite"],
                    output: output))
            var said = ""
            for _ in 0..<200 where !said.contains("onboard-server listening on") {
                usleep(50_000)
                said = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            }
            #expect(said.contains("warning: --dev on 0.0.0.0"), "\(said)")
            #expect(said.contains("listening on http://0.0.0.0:"), "\(said)")
            kill(pid, SIGTERM)
            #expect(Subprocess.wait(for: pid) == 0)
        }

        @Test func sigtermLetsARequestInFlightFinish() async throws {
            let server = try ServerProcess()
            let base = server.base
            // Every answer takes 2 s; SIGTERM arrives while one is being answered.
            #expect(ServerProcess.post(base + "/api/v1/dev/faults", json: #"{"faults":["slow=2000"]}"#) == 200)
            async let reply = Task.detached { ServerProcess.post(base + "/api/v1/auth/anonymous", json: "{}") }.value
            // SIGTERM only once the server has the request (it logs each one as it arrives).
            for _ in 0..<200 where !server.output.contains("/api/v1/auth/anonymous") {
                try await Task.sleep(for: .milliseconds(25))
            }
            #expect(server.output.contains("/api/v1/auth/anonymous"), "the request reached the server:\n\(server.output)")
            kill(server.pid, SIGTERM)
            #expect(await reply == 200)
            #expect(server.terminate() == 0)
            #expect(!server.output.contains("\"refresh_token\""))
        }

        @Test func aServerThatGoesAwayShowsTheRetryableErrorNotACrash() throws {
            let server = try ServerProcess()
            let base = server.base
            #expect(server.terminate() == 0)
            let tmux = Tmux()
            tmux.start("run oklah --service \(base)")
            tmux.waitFor("Welcome to OKLah")
            tmux.send("Enter")
            tmux.waitFor("Something went wrong")
        }

        /// Issue 31: a server without TLS behind an https:// address, and a database that
        /// does not exist, were both "cannot be reached". Each says what it is.
        @Test func aServerWithoutTLSAndAMissingDatabaseEachSayWhatTheyAre() throws {
            let server = try ServerProcess()
            let secure = server.base.replacingOccurrences(of: "http://", with: "https://")
            let tmux = Tmux()
            tmux.start("run babybasics")
            tmux.waitFor("Server URL")
            tmux.send("C-u")
            tmux.type(secure)
            tmux.send("Enter")
            let screen = tmux.waitFor("Can't connect to server")
            #expect(screen.contains("secure (TLS) connection"), "\(screen)")
            #expect(screen.contains("http://."), "\(screen)")

            let missing = try ThrowawayPostgres.shared.get().url("no_such_database")
            let refused = Subprocess.run(ServerProcess.binary, ["--port", "0", "--database", missing])
            #expect(refused.status == 69)
            #expect(refused.output.contains(#"database "no_such_database" does not exist"#), "\(refused.output)")
            let nowhere = Subprocess.run(
                ServerProcess.binary, ["--port", "0", "--database", "postgres://postgres@127.0.0.1:1/none?sslmode=disable"])
            #expect(nowhere.status == 69)
            #expect(nowhere.output.contains("no PostgreSQL answers at 127.0.0.1:1 (nothing listens on that port)"), "\(nowhere.output)")
            // Issue 47: a database never reached at start was never lost.
            #expect(!nowhere.output.contains("database_lost"), "\(nowhere.output)")
            let noFolder = Subprocess.run(ServerProcess.binary, ["--port", "0", "--db", "/nonexistent-\(UUID().uuidString)/server.sqlite"])
            #expect(noFolder.status == 69)
            #expect(noFolder.output.contains("does not exist") && !noFolder.output.contains("server_error"), "\(noFolder.output)")
        }

        /// Issue 47: "Can't connect to server" went on with libcurl's own words ("Failed to
        /// connect to 127.0.0.1 port … after 0 ms: Couldn't connect to server").
        @Test func aServerNobodyAnswersAtIsSaidInPlainWords() throws {
            let server = try ServerProcess()
            let base = server.base
            #expect(server.terminate() == 0)
            let tmux = Tmux()
            tmux.start("run babybasics")
            tmux.waitFor("Server URL")
            tmux.send("C-u")
            tmux.type(base)
            tmux.send("Enter")
            let screen = tmux.waitFor("Can't connect to server")
            // The card's words, however they wrap.
            let words = screen.replacingOccurrences(of: "│", with: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(words.contains("(nothing accepted the connection there)."), "\(screen)")
            #expect(!screen.contains("Couldn't") && !screen.contains("Failed to connect"), "\(screen)")
        }

        /// Issue 32: the API's base as a server's docs give it (`…/api/v1`) asked for
        /// `/api/v1/api/v1/health`. It is the server.
        @Test func aServerURLEndingInTheAPIBaseIsTheServer() throws {
            let server = try ServerProcess()
            let tmux = Tmux()
            tmux.start("run babybasics")
            tmux.waitFor("Server URL")
            tmux.send("C-u")
            tmux.type(server.base + "/api/v1/")
            tmux.send("Enter")
            tmux.waitFor("Welcome to Baby Basics")
            // Issue 32: plain http:// to another machine said only "Check the URL", with a
            // Retry that could never work; it says why, and what to do. No request is made.
            tmux.send("Escape")
            tmux.waitFor("Server URL")
            tmux.send("C-u")
            tmux.type("http://192.0.2.10:8080")
            tmux.send("Enter")
            let screen = tmux.waitFor("Can't connect to server")
            #expect(screen.contains("plain http:// to 192.0.2.10") && screen.contains("use https://"), "\(screen)")
        }

        @Test func plainHTTPToAnotherMachineIsRefusedWithAClearMessage() {
            let tmux = Tmux()
            tmux.start("run oklah --service http://192.0.2.10:8080")
            let screen = tmux.waitFor("[exit 64]")
            #expect(screen.contains("plain http:// to 192.0.2.10"))
        }

        /// Issue 31 (ASVS 7.1.1, 7.1.3, 7.2.1): every security decision is one structured
        /// line in the server's log (event, account, address, outcome), with no secret and
        /// no email; each request's line has its status and duration and no query string.
        @Test func securityDecisionsAreLoggedAndSecretsAreNot() throws {
            let server = try ServerProcess(arguments: ["--dev"])
            let base = server.base + "/api/v1"
            #expect(ServerProcess.get(base + "/health?access_token=SECRET-IN-A-URL") == 200)
            // A device sign-in's page, its user code in the path (issue 34): no sign-in
            // waits under this one, so the page says so (issue 46: a link is looked up).
            #expect(ServerProcess.get(server.base + "/D/BCDF-GHJK") == 400)
            // The operator's report without its token (issue 35).
            #expect(ServerProcess.get(base + "/admin/funnel?flow=oklah") == 401)
            #expect(
                ServerProcess.post(
                    base + "/auth/register",
                    json: #"{"flow":"babybasics","name":"Lo","email":"lo.logged@example.org","password":"the right one"}"#) == 200)
            for attempt in 0..<11 {
                _ = ServerProcess.post(
                    base + "/auth/login", json: #"{"flow":"babybasics","email":"lo.logged@example.org","password":"wrong \#(attempt)"}"#)
            }
            // A refresh token used again after its grace: the family ends, and says so.
            let script = """
                import json,sys,time,urllib.request as u
                def post(path, body):
                    r = u.urlopen(u.Request(sys.argv[1] + path, data=json.dumps(body).encode(), headers={'Content-Type':'application/json'}))
                    return json.load(r)
                first = post('/auth/anonymous', {'flow': 'oklah'})['session']['refresh_token']
                post('/auth/refresh', {'refresh_token': first})
                post('/dev/clock', {'offset_seconds': 60})
                try: post('/auth/refresh', {'refresh_token': first})
                except Exception as e: print(getattr(e, 'code', 0))
                """
            let reuse = Subprocess.run("/usr/bin/env", ["python3", "-c", script, base])
            #expect(reuse.output.contains("401"), "\(reuse.output)")
            #expect(server.terminate() == 0)
            let log = server.output
            #expect(log.contains("event=login_failed"))
            #expect(log.contains("event=login_locked"))
            #expect(log.contains("event=refresh_token_reused"))
            #expect(log.contains("event=admin_token_refused"))
            // Each access line: method, route, request id, status (swift-log sorts the fields).
            let access = log.split(separator: "\n").filter { $0.contains("request_id=") }
            #expect(access.contains { $0.contains("method=POST path=/api/v1/auth/login request_id=") && $0.contains(" status=401 ") })
            #expect(access.contains { $0.contains("path=/api/v1/health request_id=") && $0.contains(" status=200 ") })
            #expect(!log.contains("SECRET-IN-A-URL"), "no query string in the log")
            #expect(!log.contains("BCDF-GHJK") && log.contains("path=/D/"), "the route, not the user code in its path")
            #expect(!log.contains("lo.logged@example.org"), "no email in the log")
            #expect(!log.contains("wrong 1") && !log.contains("the right one"), "no password in the log")
        }

        /// Issue 31 (ASVS 14.5.2): behind the README's nginx block every client's address
        /// was nginx's, so one client used up everyone's sign-ins. With `--trusted-proxy`
        /// the limit is each client's own; without it, `X-Forwarded-For` is not believed.
        @Test(arguments: [true, false]) func behindNginxEachClientHasItsOwnLimit(trusted: Bool) throws {
            let server = try ServerProcess(arguments: ["--sign-in-limit", "3"] + (trusted ? ["--trusted-proxy", "127.0.0.1"] : []))
            let proxy = try NginxProxy(upstreams: [server.port])
            // Two clients, told apart by the address nginx says (here they say it first
            // themselves, as a client on another machine would be seen).
            let script = """
                import json,sys,urllib.request as u
                def sign_in(address):
                    request = u.Request(sys.argv[1] + '/api/v1/auth/anonymous', data=b'{"flow":"oklah"}',
                                        headers={'Content-Type': 'application/json', 'X-Forwarded-For': address})
                    try: return u.urlopen(request).status
                    except Exception as e: return getattr(e, 'code', 0)
                print(' '.join(str(sign_in('198.51.100.1')) for _ in range(4)), sign_in('198.51.100.2'))
                """
            let statuses = Subprocess.run("/usr/bin/env", ["python3", "-c", script, proxy.base]).output.trimmingCharacters(
                in: .whitespacesAndNewlines)
            if trusted {
                #expect(statuses == "200 200 200 429 200", "the second client keeps its own limit: \(statuses)")
            } else {
                #expect(statuses == "200 200 200 429 429", "no proxy trusted: the header does not choose the address: \(statuses)")
            }
        }

        /// Issue 36: `--log-format json` is one JSON object per line (issue 47: the start-up
        /// lines scripts read too, on standard output); each request's access line has its status,
        /// duration, route and id; a trusted proxy's `X-Request-Id` is kept and answered,
        /// a client's own is not; no token reaches the log.
        @Test func jsonLogsParseLineByLineWithTheRequestsID() throws {
            let server = try ServerProcess(arguments: ["--log-format", "json", "--trusted-proxy", "127.0.0.1"])
            let answer = Subprocess.run(
                "/usr/bin/env",
                [
                    "curl", "-s", "-D", "-", "-H", "X-Request-Id: proxy-7f3a.1", "-H", "Content-Type: application/json", "-d", "{}",
                    server.base + "/api/v1/auth/anonymous",
                ])
            #expect(answer.output.contains("X-Request-Id: proxy-7f3a.1"), "\(answer.output)")
            let token = answer.output.split(separator: "\"refresh_token\":\"").dropFirst().first?.prefix { $0 != "\"" } ?? "no token"
            let forged = Subprocess.run("/usr/bin/env", ["curl", "-s", "-D", "-", "-H", "X-Request-Id: ", server.base + "/livez"])
            #expect(!forged.output.contains("X-Request-Id: \r"), "an empty id is replaced")
            #expect(server.terminate() == 0)
            let lines = server.output.split(separator: "\n")
            #expect(lines.count >= 5, "\(server.output)")
            let objects = lines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
            #expect(objects.count == lines.count, "every line is JSON: \(server.output)")
            let listening = objects.first { ($0["message"] as? String)?.hasPrefix("onboard-server listening on http://127.0.0.1:") == true }
            #expect(listening?["port"] as? Int == server.port, "the start-up line names the port: \(server.output)")
            #expect(objects.contains { ($0["message"] as? String)?.hasPrefix("onboard-server store: SQLite ") == true })
            let access = objects.first { $0["path"] as? String == "/api/v1/auth/anonymous" }
            #expect(access?["status"] as? Int == 200)
            #expect(access?["duration_ms"] is Double || access?["duration_ms"] is Int)
            #expect(access?["request_id"] as? String == "proxy-7f3a.1")
            #expect(access?["level"] as? String == "info")
            #expect(!server.output.contains(token), "the refresh token is not in the log")

            // Without a trusted proxy, a client's own id is not taken (it could forge another
            // request's line): the server makes one.
            let direct = try ServerProcess(arguments: ["--log-format", "json"])
            let own = Subprocess.run("/usr/bin/env", ["curl", "-s", "-D", "-", "-H", "X-Request-Id: forged", direct.base + "/livez"])
            #expect(own.output.lowercased().contains("x-request-id: "), "\(own.output)")
            #expect(!own.output.contains("X-Request-Id: forged"), "\(own.output)")
        }

        /// Issue 36: both programs name their version and build the same way.
        @Test func theServerSaysItsVersionAsTheClientDoes() {
            let server = Subprocess.run(ServerProcess.binary, ["--version"])
            let client = Subprocess.run(Tmux.binary, ["--version"])
            #expect(server.status == 0)
            #expect(server.output == client.output)
            #expect(server.output.hasPrefix("0."), "\(server.output)")
        }
    }
}
