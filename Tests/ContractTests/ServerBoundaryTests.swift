import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import OnboardServer
import OnboardService
import ServiceAPI
import ServiceClient
import TestSupport
import Testing

/// The server's edges: bad input gets a 4xx with the error envelope, never a 5xx or a
/// crash; QA endpoints exist only with --dev; the client turns bad servers into codes.
@Suite struct ServerBoundaryTests {
    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: [String: Any]
    }

    func raw(
        _ server: RunningServer, _ method: HTTPMethod, _ path: String, body: Data? = nil, contentType: String = "application/json"
    ) async throws -> Reply {
        var request = HTTPClientRequest(url: server.base + path)
        request.method = method
        if let body {
            request.headers.add(name: "Content-Type", value: contentType)
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        var buffer = try await response.body.collect(upTo: 1 << 20)
        let data = buffer.readData(length: buffer.readableBytes) ?? Data()
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        var headers: [String: String] = [:]
        for header in response.headers { headers[header.name.lowercased()] = header.value }
        return Reply(status: Int(response.status.code), headers: headers, body: object)
    }

    @Test func malformedJSONWrongTypesAndUnknownRoutesGetTheEnvelope() async throws {
        let server = try await RunningServer.start()
        defer { server.stop() }
        let malformed = try await raw(server, .POST, "/api/v1/auth/login", body: Data("{\"email\": ".utf8))
        #expect(malformed.status == 400)
        #expect(malformed.body["code"] as? String == "invalid_input")
        let wrongTypes = try await raw(server, .POST, "/api/v1/auth/login", body: Data("{\"email\": 5, \"password\": []}".utf8))
        #expect(wrongTypes.status == 400)
        #expect(wrongTypes.body["code"] as? String == "invalid_input")
        let unknown = try await raw(server, .GET, "/api/v1/no/such/thing")
        #expect(unknown.status == 404)
        #expect(unknown.body["code"] as? String == "not_found")
        let noToken = try await raw(server, .GET, "/api/v1/user/profile")
        #expect(noToken.status == 401)
        #expect(noToken.body["code"] as? String == "unauthorized")
    }

    /// Found by the fuzzer (schemathesis, ST201): a nonce of 129 code points was taken
    /// because "\r\n" is one Swift Character; the schema's maxLength counts code points.
    @Test func lengthsAreCountedAsTheSchemaCountsThem() async throws {
        let server = try await RunningServer.start()
        defer { server.stop() }
        let nonce = "a\\r\\n" + String(repeating: "*", count: 126)  // 128 Characters, 129 code points
        let body = #"{"provider": "apple", "account": "ana@example.org", "audience": "org.onboard.client", "nonce": "\#(nonce)"}"#
        let refused = try await raw(server, .POST, "/api/v1/mock-idp/token", body: Data(body.utf8))
        #expect(refused.status == 400)
        let fits = body.replacingOccurrences(of: "a\\r\\n*", with: "a\\r\\n")
        #expect(try await raw(server, .POST, "/api/v1/mock-idp/token", body: Data(fits.utf8)).status == 200)
    }

    @Test func aBadBodyIsExplainedInTheAPIsTerms() async throws {
        let server = try await RunningServer.start()
        defer { server.stop() }
        let notAnObject = try await raw(server, .POST, "/api/v1/auth/login", body: Data("[1, 2]".utf8))
        #expect(notAnObject.body["message"] as? String == "The request body must be a JSON object.")
        let wrongType = try await raw(server, .POST, "/api/v1/auth/login", body: Data("{\"email\": 5, \"password\": \"x\"}".utf8))
        #expect(wrongType.body["message"] as? String == "The field 'email' must be a string.")
        let missing = try await raw(server, .POST, "/api/v1/auth/login", body: Data("{\"email\": \"a@b.example\"}".utf8))
        #expect(missing.body["message"] as? String == "The field 'password' is missing.")
        let broken = try await raw(server, .POST, "/api/v1/auth/login", body: Data("{\"email\": ".utf8))
        #expect(broken.body["message"] as? String == "The request body is not valid JSON.")
        // Issue 32: `null` was "The field '' must be a JSON object"; a number too big or not
        // whole for its field was "not valid JSON".
        let null = try await raw(server, .POST, "/api/v1/auth/login", body: Data("null".utf8))
        #expect(null.body["message"] as? String == "The request body must be a JSON object, not null.")
        for number in ["1e300", "1.5", "99999999999999999999"] {
            let tooBig = try await raw(server, .POST, "/api/v1/dev/clock", body: Data("{\"offset_seconds\": \(number)}".utf8))
            #expect(tooBig.status == 400)
            #expect(
                tooBig.body["message"] as? String
                    == "The field 'offset_seconds' must be a whole number between -9223372036854775808 and 9223372036854775807.",
                "\(number)")
        }
        for reply in [notAnObject, wrongType, missing, broken, null] {
            #expect(reply.status == 400)
            #expect(!(reply.body["message"] as? String ?? "").contains("Dictionary"), "no Swift names")
        }
    }

    /// Issue 46 §2 (ASVS 5.0 3.5.2, 4.0.3 13.1.5): a JSON endpoint processed bodies sent
    /// as text/plain, a form or multipart, or with no type — requests a page on any site can
    /// make through its visitor's browser without a CORS preflight. Every body-reading
    /// endpoint of `Wire` answers 415 to each, and reads the same body sent as JSON; the
    /// device page's forms take only a form.
    @Test func everyEndpointReadsOnlyTheBodyTypeItSpeaks() async throws {
        let server = try await RunningServer.start()
        defer { server.stop() }
        let guest = try await raw(server, .POST, "/api/v1/auth/anonymous", body: Data(#"{"flow":"oklah"}"#.utf8))
        let token = try #require((guest.body["session"] as? [String: Any])?["access_token"] as? String)
        let simple = ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", nil]
        for call in Wire.allCalls where call.endpoint.method != .get {
            let path =
                "/api/v1/" + call.endpoint.path.split(separator: "/").map { $0.hasPrefix(":") ? "x" : String($0) }.joined(separator: "/")
            let method = HTTPMethod(rawValue: call.endpoint.method.rawValue)
            for type in simple {
                let reply = try await sendTyped(server, method, path, body: Data("{}".utf8), type: type, bearer: token)
                #expect(reply.status == 415, "\(method) \(path) as \(type ?? "no type"): \(reply.status)")
                #expect(reply.body["code"] as? String == "invalid_input")
            }
            let json = try await sendTyped(
                server, method, path, body: Data("{}".utf8), type: "Application/JSON; charset=utf-8", bearer: token)
            #expect(json.status != 415, "\(path) reads JSON")
        }
        // The issue's own case: no SMS is queued by a text/plain body.
        let sms = try await sendTyped(
            server, .POST, "/api/v1/auth/phone/send", body: Data(#"{"phone":"+14155550199"}"#.utf8), type: "text/plain")
        #expect(sms.status == 415)
        #expect(try await HTTPTransport(base: server.base).outbox().isEmpty, "no SMS queued")
        for type in ["application/json", "text/plain"] {
            #expect(try await sendTyped(server, .POST, "/device", body: Data("user_code=BCDF-GHJK".utf8), type: type).status == 415)
        }
        #expect(
            try await sendTyped(server, .POST, "/device", body: Data("user_code=BCDF-GHJK".utf8), type: "application/x-www-form-urlencoded")
                .status == 400)
    }

    func sendTyped(
        _ server: RunningServer, _ method: HTTPMethod, _ path: String, body: Data, type: String?, bearer: String? = nil
    ) async throws -> Reply {
        var request = HTTPClientRequest(url: server.base + path)
        request.method = method
        if let type { request.headers.add(name: "Content-Type", value: type) }
        if let bearer { request.headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        request.body = .bytes(ByteBuffer(bytes: body))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        var buffer = try await response.body.collect(upTo: 1 << 20)
        let data = buffer.readData(length: buffer.readableBytes) ?? Data()
        return Reply(
            status: Int(response.status.code), headers: [:], body: (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:])
    }

    @Test func aWrongMethodIs405WithAllowAndNoSessionIs401BeforeTheBody() async throws {
        let server = try await RunningServer.start()
        defer { server.stop() }
        let wrongMethod = try await raw(server, .DELETE, "/api/v1/children")
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.headers["allow"] == "GET, POST")
        #expect(wrongMethod.body["code"] as? String == "invalid_input")
        let withParameter = try await raw(server, .POST, "/api/v1/records/steps")
        #expect(withParameter.status == 405)
        #expect(withParameter.headers["allow"] == "PUT")
        let unknown = try await raw(server, .DELETE, "/api/v1/no/such/thing")
        #expect(unknown.status == 404)
        let noSession = try await raw(server, .POST, "/api/v1/invites/accept", body: Data("{}".utf8))
        #expect(noSession.status == 401)
        #expect(noSession.body["code"] as? String == "unauthorized")
    }

    @Test func aHugeBodyIsRefusedNotRead() async throws {
        let server = try await RunningServer.start()
        defer { server.stop() }
        let huge = Data("{\"email\":\"".utf8) + Data(repeating: 0x61, count: 2 << 20) + Data("\"}".utf8)
        let reply = try await raw(server, .POST, "/api/v1/auth/login", body: huge)
        #expect((400..<500).contains(reply.status))
        #expect(reply.body["code"] as? String == "invalid_input")
    }

    /// Found by reliability/hostile.py: a request whose body never came held its
    /// connection for ever.
    @Test func aRequestWhoseBodyNeverComesIsClosedOnceIdle() async throws {
        let server = try await RunningServer.start(idleTimeout: .milliseconds(300))
        defer { server.stop() }
        let connection = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(connection) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(server.port).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(connection, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(connected == 0)
        let partial =
            "POST /api/v1/auth/anonymous HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"flow\":"
        _ = partial.withCString { send(connection, $0, strlen($0), 0) }
        // The server closes it: a read ends (0 bytes) well before 10 s. Asked without
        // blocking, so the wait holds none of the suite's few threads (a blocking poll here
        // once starved the in-process server it waits for, in a full parallel run).
        var ready = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
        var waited = 0
        while poll(&ready, 1, 0) == 0, waited < 10_000 {
            try await Task.sleep(for: .milliseconds(50))
            waited += 50
        }
        #expect(ready.revents & Int16(POLLIN | POLLHUP) != 0, "the connection was still open after 10 s")
        var byte: UInt8 = 0
        #expect(recv(connection, &byte, 1, 0) <= 0, "closed, not answered")
    }

    @Test func rateLimitedAnswersCarryRetryAfter() async throws {
        var settings = contractSettings
        settings.signInPerAddress = RateLimit(limit: 2, window: 60)
        let server = try await RunningServer.start(settings: settings)
        defer { server.stop() }
        for _ in 0..<2 { _ = try await raw(server, .POST, "/api/v1/auth/anonymous", body: Data("{}".utf8)) }
        let limited = try await raw(server, .POST, "/api/v1/auth/anonymous", body: Data("{}".utf8))
        #expect(limited.status == 429)
        #expect(limited.body["code"] as? String == "rate_limited")
        #expect(Int(limited.headers["retry-after"] ?? "") ?? 0 > 0)
        #expect(limited.body["retry_after"] as? Int == Int(limited.headers["retry-after"] ?? ""))
    }

    /// Issue 36: probes for machines beside the clients' health, outside the API (no
    /// session, nothing to document): the process answers, and the store answers. (The
    /// database going away, 503, is the outage test's.)
    @Test func livenessAndReadinessAnswerOnBothStores() async throws {
        for postgres in [false, true] {
            let server = try await RunningServer.start(dev: false, postgres: postgres)
            defer { server.stop() }
            for path in ["/livez", "/readyz"] {
                let answer = try await raw(server, .GET, path)
                #expect(answer.status == 200, "\(path)")
                #expect(answer.body["status"] as? String == "ok", "\(path)")
            }
        }
    }

    @Test func qaEndpointsExistOnlyWithDev() async throws {
        let production = try await RunningServer.start(dev: false)
        defer { production.stop() }
        #expect(try await raw(production, .GET, "/api/v1/dev/outbox").status == 404)
        #expect(try await raw(production, .POST, "/api/v1/dev/reset").status == 404)
        let dev = try await RunningServer.start(dev: true)
        defer { dev.stop() }
        #expect(try await raw(dev, .GET, "/api/v1/dev/outbox").status == 200)
    }

    @Test func aClockOffsetOutOfRangeIsRefusedAndTheServerLives() async throws {
        let server = try await RunningServer.start(dev: true)
        defer { server.stop() }
        let tooFar = try await raw(server, .POST, "/api/v1/dev/clock", body: Data("{\"offset_seconds\": 9223372036854775807}".utf8))
        #expect(tooFar.status == 400)
        #expect(tooFar.body["code"] as? String == "invalid_input")
        #expect((tooFar.body["message"] as? String)?.contains("100 years") == true)
        let signIn = try await raw(server, .POST, "/api/v1/auth/anonymous", body: Data("{}".utf8))
        #expect(signIn.status == 200, "the next request is served")
        let dayLater = try await raw(server, .POST, "/api/v1/dev/clock", body: Data("{\"offset_seconds\": 86400}".utf8))
        #expect(dayLater.status == 200)
    }

    @Test func injectedServerFaultsReachTheClientAsTheirCodes() async throws {
        let server = try await RunningServer.start()
        defer { server.stop() }
        let client = try HTTPTransport(base: server.base, timeout: .seconds(30))
        let expectations: [(Fault, ServiceError.Code)] = [(.network, .network), (.serverError, .serverError), (.rateLimit, .rateLimited)]
        for (fault, code) in expectations {
            try await client.setFaults([fault])
            do {
                _ = try await client.signInAnonymously(flow: "oklah")
                Issue.record("\(fault) did not fail the call")
            } catch let error as ServiceError {
                #expect(error.code == code)
            }
        }
        try await client.setFaults([.reauthFail])
        let session = try await client.signInAnonymously(flow: "oklah").session
        do {
            _ = try await client.refresh(refreshToken: session.refreshToken)
            Issue.record("reauth-fail did not reject the refresh")
        } catch let error as ServiceError {
            #expect(error.code == .unauthorized)
        }
        try await client.reset()
        #expect(try await client.health() == "ok")
    }

    @Test func theOpenAPIDocumentNamesEveryRoute() async throws {
        let server = try await RunningServer.start(dev: true)
        defer { server.stop() }
        var request = HTTPClientRequest(url: server.base + "/api/v1/openapi.yaml")
        request.method = .GET
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        var buffer = try await response.body.collect(upTo: 1 << 20)
        let document = buffer.readString(length: buffer.readableBytes) ?? ""
        var documented: Set<String> = []
        var path = ""
        for line in document.split(separator: "\n") {
            if line.hasPrefix("  /"), line.hasSuffix(":") { path = String(line.dropFirst(2).dropLast()) }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("    "), !line.hasPrefix("     "), ["get:", "post:", "put:", "delete:"].contains(trimmed) {
                documented.insert("\(trimmed.dropLast().uppercased()) \(path)")
            }
        }
        let served = Set(try OnboardServer.routeList(dev: true))
        // One declaration: the server routes every endpoint and nothing else, with and
        // without --dev, and the document describes the same.
        #expect(served == Set(Endpoint.all.map(\.documented)))
        #expect(Set(try OnboardServer.routeList(dev: false)) == Set(Endpoint.all.filter { !$0.isDev }.map(\.documented)))
        #expect(
            documented == served,
            "documented, not served: \(documented.subtracting(served).sorted()); served, not documented: \(served.subtracting(documented).sorted())"
        )
    }

    @Test func aServerThatAnswersGarbageIsABadResponse() async throws {
        let garbage = try await GarbageServer.start()
        defer { garbage.stop() }
        let client = try HTTPTransport(base: "http://127.0.0.1:\(garbage.port)")
        do {
            _ = try await client.health()
            Issue.record("garbage was accepted")
        } catch let error as ServiceError {
            #expect(error.code == .badResponse)
        }
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let silent = try SilentListener()
        defer { silent.close() }
        let client = try HTTPTransport(base: "http://127.0.0.1:\(silent.port)", timeout: .seconds(1))
        do {
            _ = try await client.health()
            Issue.record("a silent server answered")
        } catch let error as ServiceError {
            #expect(error.code == .timeout || error.code == .network)
        }
    }

    @Test func nothingListeningIsANetworkError() async throws {
        let closed = try SilentListener()
        let port = closed.port
        closed.close()
        let client = try HTTPTransport(base: "http://127.0.0.1:\(port)")
        do {
            _ = try await client.health()
            Issue.record("a closed port answered")
        } catch let error as ServiceError {
            #expect(error.code == .network)
        }
    }

    @Test func plainHTTPToAnotherHostIsRefusedUnlessInsecure() throws {
        #expect(throws: HTTPTransport.AddressError.self) { _ = try HTTPTransport(base: "http://example.org:8080") }
        _ = try HTTPTransport(base: "http://example.org:8080", insecure: true)
        _ = try HTTPTransport(base: "https://example.org")
        _ = try HTTPTransport(base: "http://localhost:8080")
        _ = try HTTPTransport(base: "http://[::1]:8080")
        #expect(throws: HTTPTransport.AddressError.self) { _ = try HTTPTransport(base: "ftp://example.org") }
    }

    @Test func httpsWorksWithASelfSignedCertificateMadeNow() async throws {
        let (certificate, key) = try await selfSignedCertificate()
        let server = try await RunningServer.start(tls: (certificate, key))
        defer { server.stop() }
        let client = try HTTPTransport(base: "https://localhost:\(server.port)", trustRoots: [certificate])
        #expect(try await client.health() == "ok")
        let untrusting = try HTTPTransport(base: "https://localhost:\(server.port)")
        do {
            _ = try await untrusting.health()
            Issue.record("an untrusted certificate was accepted")
        } catch let error as ServiceError {
            #expect(error.code == .network)
        }
    }

    /// Issue 31 (ASVS 9.1.2, 9.1.3, 14.4.5): with `--tls-cert` only TLS 1.2 and 1.3 with
    /// forward-secret AEAD suites are spoken (Mozilla's intermediate profile), and HTTPS
    /// answers carry HSTS. Checked with OpenSSL's own client, offering what a weak or old
    /// client would (security level 0, so it does offer them).
    @Test func tlsSpeaksOnlyTheIntermediateProfileAndSendsHSTS() async throws {
        let (certificate, key) = try await selfSignedCertificate()
        let server = try await RunningServer.start(tls: (certificate, key))
        defer { server.stop() }
        func handshake(_ options: [String]) async -> (status: Int32, output: String) {
            await Subprocess.run(
                "/usr/bin/openssl", ["s_client", "-connect", "127.0.0.1:\(server.port)", "-servername", "localhost"] + options, input: "")
        }
        for refused in [
            ["-tls1", "-cipher", "DEFAULT:@SECLEVEL=0"], ["-tls1_1", "-cipher", "DEFAULT:@SECLEVEL=0"],
            ["-tls1_2", "-cipher", "AES128-SHA:@SECLEVEL=0"], ["-tls1_2", "-cipher", "AES256-GCM-SHA384:@SECLEVEL=0"],
            ["-tls1_2", "-cipher", "ECDHE-RSA-AES128-SHA:@SECLEVEL=0"],
        ] {
            let answer = await handshake(refused)
            #expect(answer.status != 0, "\(refused) was accepted:\n\(answer.output.suffix(600))")
        }
        let modern = await handshake(["-tls1_2", "-cipher", "ECDHE-RSA-AES128-GCM-SHA256"])
        #expect(modern.status == 0 && modern.output.contains("ECDHE-RSA-AES128-GCM-SHA256"), "\(modern.output.suffix(600))")
        let newest = await handshake(["-tls1_3"])
        #expect(newest.status == 0 && newest.output.contains("TLSv1.3"), "\(newest.output.suffix(600))")
        // Python's own HTTP client, trusting the certificate made above.
        let script =
            "import ssl,sys,urllib.request as u\nc=ssl.create_default_context(cafile=sys.argv[2])\nprint(u.urlopen(sys.argv[1],context=c).headers.get('Strict-Transport-Security'))"
        let hsts = await Subprocess.run(
            "/usr/bin/env", ["python3", "-c", script, "https://localhost:\(server.port)/api/v1/health", certificate]
        ).output
        #expect(hsts.trimmingCharacters(in: .whitespacesAndNewlines) == "max-age=63072000", "\(hsts)")
    }

    /// A certificate for localhost and 127.0.0.1, made now by OpenSSL, and its key.
    func selfSignedCertificate() async throws -> (certificate: String, key: String) {
        let folder = temporaryPath("tls")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let certificate = folder + "/cert.pem", key = folder + "/key.pem"
        let made = await Subprocess.run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
                "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
            ])
        try #require(made.status == 0, "openssl could not make a certificate: \(made.output)")
        return (certificate, key)
    }
}
