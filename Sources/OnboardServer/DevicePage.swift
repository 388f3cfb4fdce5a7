import Crypto
import Foundation
import HTMLText
import Hummingbird
import OnboardService
import ServiceAPI

/// The page a person opens to approve a terminal's sign-in (RFC 8628's verification URI):
/// they type the code (or it comes in the link), the server sends their browser to the
/// provider (OpenID Connect, with PKCE, `state` and `nonce`), and the provider's answer
/// comes back to `/device/callback`, where the ID token is checked and the terminal's
/// grant decided. Plain HTML that works without JavaScript and reads on a phone.
struct DevicePage {
    let service: OnboardService
    let providers: [String: IdentityProvider]
    let relyingParty: OpenIDRelyingParty
    let origin: @Sendable (Request) -> String?
    let https: Bool
    /// Where the code form's answer may send the browser: each provider's sign-in page's
    /// origin (the development provider's is this server's own).
    let providerOrigins: [String]

    init(
        service: OnboardService, providers: [String: IdentityProvider], relyingParty: OpenIDRelyingParty,
        origin: @escaping @Sendable (Request) -> String?, https: Bool
    ) {
        (self.service, self.providers, self.relyingParty, self.origin, self.https) = (service, providers, relyingParty, origin, https)
        providerOrigins = Set(
            providers.values.filter { !$0.isDevelopment }.compactMap { provider in
                HTMLPage.origin(of: provider.oauth?.authorization ?? provider.issuer)
            }
        ).sorted()
    }

    /// What `state` carries through the provider and back, sealed (`BrowserSeals`): the
    /// grant it is for, the secrets only this server may know (nonce, PKCE verifier), and
    /// the hash of a cookie set on this browser, so a callback from any other browser is
    /// refused (RFC 6749 §10.12).
    struct SignInState: Codable {
        var userCode: String
        var provider: String
        var issuer: String
        /// The return address sent: the token request must name the same one.
        var redirectURI: String
        var nonce: String
        var verifier: String
        var browser: String
        var expiresAt: Int64
    }

    /// Each sign-in's own cookie, named after its state (two sign-ins begun in one browser,
    /// for two terminals, do not overwrite each other's).
    static func cookie(for state: SignInState) -> String { "onboard_device_" + state.browser.prefix(16) }

    /// A page of the device sign-in, its form allowed to go on to the providers.
    func page(_ body: String, status: HTTPResponse.Status = .ok, retryAfter: Int? = nil) -> Response {
        HTMLPage.response(body, status: status, headers: retryAfter.map { [.retryAfter: String($0)] } ?? [:], formTargets: providerOrigins)
    }

    func register(on router: Router<APIContext>) {
        router.get("device") { request, _ in
            page(Self.codeForm(request.uri.queryParameters["user_code"].map(String.init) ?? "", error: nil))
        }
        // The QR code's address: `/D/BCDF-GHJK`, upper case (see `startDeviceSignIn`): the
        // code comes in the link, so the page asks for the confirmation at once.
        router.get("D/:code") { request, context in
            try await confirmation(for: context.parameters.get("code") ?? "", request, context)
        }
        router.post("device") { request, context in
            try await confirmation(for: try await HTMLPage.form(CodeForm.self, request).userCode ?? "", request, context)
        }
        // The person's Continue on the confirmation: only from this server's own page, in
        // the browser the page was shown in.
        router.post("device/confirm") { request, context in
            try await confirmed(try await HTMLPage.form(ConfirmForm.self, request), request, context)
        }
        // The provider's answer: in the query, or posted (Apple's form_post).
        router.get("device/callback") { request, context in
            try await callback(HTMLPage.query(CallbackForm.self, request, empty: CallbackForm()), request, context)
        }
        // Where a finished sign-in lands (Post/Redirect/Get): no code or state left in the
        // address bar or the history, and a reload changes nothing.
        router.get("device/signed-in") { _, _ in page(Self.signedIn) }
        router.get("device/not-approved") { _, _ in page(Self.denied) }
        router.post("device/callback") { request, context in
            try await callback(try await HTMLPage.form(CallbackForm.self, request), request, context)
        }
    }

