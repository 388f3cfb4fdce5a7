import Foundation
import Hummingbird
import OnboardService
import ServiceAPI

/// The page a person opens to approve a terminal's sign-in (RFC 8628's verification URI):
/// plain HTML forms that work without JavaScript and read on a phone. The code is typed
/// (or comes in the link), then the development provider's approval asks which account
/// to continue as. Served with `--dev` only, as long as the development approval is the
/// only one there is; every value written into a page is escaped.
struct DevicePage {
    let service: OnboardService

    func register(on router: Router<APIContext>) {
        router.get("device") { request, _ in
            Self.page(Self.codeForm(request.uri.queryParameters["user_code"].map(String.init) ?? "", error: nil))
        }
        // The QR code's address: `/D/BCDF-GHJK`, upper case (see `startDeviceSignIn`).
        router.get("D/:code") { _, context in
            Self.page(Self.codeForm(context.parameters.get("code") ?? "", error: nil))
        }
        router.post("device") { request, context in
            let code = try await Self.form(CodeForm.self, request).userCode ?? ""
            do {
                guard let grant = try await service.pendingDeviceSignIn(userCode: code, client: context.clientAddress) else {
                    return Self.page(Self.codeForm(code, error: "That code is not right, or it has expired. Check the code in your terminal."), status: .badRequest)
                }
                return Self.page(Self.approval(code: code, provider: grant.provider))
            } catch let error as ServiceError {
                return Self.page(Self.codeForm(code, error: error.message), status: HTTPResponse.Status(code: error.code.httpStatus))
            }
        }
        router.post("device/decide") { request, context in
            let form = try await Self.form(DecisionForm.self, request)
            let code = form.userCode ?? ""
            let allowed = form.decision == "allow"
            do {
                guard try await service.decideDeviceSignIn(userCode: code, approvedAs: allowed ? form.account ?? "" : nil, client: context.clientAddress)
                else {
                    return Self.page(Self.codeForm("", error: "That code has expired or was already used. Start again in your terminal."), status: .badRequest)
                }
                return Self.page(Self.done(allowed))
            } catch let error as ServiceError {
                return Self.page(Self.codeForm(code, error: error.message), status: HTTPResponse.Status(code: error.code.httpStatus))
            }
        }
    }

    // MARK: Pages

    static func codeForm(_ code: String, error: String?) -> String {
        """
        <h1>Sign in to your terminal</h1>
        <p>Enter the code your terminal shows.</p>
        \(error.map { "<p class=\"error\" role=\"alert\">\(escaped($0))</p>" } ?? "")
        <form method="post" action="/device">
          <label for="code">Code</label>
          <input id="code" name="user_code" value="\(escaped(code))" autocomplete="off" autocapitalize="characters" spellcheck="false" required>
          <button type="submit">Continue</button>
        </form>
        """
    }

    static func approval(code: String, provider: String) -> String {
        let name = escaped(SocialProvider.displayName(provider))
        return """
        <h1>Sign in with \(name)</h1>
        <p>A terminal showing the code <strong>\(escaped(code.uppercased()))</strong> asks to sign in with \(name).
        Only continue if you started this sign-in yourself.</p>
        <p class="note">Development provider: no real \(name) account is asked for. Choose the account to continue as.</p>
        <form method="post" action="/device/decide">
          <input type="hidden" name="user_code" value="\(escaped(code))">
          <label for="account">Account</label>
          <input id="account" name="account" type="email" value="ana@example.org" autocomplete="off">
          <button type="submit" name="decision" value="allow">Allow</button>
          <button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
        </form>
        """
    }

    static func done(_ allowed: Bool) -> String {
        allowed
            ? "<h1>You're signed in</h1><p>You can go back to your terminal: it goes on by itself.</p>"
            : "<h1>Sign-in not approved</h1><p>Nothing was signed in. You can close this page.</p>"
    }

    /// A whole page: small, readable on a phone, no script (the policy forbids any).
    static func page(_ body: String, status: HTTPResponse.Status = .ok) -> Response {
        let html = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Onboard sign-in</title>
        <style>body{font:16px/1.5 system-ui,sans-serif;max-width:30rem;margin:2rem auto;padding:0 1rem}
        input,button{font:inherit;padding:.5rem;margin:.25rem 0}input{width:100%;box-sizing:border-box}
        .error{color:#a00}.note{color:#555}</style></head>
        <body>\(body)</body></html>
        """
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8"]
        headers[.contentSecurityPolicy] = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    /// Text as HTML shows it, never as markup.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    struct CodeForm: Decodable {
        var userCode: String?
        enum CodingKeys: String, CodingKey { case userCode = "user_code" }
    }

    struct DecisionForm: Decodable {
        var userCode: String?
        var decision: String?
        var account: String?
        enum CodingKeys: String, CodingKey { case userCode = "user_code", decision, account }
    }

    /// An `application/x-www-form-urlencoded` body of at most 16 KB, by Hummingbird's decoder.
    static func form<Form: Decodable>(_ type: Form.Type, _ request: Request) async throws -> Form {
        let body = try await request.body.collect(upTo: 16 * 1024)
        return try URLEncodedFormDecoder().decode(Form.self, from: String(buffer: body))
    }
}
