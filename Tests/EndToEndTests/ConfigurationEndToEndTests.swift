import Foundation
import Testing
import TestSupport

extension EndToEnd {
    /// Issue 36: `onboard-server` read from a configuration file, with flags over the
    /// environment over the file, and `check-config` saying what is wrong and where.
    @Suite struct ConfigurationEndToEndTests {
        let folder: String

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("onboard-config-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }

        func write(_ name: String, _ text: String, mode: Int = 0o644) throws -> String {
            let path = folder + "/" + name
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
            return path
        }

        /// Issue 46: a configuration file holding the database's password, readable by
        /// every local user, passed `check-config` and started. It is refused as a secret
        /// file others can read, with the chmod that fixes it.
        @Test func aFileHoldingTheDatabasePasswordMustBeTheOwnersAlone() throws {
            let text = "database: postgres://onboard:s3cret@127.0.0.1:1/onboard?sslmode=disable\n"
            let open = try write("open.yaml", text, mode: 0o644)
            let checked = Subprocess.run(ServerProcess.binary, ["check-config", open])
            #expect(checked.status == 1)
            #expect(
                checked.output.contains(
                    "\(open):1:11: database: holds the database's password, but \(open) can be read by other users (mode 644): run chmod 600 \(open)"
                ),
                "\(checked.output)")
            #expect(!checked.output.contains("s3cret"), "the password is never said")
            let closed = try write("closed.yaml", text, mode: 0o600)
            #expect(Subprocess.run(ServerProcess.binary, ["check-config", closed]).status == 0)
            let plain = try write("plain.yaml", "database: postgres://onboard@127.0.0.1:1/onboard?sslmode=disable\n", mode: 0o644)
            #expect(Subprocess.run(ServerProcess.binary, ["check-config", plain]).status == 0, "no password, nothing to hide")
        }

        @Test func checkConfigSaysEveryProblemWithItsLineAndColumn() throws {
            let file = try write(
                "onboard.yaml",
                """
                port: 80800
                sign_in_limt: 5
                bcrypt_cost: eleven
                log_format: xml
                trusted_proxy: [10.0.0.0/8, nowhere]
                tls_cert: \(folder)/missing.pem
                """)
            let checked = Subprocess.run(ServerProcess.binary, ["check-config", file])
            #expect(checked.status == 1)
            let expected = [
                "\(file):1:7: port must be between 0 and 65535, not 80800",
                "\(file):2:1: unknown key 'sign_in_limt'; did you mean 'sign_in_limit'?",
                "\(file):3:14: bcrypt_cost must be a whole number, not 'eleven'",
                "\(file):4:13: log_format must be text or json, not 'xml'",
                "\(file):5:16: trusted_proxy: 'nowhere' is not an address or CIDR block like 127.0.0.1 or 10.0.0.0/8",
                "\(file):6:11: tls_cert needs tls_key too (--tls-key)",
                "\(file):6:11: tls_cert: '\(folder)/missing.pem' cannot be read",
            ]
            #expect(checked.output.split(separator: "\n").map(String.init) == expected, "\(checked.output)")
            // The server refuses the same file with the same words and nothing else (issue
            // 47: no "Error: " before them, no usage after), before it listens.
            let served = Subprocess.run(ServerProcess.binary, ["--config", file])
            #expect(served.status == 64)
            #expect(served.output.split(separator: "\n").map(String.init) == expected, "\(served.output)")

            let broken = try write("broken.yaml", "port: 8080\n  host: example.org\n")
            let syntax = Subprocess.run(ServerProcess.binary, ["check-config", broken])
            #expect(syntax.status == 1)
            #expect(syntax.output.hasPrefix("\(broken):2:7: not YAML: mapping values are not allowed"), "\(syntax.output)")

            // A key quoting a terminal's escape (a window-title change) is shown, not obeyed.
            let hostile = try write("hostile.yaml", "\"\\e]0;owned\\a\": 1\n")
            let shown = Subprocess.run(ServerProcess.binary, ["check-config", hostile])
            #expect(shown.status == 1)
            #expect(
                shown.output.contains("unknown key") && !shown.output.contains("\u{1B}") && !shown.output.contains("\u{07}"),
                "\(shown.output)")

            let fixed = try write("fixed.yaml", "port: 8443\nsign_in_limit: 5\ntrusted_proxy: [10.0.0.0/8]\n")
            let ok = Subprocess.run(ServerProcess.binary, ["check-config", fixed])
            #expect(ok.status == 0)
            #expect(ok.output == "\(fixed): ok\n")
        }