    /// What a confirmation carries (sealed in the page's form): the code it confirms, and
    /// the hash of a `SameSite=Strict` cookie set with the page, so a post from any other
    /// site (which never carries that cookie), or from any other browser, is refused.
    struct ConfirmationState: Codable {
        var userCode: String
        var browser: String
        var expiresAt: Int64
    }

    static func cookie(for confirmation: ConfirmationState) -> String { "onboard_confirm_" + confirmation.browser.prefix(16) }

    /// A typed code, or one that came in the link: the page that says what Continue would
    /// do — which provider, that a terminal will be signed in, when and from where that
    /// terminal asked — with a Continue a cross-site post cannot make (RFC 8628 §5.4,
    /// remote phishing; ASVS 3.5.1, 10.7.1). Nothing is approved by opening a link.
    private func confirmation(for code: String, _ request: Request, _ context: APIContext) async throws -> Response {
        let grant: PendingDeviceGrant
        do {
            guard let found = try await service.pendingDeviceSignIn(userCode: code, client: context.clientAddress) else {
                return page(
                    Self.codeForm(code, error: "That code is not right, or it has expired. Check the code in your terminal."),
                    status: .badRequest)
            }
            grant = found
        } catch let error as ServiceError {
            // A 429 says when to try again, as the API's do.
            return page(
                Self.codeForm(code, error: error.message), status: HTTPResponse.Status(code: error.code.httpStatus),
                retryAfter: error.retryAfter)
        }
        let browser = Self.random()
        let state = ConfirmationState(userCode: code, browser: Self.hash(browser), expiresAt: grant.expiresAt)
        let sealed = try service.sealForBrowser(state, purpose: "device sign-in confirmation")
        var attributes = "HttpOnly; Path=/device; Max-Age=\(max(1, grant.expiresAt - service.clock.now())); SameSite=Strict"
        if https { attributes += "; Secure" }
        return HTMLPage.response(
            Self.confirmationPage(code: code, grant: grant, sealed: sealed, now: service.clock.now()),
            headers: [.setCookie: "\(Self.cookie(for: state))=\(browser); \(attributes)"], formTargets: providerOrigins)
    }

    /// Continue, checked: posted from this server's own page (the browser's `Origin` and
    /// `Sec-Fetch-Site` say so where it sends them) with the cookie the page set.
    private func confirmed(_ form: ConfirmForm, _ request: Request, _ context: APIContext) async throws -> Response {
        func refused(_ why: String) -> Response {
            service.recordProviderRefusal(provider: "device page", reason: why, address: context.clientAddress, userCode: form.userCode)
            return page(
                Self.codeForm(
                    "", error: "This sign-in can only be confirmed on this server's own page. Enter the code from your terminal here."),
                status: .forbidden)
        }
        if let site = request.headers[HTTPFields.Element.Name("Sec-Fetch-Site")!], site != "same-origin" {
            return refused("a confirmation sent from another site (\(site))")
        }
        if let sentFrom = request.headers[.origin], sentFrom != origin(request) { return refused("a confirmation sent from \(sentFrom)") }
        guard let sealed = form.confirmation,
            let state = service.unsealFromBrowser(sealed, as: ConfirmationState.self, purpose: "device sign-in confirmation"),
            state.userCode == form.userCode, state.expiresAt > service.clock.now(),
            let browser = request.cookies[Self.cookie(for: state)]?.value, Self.hash(browser) == state.browser
        else { return refused("a confirmation without its page's cookie, altered or expired") }
        guard let grant = try await service.pendingDeviceSignIn(confirmed: state.userCode) else {
            return page(
                Self.codeForm("", error: "That code has expired or was already used. Start again in your terminal."), status: .badRequest)
        }
        return try await sendToProvider(code: state.userCode, provider: grant.provider, request, context)
    }

    /// The authorization request: a fresh nonce and PKCE verifier, sealed into `state`.
    private func sendToProvider(code: String, provider name: String, _ request: Request, _ context: APIContext) async throws -> Response {
        guard let provider = providers[name], let origin = origin(request) else {
            return page(Self.codeForm("", error: SocialProvider.unavailable(name).message), status: .notFound)
        }
        if provider.isDevelopment, !OwnAddresses.contains(authority: request.head.authority ?? "") {
            return page(
                Self.codeForm(
                    code, error: "The development sign-in works on this server's own address only: open the address your terminal shows."),
                status: .badRequest)
        }
        let browser = Self.random()
        let issuer = provider.issuer(at: origin)
        let state = SignInState(
            userCode: code, provider: name, issuer: issuer, redirectURI: origin + "/device/callback", nonce: Self.random(),
            verifier: Self.random() + Self.random(), browser: Self.hash(browser),
            expiresAt: service.clock.now() + service.settings.deviceCodeLifetime)
        let sealed = try service.sealForBrowser(state, purpose: "device sign-in state")
        let address: String
        do {
            address = try await relyingParty.authorizationURL(
                provider, issuer: issuer, redirectURI: state.redirectURI, state: sealed, nonce: state.nonce, verifier: state.verifier)
        } catch {
            service.recordProviderRefusal(provider: name, reason: "\(error)", address: context.clientAddress, userCode: code)
            return page(
                Self.codeForm(code, error: "\(SocialProvider.displayName(name)) cannot be reached just now. Try again in a moment."),
                status: .badGateway)
        }
        // Apple posts its answer from its own site: only a SameSite=None cookie goes with it.
        let crossSite = provider.responseMode == "form_post" && https
        var attributes = "HttpOnly; Path=/device; Max-Age=\(service.settings.deviceCodeLifetime); SameSite=" + (crossSite ? "None" : "Lax")
        if https { attributes += "; Secure" }
        return HTMLPage.redirect(to: address, headers: [.setCookie: "\(Self.cookie(for: state))=\(browser); \(attributes)"])
    }

    /// The provider's answer: a denial decides the grant as denied; a code becomes an ID
    /// token, checked, whose identity approves it.
    private func callback(_ answer: CallbackForm, _ request: Request, _ context: APIContext) async throws -> Response {
        let failed = "This sign-in could not be finished. Start again in your terminal."
        guard let sealed = answer.state,
            let state = service.unsealFromBrowser(sealed, as: SignInState.self, purpose: "device sign-in state"),
            state.expiresAt > service.clock.now()
        else { return page(Self.codeForm("", error: failed), status: .badRequest) }
        guard let browser = request.cookies[Self.cookie(for: state)]?.value, Self.hash(browser) == state.browser else {
            return page(Self.codeForm("", error: "Open the sign-in in the same browser you entered the code in."), status: .badRequest)
        }
        guard let provider = providers[state.provider] else { return page(Self.codeForm("", error: failed), status: .badRequest) }
        let name = SocialProvider.displayName(state.provider)
        if let error = answer.error {
            // Denied, or the provider could not go on: the terminal goes back to its
            // method choice with no error (the spec), and the page says what happened.
            guard try await service.finishDeviceSignIn(userCode: state.userCode, identity: nil) else {
                return page(Self.codeForm("", error: failed), status: .badRequest)
            }
            guard error == "access_denied" else {
                return page("<h1>\(HTMLText.escaped(name)) did not sign you in</h1><p>Nothing was signed in. You can close this page.</p>")
            }
            return HTMLPage.redirect(to: "/device/not-approved")
        }
        guard let code = answer.code else { return page(Self.codeForm("", error: failed), status: .badRequest) }
        let identity: DeviceIdentity
        do {
            let tokens = try await relyingParty.exchange(
                provider, issuer: state.issuer, code: code, redirectURI: state.redirectURI, verifier: state.verifier)
            // The provider's clock is the world's: its token is judged by this machine's
            // wall clock, not the service's (which QA may have moved).
            identity = try await relyingParty.identity(
                tokens, provider: provider, issuer: state.issuer, nonce: state.nonce, now: Date().timeIntervalSince1970)
        } catch {
            service.recordProviderRefusal(
                provider: state.provider, reason: "\(error)", address: context.clientAddress, userCode: state.userCode)
            return page(
                Self.codeForm("", error: "Sign in with \(name) could not be verified. Start again in your terminal."), status: .unauthorized
            )
        }
        guard try await service.finishDeviceSignIn(userCode: state.userCode, identity: identity) else {
            return page(
                Self.codeForm("", error: "That code has expired or was already used. Start again in your terminal."), status: .badRequest)
        }
        return HTMLPage.redirect(to: "/device/signed-in")
    }