        /// ASVS 5.0 13.3.1 (secrets from a secret store or the environment, not the
        /// configuration): the providers may be written in place, their secrets may not.
        @Test func theProvidersGoInTheFileTheirSecretsDoNot() throws {
            let secret = try write("google-secret", "s3cret-from-the-console\n", mode: 0o600)
            let inPlace = try write(
                "in-place.yaml",
                """
                identity_providers:
                  google:
                    issuer: https://accounts.google.com
                    client_id: onboard.apps.googleusercontent.com
                    client_secret: s3cret-from-the-console
                """)
            let refused = Subprocess.run(ServerProcess.binary, ["check-config", inPlace])
            #expect(refused.status == 1)
            #expect(
                refused.output
                    == "\(inPlace):5:5: identity_providers: google: a client secret is not written here; give client_secret_env or client_secret_file\n"
            )
            let byFile = try write(
                "by-file.yaml",
                """
                identity_providers:
                  google:
                    issuer: https://accounts.google.com
                    client_id: onboard.apps.googleusercontent.com
                    client_secret_file: \(secret)
                """)
            #expect(Subprocess.run(ServerProcess.binary, ["check-config", byFile]).output == "\(byFile): ok\n")
        }

        /// The file sets four sign-ins a minute; `$ONBOARD_SIGN_IN_LIMIT` wins over it, and
        /// the flag over both. A client sees the limit as the first 429.
        @Test func flagsWinOverTheEnvironmentWhichWinsOverTheFile() throws {
            let file = try write("limits.yaml", "sign_in_limit: 2\nlog_format: json\n")
            func signInsBeforeRefusal(_ server: ServerProcess) -> Int {
                for count in 0..<10 where ServerProcess.post(server.base + "/api/v1/auth/anonymous", json: "{}") == 429 {
                    return count
                }
                return 10
            }
            let fromFile = try ServerProcess(arguments: ["--config", file])
            #expect(signInsBeforeRefusal(fromFile) == 2)
            // The file's other keys are in force too: the access lines are JSON.
            #expect(
                fromFile.output.split(separator: "\n").contains { $0.hasPrefix("{") && $0.contains(#""status":429"#) }, "\(fromFile.output)"
            )
            let fromEnvironment = try ServerProcess(arguments: ["--config", file], environment: ["ONBOARD_SIGN_IN_LIMIT": "3"])
            #expect(signInsBeforeRefusal(fromEnvironment) == 3)
            let fromFlag = try ServerProcess(
                arguments: ["--config", file, "--sign-in-limit", "4"], environment: ["ONBOARD_SIGN_IN_LIMIT": "3"])
            #expect(signInsBeforeRefusal(fromFlag) == 4)
            let noted = Subprocess.run("/usr/bin/env", ["ONBOARD_SIGN_IN_LIMIT=3", ServerProcess.binary, "check-config", file])
            #expect(
                noted.output.contains("note: $ONBOARD_SIGN_IN_LIMIT is used in place of \(file):1:16: sign_in_limit"), "\(noted.output)")
        }

        /// Issue 47: `--db` lost to `$ONBOARD_DATABASE_URL` and to the file's `database:`.
        /// The store is one setting spelled two ways, and the strongest layer names it.
        @Test func theStoreIsOneSettingWhicheverWayItIsSpelled() throws {
            let postgres = "postgres://onboard@127.0.0.1:1/onboard?sslmode=disable"
            let sqlite = folder + "/flag.sqlite"
            let file = try write("store.yaml", "database: \(postgres)\n")
            let server = try ServerProcess(arguments: ["--config", file, "--db", sqlite], environment: ["ONBOARD_DATABASE_URL": postgres])
            #expect(server.output.contains("onboard-server store: SQLite \(sqlite) (from --db)"), "\(server.output)")
            #expect(ServerProcess.post(server.base + "/api/v1/auth/anonymous", json: "{}") == 200)
            #expect(FileManager.default.fileExists(atPath: sqlite), "the guest went to the file the flag named")
            let funnel = Subprocess.run(
                "/usr/bin/env", ["ONBOARD_DATABASE_URL=\(postgres)", ServerProcess.binary, "funnel", "oklah", "--db", sqlite])
            #expect(funnel.status == 0, "funnel reads the flag's file, not PostgreSQL: \(funnel.output)")

            // The environment over the file, said by check-config.
            let relative = try write("relative.yaml", "db: data/onboard.sqlite\n")
            let noted = Subprocess.run(
                "/usr/bin/env", ["ONBOARD_DATABASE_URL=\(postgres)", ServerProcess.binary, "check-config", relative])
            #expect(noted.output.contains("note: $ONBOARD_DATABASE_URL is used in place of \(relative):1:5: db"), "\(noted.output)")
            // One layer naming both is two stores.
            let both = try write("both.yaml", "db: onboard.sqlite\ndatabase: \(postgres)\n")
            let refused = Subprocess.run(ServerProcess.binary, ["check-config", both])
            #expect(refused.status == 1)
            #expect(refused.output == "\(both):1:5: db and \(both):2:11: database name two stores; give one of them\n", "\(refused.output)")
            #expect(
                Subprocess.run(ServerProcess.binary, ["--db", sqlite, "--database", postgres]).output.contains(
                    "--db and --database name two stores"))
        }

        /// Issue 47: check-config's places. A key set twice is where it is set again; every
        /// provider problem at its own key, all at once; `dev` with another host at `dev`;
        /// control characters and bytes that are not UTF-8 at their line and column; a
        /// folder is a folder; a path in the file is relative to the file.
        @Test func checkConfigPutsEachProblemWhereItIs() throws {
            func check(_ text: String, named name: String = "check.yaml") throws -> (path: String, lines: [String]) {
                let path = try write(name, text)
                return (path, Subprocess.run(ServerProcess.binary, ["check-config", path]).output.split(separator: "\n").map(String.init))
            }
            var (path, lines) = try check("port: 8080\nport: 8081\n")
            #expect(lines == ["\(path):2:1: port is set twice; the first is at \(path):1:1"])
            (path, lines) = try check(
                """
                identity_providers:
                  google:
                    issuer: http://accounts.example.com
                    client_id: x
                    client_secret_env: ONBOARD_TEST_NOT_SET
                """)
            #expect(
                lines == [
                    "\(path):3:5: identity_providers: google: issuer must be an https:// address (http:// only on this machine, for tests)",
                    "\(path):5:5: identity_providers: google: $ONBOARD_TEST_NOT_SET is not set",
                ], "\(lines)")
            (path, lines) = try check("host: 0.0.0.0\ndev: true\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("\(path):2:6: dev would open /api/v1/dev"), "\(lines)")
            #expect(lines.first?.hasSuffix("or add dev_on_network: true if that is what you mean") == true, "\(lines)")
            (path, lines) = try check("port: 8080\nhost: a\u{01}b\n")
            #expect(lines == ["\(path):2:8: not YAML: control characters are not allowed"], "\(lines)")
            let latin1 = folder + "/latin1.yaml"
            try Data("port: 8080\nhost: caf\u{E9}\n".utf8.prefix(20) + [0xE9, 0x0A]).write(to: URL(fileURLWithPath: latin1))
            #expect(
                Subprocess.run(ServerProcess.binary, ["check-config", latin1]).output
                    == "\(latin1):2:10: not UTF-8 (byte 0xE9); save the file as UTF-8\n")
            #expect(
                Subprocess.run(ServerProcess.binary, ["check-config", folder]).output
                    == "\(folder): is a folder, not a configuration file\n")

            // A secret beside the file, named relative to it, read from any working folder.
            _ = try write("admin-token", "0f3c9a1e7b2d4c5a8e6f1b3d9c7a2e4f0b8d6c1a3e5f7b9d2c4a6e8f0b1d3c5a\n", mode: 0o600)
            let beside = try write("beside.yaml", "admin_token_file: admin-token\n")
            let fromRoot = Subprocess.run("/bin/sh", ["-c", "cd / && \"$0\" check-config \"$1\"", ServerProcess.binary, beside])
            #expect(fromRoot.output == "\(beside): ok\n", "\(fromRoot.output)")
        }

        /// Issue 47: the operator's words. `--help` shows serve's options (the default);
        /// a port in use names the address and exits 69; funnel's help says what funnel
        /// does; a flow no event names is said, not "0 started"; `critical` is a level.
        @Test func theServersHelpAndRefusalsSayWhatTheyMean() throws {
            let help = Subprocess.run(ServerProcess.binary, ["--help"]).output
            #expect(
                help.contains("USAGE: onboard-server [serve]") && help.contains("--port <port>") && help.contains("check-config"), "\(help)"
            )
            let funnelHelp = Subprocess.run(ServerProcess.binary, ["funnel", "--help"]).output
            #expect(!funnelHelp.contains("created if missing") && funnelHelp.contains("serve creates it"), "\(funnelHelp)")

            let server = try ServerProcess(arguments: ["--log-level", "critical"])
            let taken = Subprocess.run(
                ServerProcess.binary, ["--port", "\(server.port)", "--db", folder + "/second.sqlite", "--metrics-address", "off"])
            #expect(taken.status == 69)
            #expect(
                taken.output.contains("onboard-server: cannot listen on 127.0.0.1:\(server.port): something else is listening there"),
                "\(taken.output)")
            #expect(!taken.output.contains("errno"), "\(taken.output)")

            let slip = Subprocess.run(ServerProcess.binary, ["funnel", "okla", "--db", server.database])
            #expect(slip.status == 1)
            #expect(slip.output.contains("no events name a flow 'okla'") && slip.output.contains("did you mean 'oklah'?"), "\(slip.output)")
            #expect(Subprocess.run(ServerProcess.binary, ["funnel", "oklah", "--db", server.database]).status == 0)
            let level = Subprocess.run(ServerProcess.binary, ["check-config", try write("level.yaml", "log_level: loud\n")]).output
            #expect(level.contains("must be one of trace, debug, info, notice, warning, error, critical; not 'loud'"), "\(level)")
        }
    }
}