    // MARK: Pages

    static func codeForm(_ code: String, error: String?) -> String {
        """
        <h1>Sign in to your terminal</h1>
        <p>Enter the code your terminal shows.</p>
        \(error.map { "<p class=\"error\" role=\"alert\">\(HTMLText.escaped($0))</p>" } ?? "")
        <form method="post" action="/device">
          <label for="code">Code</label>
          <input id="code" name="user_code" value="\(HTMLText.escaped(code))" autocomplete="off" autocapitalize="characters" spellcheck="false" required>
          <button type="submit">Continue</button>
        </form>
        """
    }

    static func confirmationPage(code: String, grant: PendingDeviceGrant, sealed: String, now: Int64) -> String {
        let provider = HTMLText.escaped(SocialProvider.displayName(grant.provider))
        let minutes = max(0, (now - grant.createdAt) / 60)
        let when = minutes == 0 ? "less than a minute ago" : minutes == 1 ? "a minute ago" : "\(minutes) minutes ago"
        let from = grant.requestedFrom.isEmpty ? "" : " from \(HTMLText.escaped(grant.requestedFrom))"
        return """
            <h1>Sign in to a terminal with \(provider)?</h1>
            <p>A terminal asked \(when)\(from) to be signed in as you with \(provider). Its code is \(HTMLText.escaped(code)).</p>
            <p class="note">Continue only if you started this sign-in yourself, in your own terminal, just now. If someone
            sent you this link or code, close this page: they would be signed in as you.</p>
            <form method="post" action="/device/confirm">
              <input type="hidden" name="user_code" value="\(HTMLText.escaped(code))">
              <input type="hidden" name="confirmation" value="\(HTMLText.escaped(sealed))">
              <button type="submit">Continue with \(provider)</button>
            </form>
            <p><a href="/device">This was not me</a></p>
            """
    }

    static let signedIn = "<h1>You're signed in</h1><p>You can go back to your terminal: it goes on by itself.</p>"
    static let denied = "<h1>Sign-in not approved</h1><p>Nothing was signed in. You can close this page.</p>"

    struct CodeForm: Decodable {
        var userCode: String?
        enum CodingKeys: String, CodingKey { case userCode = "user_code" }
    }

    struct ConfirmForm: Decodable {
        var userCode: String?
        var confirmation: String?
        enum CodingKeys: String, CodingKey { case userCode = "user_code", confirmation }
    }

    /// The provider's answer (RFC 6749 §4.1.2): a code or an error, with the state.
    struct CallbackForm: Decodable {
        var code: String?
        var state: String?
        var error: String?
    }

    /// 32 random bytes, base64url: a nonce, a PKCE verifier half, a browser's cookie.
    static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    static func hash(_ text: String) -> String { Base64URL.encode(Data(SHA256.hash(data: Array(text.utf8)))) }
}
