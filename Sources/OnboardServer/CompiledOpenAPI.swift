// Generated from openapi.yaml; do not edit. After changing it, run
//   ONBOARD_REGENERATE=1 swift test --filter CompiledOpenAPITests

enum CompiledOpenAPI {
    static let text = #"""
openapi: 3.1.0
info:
  title: Onboard service
  version: 0.1.0
  description: >
    The auth service behind Onboard's flows. JSON in and out. Every error is
    {code, message, retry_after?} with a stable code: network, timeout, server_error,
    rate_limited, unauthorized, invalid_input, not_found, conflict, bad_response,
    idempotency_key_reused.
    Endpoints under /api/v1/dev exist only when the server runs with --dev.
    Calls that create or spend something take an Idempotency-Key header (16-200
    printable ASCII characters): a repeat of the same request with the same key within
    24 hours gets the first call's result (a repeat racing the first waits for it); a
    failed call keeps nothing; a key used for another kind of call is 409, and for the
    same kind with another request (body, caller, Idempotency-Proof) 422
    idempotency_key_reused. Keys are not secrets: a repeated sign-in gets a new session
    for the same account, never the first call's tokens, and an anonymous sign-in only
    with the same Idempotency-Proof. A known path asked with a
    method it does not answer is 405 with Allow.
servers:
  - url: /api/v1
paths:
  /health:
    get:
      summary: The service answers.
      responses: { "200": { description: "{status: ok}", content: { application/json: { schema: { type: object, required: [status], properties: { status: { const: ok } } } } } }, "default": { $ref: "#/components/responses/Error" } }
  /openapi.yaml:
    get:
      summary: This document.
      responses: { "200": { description: OpenAPI document, content: { application/yaml: { schema: { type: string } } } }, "default": { $ref: "#/components/responses/Error" } }
  /auth/anonymous:
    post:
      parameters: [ { $ref: "#/components/parameters/IdempotencyKey" }, { $ref: "#/components/parameters/IdempotencyProof" } ]
      summary: Create an anonymous account; returns the session and three name options.
      description: A built-in flow's name gives the guest that flow's token lifetimes; any other flow, or none, a refresh token that never expires.
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/FlowRequest" } } } }
      responses:
        "200":
          description: the guest's session and names
          content: { application/json: { schema: { $ref: "#/components/schemas/AnonymousSignIn" } } }
          links:
            refresh: { operationId: refresh, requestBody: { refresh_token: "$response.body#/session/refresh_token" } }
            logout: { operationId: logout, requestBody: { refresh_token: "$response.body#/session/refresh_token" } }
        "429": { description: rate limited }
        "default": { $ref: "#/components/responses/Error" }
  /auth/register:
    post:
      parameters: [ { $ref: "#/components/parameters/IdempotencyKey" }, { $ref: "#/components/parameters/IdempotencyProof" } ]
      summary: Create an account with name, email and password (8+ characters, at most 72 bytes).
      description: The password's 72-byte bound is bcrypt's, in UTF-8 bytes; JSON Schema counts characters, so a password within maxLength can still be refused with 400.
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/RegisterRequest" } } } }
      responses:
        "200": { description: the new account's session, content: { application/json: { schema: { $ref: "#/components/schemas/Session" } } } }
        "409": { description: email taken }
        "400": { description: invalid input }
        "default": { $ref: "#/components/responses/Error" }
  /auth/login:
    post:
      operationId: login
      summary: Log in with email and password; unknown email and wrong password fail alike.
      description: "Optionally with the bearer token of the guest this device leaves for the account: once the password is right, the guest's purchases (pro) move to the account in one transaction; its other records stay with it unless `bring` names them. With the Device-Token header (components/parameters/DeviceToken: the device_token an earlier password sign-in to this account gave), failures count on that device alone (OWASP device cookies): the account's lock after too many wrong passwords from unknown devices does not stop it."
      security: [ {}, { bearer: [] } ]
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/LoginRequest" } } } }
      responses:
        "200": { description: a new session, content: { application/json: { schema: { $ref: "#/components/schemas/Session" } } } }
        "401": { description: Invalid email or password. }
        "default": { $ref: "#/components/responses/Error" }
  /auth/link-email:
    post:
      parameters: [ { $ref: "#/components/parameters/IdempotencyKey" } ]
      summary: Add email and password to the signed-in anonymous account, keeping its user id.
      description: The password rule is register's (at most 72 bytes in UTF-8).
      security: [ { bearer: [] } ]
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/LinkEmailRequest" } } } }
      responses:
        "200": { description: "the account's new, named session", content: { application/json: { schema: { $ref: "#/components/schemas/Session" } } } }
        "409": { description: "email taken, or the account already has one" }
        "400": { description: invalid input }
        "default": { $ref: "#/components/responses/Error" }
  /auth/refresh:
    post:
      operationId: refresh
      summary: Rotate a refresh token (10 s grace for the previous one; reuse after it revokes the family).
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/RefreshRequest" } } } }
      responses:
        "200": { description: the rotated session, content: { application/json: { schema: { $ref: "#/components/schemas/Session" } } } }
        "401": { description: rejected }
        "default": { $ref: "#/components/responses/Error" }
  /auth/logout:
    post:
      operationId: logout
      summary: End the session the refresh token belongs to.
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/RefreshRequest" } } } }
      responses: { "200": { description: "{}", content: { application/json: { schema: { type: object } } } }, "default": { $ref: "#/components/responses/Error" } }
  /app/config:
    get:
      summary: Validation limits and feature switches clients use.
      responses: { "200": { description: "{key: value}", content: { application/json: { schema: { $ref: "#/components/schemas/Fields" } } } }, "default": { $ref: "#/components/responses/Error" } }
  /auth/phone/send:
    post:
      summary: Send a 6-digit SMS code (valid 5 minutes; another only after 60 s).
      description: A repeat with the Idempotency-Key of a send whose answer was lost gets that answer again, not the 60 s wait.
      parameters: [ { $ref: "#/components/parameters/IdempotencyKey" } ]
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/PhoneRequest" } } } }
      responses:
        "200": { description: where the code went and when another may be asked for, content: { application/json: { schema: { $ref: "#/components/schemas/PhoneCodeSent" } } } }
        "400": { description: Please enter a valid phone number }
        "429": { description: wait }
        "default": { $ref: "#/components/responses/Error" }
  /auth/phone/verify:
    post:
      parameters: [ { $ref: "#/components/parameters/IdempotencyKey" }, { $ref: "#/components/parameters/IdempotencyProof" } ]
      summary: Check the code (at most 5 tries) and sign in, creating the account if new.
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/PhoneVerifyRequest" } } } }
      responses:
        "200": { description: "the session, and whether the account is new", content: { application/json: { schema: { $ref: "#/components/schemas/SignIn" } } } }
        "400": { description: wrong or expired code }
        "404": { description: no code was sent to this number }
        "429": { description: too many tries }
        "default": { $ref: "#/components/responses/Error" }
  /auth/social:
    post:
      parameters: [ { $ref: "#/components/parameters/IdempotencyKey" }, { $ref: "#/components/parameters/IdempotencyProof" } ]
      summary: "Sign in with apple, google or facebook: an ID token (ES256) from the mock identity provider, for audience org.onboard.client, unexpired, carrying the nonce sent, accepted once. Without --dev no provider is configured: 404."
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/SocialRequest" } } } }
      responses:
        "200": { description: "the session, and whether the account is new", content: { application/json: { schema: { $ref: "#/components/schemas/SignIn" } } } }
        "401": { description: "forged, expired, wrong audience or nonce, or replayed" }
        "404": { description: "no identity provider is configured (a server without --dev)" }
        "default": { $ref: "#/components/responses/Error" }
  /auth/social/device:
    post:
      summary: "Start a social sign-in approved in a browser (RFC 8628 §3.1): the codes to show, the page to open, how often to poll. Without --dev no provider is configured: 404."
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/DeviceAuthorizationRequest" } } } }
      responses:
        "200": { description: "the device authorization", content: { application/json: { schema: { $ref: "#/components/schemas/DeviceAuthorization" } } } }
        "400": { description: unknown provider }
        "404": { description: "no identity provider is configured (a server without --dev)" }
        "429": { description: rate limited }
        "default": { $ref: "#/components/responses/Error" }
  /auth/social/device/token:
    post:
      summary: "Poll a device authorization (RFC 8628 §3.4), no sooner than its interval: the session once approved (once only); until then 400 with code authorization_pending, slow_down (polled too soon: wait 5 s longer from now on), access_denied or expired_token."
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/DeviceTokenRequest" } } } }
      responses:
        "200": { description: "the session, and whether the account is new", content: { application/json: { schema: { $ref: "#/components/schemas/SignIn" } } } }
        "400": { description: "authorization_pending, slow_down, access_denied or expired_token" }
        "default": { $ref: "#/components/responses/Error" }
  /auth/social/device/withdraw:
    post:
      summary: "The terminal gave a device sign-in up (Cancel, Back, a relaunch): its code can no longer be approved in a browser, nor polled for. 200 whether or not the code was still waiting."
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/DeviceWithdrawalRequest" } } } }
      responses:
        "200": { description: "withdrawn (or nothing was waiting)", content: { application/json: { schema: { type: object } } } }
        "default": { $ref: "#/components/responses/Error" }
  /mock-idp/token:
    post:
      summary: "(--dev) The mock identity provider after Allow: a signed ID token for {provider, account, audience, nonce}, valid 10 minutes."
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/IdentityTokenRequest" } } } }
      responses:
        "200": { description: "{id_token}", content: { application/json: { schema: { type: object, required: [id_token], properties: { id_token: { type: string } } } } } }
        "400": { description: unknown provider or no account }
        "default": { $ref: "#/components/responses/Error" }
  /mock-idp/device:
    post:
      summary: "(--dev) The mock identity provider's approval in the terminal, where there is no browser: its ID token (from /mock-idp/token, for the grant's provider and this nonce) approves the device sign-in waiting under user_code."
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/DeviceApprovalRequest" } } } }
      responses:
        "200": { description: "approved: the device's next poll gets the session", content: { application/json: { schema: { type: object } } } }
        "400": { description: "expired_token: no sign-in waits under that code" }
        "401": { description: "the ID token is forged, expired, for another provider or nonce" }
        "default": { $ref: "#/components/responses/Error" }
  /user/profile:
    get:
      summary: The signed-in user's profile, with its fields.
      security: [ { bearer: [] } ]
      responses: { "200": { description: the profile, content: { application/json: { schema: { $ref: "#/components/schemas/Profile" } } } }, "default": { $ref: "#/components/responses/Error" } }
    put:
      summary: Merge fields into the profile; display_name is unique; ABBY's fields are checked (names, age 18-99, age range).
      description: Whether a birth_date is 18 to 99 years ago depends on today, and the whole profile is at most 16 KB, so a request within the schema can still be refused with 400.
      security: [ { bearer: [] } ]
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/ProfileRequest" } } } }
      responses:
        "200": { description: the merged profile, content: { application/json: { schema: { $ref: "#/components/schemas/Profile" } } } }
        "400": { description: a field breaks its rule }
        "409": { description: display name taken }
        "default": { $ref: "#/components/responses/Error" }
  /children:
    get:
      summary: Children on the account, own and shared.
      security: [ { bearer: [] } ]
      responses: { "200": { description: list of Child, content: { application/json: { schema: { type: array, items: { $ref: "#/components/schemas/Child" } } } } }, "default": { $ref: "#/components/responses/Error" } }
    post:
      operationId: addChild
      parameters: [ { $ref: "#/components/parameters/IdempotencyKey" } ]
      summary: Add a child (name, birth_date YYYY-MM-DD).
      security: [ { bearer: [] } ]
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/ChildRequest" } } } }
      responses:
        "200":
          description: the child
          content: { application/json: { schema: { $ref: "#/components/schemas/Child" } } }
          links:
            invite: { operationId: createInvite, requestBody: { child_id: "$response.body#/id" } }
        "400": { description: invalid input }
        "default": { $ref: "#/components/responses/Error" }
  /invites:
    post:
      operationId: createInvite
      parameters: [ { $ref: "#/components/parameters/IdempotencyKey" } ]
      summary: Make a single-use invite code for a child (valid 7 days).
      security: [ { bearer: [] } ]
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/InviteRequest" } } } }
      responses:
        "200":
          description: the code
          content: { application/json: { schema: { $ref: "#/components/schemas/Invite" } } }
          links:
            accept: { operationId: acceptInvite, requestBody: { code: "$response.body#/code" } }
        "404": { description: There is no such child on your account. }
        "default": { $ref: "#/components/responses/Error" }
  /invites/accept:
    post:
      operationId: acceptInvite
      parameters: [ { $ref: "#/components/parameters/IdempotencyKey" } ]
      summary: Redeem an invite; unknown, used and expired codes get one answer.
      security: [ { bearer: [] } ]
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/AcceptRequest" } } } }
      responses:
        "200": { description: the child and who shared it, content: { application/json: { schema: { $ref: "#/components/schemas/InviteAcceptance" } } } }
        "404": { description: This invite link is invalid or has already been used. }
        "409": { description: "the child is already on the caller's account (the inviter's own invite): nothing is spent, the code still works" }
        "default": { $ref: "#/components/responses/Error" }
  /records:
    get:
      summary: The user's small records (RuckTracker).
      security: [ { bearer: [] } ]
      responses: { "200": { description: "{key: value}", content: { application/json: { schema: { $ref: "#/components/schemas/Fields" } } } }, "default": { $ref: "#/components/responses/Error" } }
  /records/{key}:
    put:
      parameters:
        - { $ref: "#/components/parameters/IdempotencyKey" }
        - { name: key, in: path, required: true, schema: { type: string, pattern: "^[A-Za-z0-9._-]{1,64}$" } }
      summary: Store one record (at most 16 KB of JSON).
      security: [ { bearer: [] } ]
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/RecordRequest" } } } }
      responses: { "200": { description: "{}", content: { application/json: { schema: { type: object } } } }, "400": { description: invalid key or too large }, "default": { $ref: "#/components/responses/Error" } }
  /records/{key}/items:
    post:
      parameters:
        - { $ref: "#/components/parameters/IdempotencyKey" }
        - { name: key, in: path, required: true, schema: { type: string, pattern: "^[A-Za-z0-9._-]{1,64}$" } }
      summary: Add one item to a list record, in one step on the service.
      description: Two devices adding at once both keep theirs; an item already in the list is not added again, so a retry adds nothing twice. The record stays at most 16 KB of JSON.
      security: [ { bearer: [] } ]
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/RecordItemRequest" } } } }
      responses: { "200": { description: the list as it is now, content: { application/json: { schema: { $ref: "#/components/schemas/RecordItems" } } } }, "400": { description: invalid key or item, not a list, or too large }, "default": { $ref: "#/components/responses/Error" } }
  /user/name:
    post:
      summary: Choose one of the names offered at anonymous sign-in.
      description: Which names were offered is the account's state, so a well-formed name can be refused with 400.
      security: [ { bearer: [] } ]
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/NameRequest" } } } }
      responses:
        "200": { description: the profile with its name, content: { application/json: { schema: { $ref: "#/components/schemas/Profile" } } } }
        "400": { description: not an offered name }
        "default": { $ref: "#/components/responses/Error" }
  /content/{kind}:
    get:
      parameters: [ { name: kind, in: path, required: true, schema: { type: string, enum: [motivation, mindfulness] } } ]
      summary: A content library by kind.
      security: [ { bearer: [] } ]
      responses: { "200": { description: list of ContentEntry, content: { application/json: { schema: { type: array, items: { $ref: "#/components/schemas/ContentEntry" } } } } }, "404": { description: no such kind }, "default": { $ref: "#/components/responses/Error" } }
  /content/motivation/random:
    get:
      summary: A random motivational message.
      security: [ { bearer: [] } ]
      responses: { "200": { description: "{message}", content: { application/json: { schema: { type: object, required: [message], properties: { message: { type: string } } } } } }, "default": { $ref: "#/components/responses/Error" } }
  /events:
    post:
      summary: "Analytics events, in batches of up to 100: each kept once by its id (a batch sent again after a lost answer is not counted twice). No session needed: events come before there is an account. Limited per client address."
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/EventsRequest" } } } }
      responses:
        "200": { description: "how many were new and how many were kept before", content: { application/json: { schema: { type: object, required: [stored, duplicates], properties: { stored: { type: integer }, duplicates: { type: integer } } } } } }
        "400": { description: "an event breaks a rule (named with its place in the batch)" }
        "429": { description: too many batches from this address }
        "default": { $ref: "#/components/responses/Error" }
  /events/forget:
    post:
      summary: "Consent withdrawn: deletes the events of this device's run (its anonymous_id), and with a session's bearer token the account's events too."
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/ForgetEventsRequest" } } } }
      responses:
        "200": { description: how many events were deleted, content: { application/json: { schema: { type: object, required: [deleted], properties: { deleted: { type: integer } } } } } }
        "401": { description: the bearer token is not a live session }
        "default": { $ref: "#/components/responses/Error" }
  /admin/funnel:
    get:
      summary: "The operator's funnel of a flow: each screen reached, gone on from and dropped at, time on it, errors and retries; completion and time to complete. The bearer is the admin token onboard-server was started with, never a session."
      security: [ { admin: [] } ]
      parameters:
        - { name: flow, in: query, required: true, schema: { type: string } }
        - { name: since, in: query, required: false, description: "7d (the default), 24h, 90m, or an RFC 3339 instant", schema: { type: string } }
        - { name: by, in: query, required: false, description: "version: split by onboarding_flow_version too", schema: { type: string, enum: [version] } }
      responses:
        "200": { description: the report, content: { application/json: { schema: { $ref: "#/components/schemas/FunnelReport" } } } }
        "400": { description: no flow named, or since is not a window }
        "401": { description: "not the admin token, or the server has none (no Authorization at all is always 401)" }
        "429": { description: "ten wrong admin tokens from this address in 15 minutes: the next are not judged until the window ends (Retry-After)" }
        "default": { $ref: "#/components/responses/Error" }
  /dev/outbox:
    get:
      summary: "(--dev) SMS and invite codes sent, in plain text."
      responses: { "200": { description: list of outbox entries, content: { application/json: { schema: { type: array, items: { type: object } } } } }, "default": { $ref: "#/components/responses/Error" } }
  /dev/reset:
    post:
      summary: "(--dev) Delete every account, token and code; clear faults and the clock offset."
      responses: { "200": { description: "{}" }, "default": { $ref: "#/components/responses/Error" } }
  /dev/config:
    post:
      summary: "(--dev) Serve these remote-config values (any JSON, even malformed) instead of the defaults; {} restores them."
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/Fields" } } } }
      responses: { "200": { description: the config now served, content: { application/json: { schema: { $ref: "#/components/schemas/Fields" } } } }, "default": { $ref: "#/components/responses/Error" } }
  /dev/clock:
    post:
      summary: "(--dev) Run the server's clock offset_seconds ahead (or behind), at most 100 years either way."
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/ClockRequest" } } } }
      responses: { "200": { description: "{offset_seconds}" }, "default": { $ref: "#/components/responses/Error" } }
  /dev/faults:
    post:
      summary: "(--dev) Inject faults into every other endpoint: network, server-error, rate-limit, slow=MS, fail-first=N, reauth-fail."
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/FaultsRequest" } } } }
      responses: { "200": { description: "{faults}" }, "default": { $ref: "#/components/responses/Error" } }
components:
  # Request bodies state the server's own rules (InputRules, the service's checks), so a
  # body these schemas allow is one the server takes. "Characters" are Unicode scalars
  # here and grapheme clusters on the server; the rare string where they differ is the
  # one place the two can disagree. Whitespace is Unicode's White_Space, which is what
  # the server trims.
  schemas:
    FlowRequest:
      type: object
      properties:
        flow: { type: [string, "null"], description: "A built-in flow's name (oklah, babybasics, abby, rucktracker, miga) picks its token lifetimes." }
    RegisterRequest:
      type: object
      required: [name, email, password]
      properties:
        flow: { type: [string, "null"] }
        name: { type: string, minLength: 1, maxLength: 100, pattern: '[^\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]' }
        email: { $ref: "#/components/schemas/Email" }
        password: { $ref: "#/components/schemas/Password" }
    LoginRequest:
      type: object
      required: [email, password]
      properties:
        flow: { type: [string, "null"] }
        email: { $ref: "#/components/schemas/Email" }
        password: { $ref: "#/components/schemas/Password" }
        bring:
          description: "Log in only: list records (rucks) the guest whose bearer token is sent brings to the account, with the person's yes; each list's items are added to the account's in the log-in's transaction, and the guest's list goes."
          type: [array, "null"]
          maxItems: 8
          items: { type: string, pattern: "^[A-Za-z0-9._-]{1,64}$" }
    LinkEmailRequest:
      type: object
      required: [email, password]
      properties:
        flow: { type: [string, "null"] }
        email: { $ref: "#/components/schemas/Email" }
        password: { $ref: "#/components/schemas/Password" }
    Email:
      description: local@domain.tld, trimmed and compared in lower case.
      type: string
      pattern: '^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*[^@\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+@[^@.\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+(\.[^@.\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+)+[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$'
    Password:
      description: At least 8 characters and at most 72 bytes in UTF-8 (bcrypt's limit, refused rather than cut).
      type: string
      minLength: 8
      maxLength: 72
    RefreshRequest:
      type: object
      required: [refresh_token]
      properties:
        refresh_token: { type: string }
    PhoneRequest:
      type: object
      required: [phone]
      properties:
        phone: { $ref: "#/components/schemas/Phone" }
    Phone:
      description: "E.164 (+, a country code not starting with 0, 8 to 15 digits); spaces, dashes, dots and brackets are ignored. For a country ABBY offers, the national number must have a length that country's numbers have (libphonenumber's plans): +1 and 11 digits is refused with 400."
      type: string
      pattern: '^[ .()-]*\+[ .()-]*[1-9]([ .()-]*[0-9]){7,14}[ .()-]*$'
    PhoneVerifyRequest:
      type: object
      required: [phone, code]
      properties:
        flow: { type: [string, "null"] }
        phone: { $ref: "#/components/schemas/Phone" }
        code: { type: string }
    Provider:
      type: string
      enum: [apple, google, facebook]
    SocialRequest:
      type: object
      required: [provider, id_token]
      properties:
        flow: { type: [string, "null"] }
        provider: { $ref: "#/components/schemas/Provider" }
        id_token: { type: string }
        nonce: { type: [string, "null"], description: The nonce the token was made for; without it the sign-in is refused (401). }
    DeviceAuthorizationRequest:
      type: object
      required: [provider]
      properties:
        flow: { type: [string, "null"] }
        provider: { $ref: "#/components/schemas/Provider" }
    DeviceTokenRequest:
      type: object
      required: [device_code]
      properties:
        flow: { type: [string, "null"] }
        device_code: { type: string }
    DeviceWithdrawalRequest:
      type: object
      required: [device_code]
      properties:
        device_code: { type: string }
    DeviceAuthorization:
      type: object
      required: [device_code, user_code, verification_uri, verification_uri_complete, expires_in, interval]
      properties:
        device_code: { type: string, description: "This device's secret for polling; never shown." }
        user_code: { type: string, pattern: '^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$', description: "RFC 8628 §6.1: to show and type; any case, dashes ignored." }
        verification_uri: { type: string }
        verification_uri_complete: { type: string, description: "The page with the code filled in (for a QR code)." }
        expires_in: { type: integer, description: seconds }
        interval: { type: integer, description: "seconds between polls" }
    IdentityTokenRequest:
      type: object
      required: [provider, account, audience, nonce]
      properties:
        provider: { $ref: "#/components/schemas/Provider" }
        account: { type: string, minLength: 1, maxLength: 254, pattern: '[^\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]' }
        audience: { type: string }
        nonce: { type: string, minLength: 1, maxLength: 128 }
    DeviceApprovalRequest:
      type: object
      required: [user_code, id_token, nonce]
      properties:
        user_code: { type: string, maxLength: 64 }
        id_token: { type: string }
        nonce: { type: string, minLength: 1, maxLength: 128 }
    EventsRequest:
      type: object
      required: [events]
      properties:
        events: { type: array, minItems: 1, maxItems: 100, items: { $ref: "#/components/schemas/AnalyticsEvent" } }
    AnalyticsEvent:
      type: object
      required: [id, event, flow, user_id, anonymous_id, timestamp, app_version, properties]
      properties:
        id: { type: string, format: uuid, description: "made when the event was recorded" }
        event: { type: string, pattern: '^[a-z0-9_]{1,64}$' }
        flow: { type: string, pattern: '^[a-z0-9_-]{1,64}$' }
        screen: { type: string, pattern: '^[a-z0-9_-]{1,64}$' }
        user_id: { type: string, pattern: '^[A-Za-z0-9_-]{1,128}$', description: "the service's id, or the device's placeholder before one" }
        anonymous_id: { type: string, pattern: '^[A-Za-z0-9_-]{1,128}$', description: "the device's placeholder for the run" }
        timestamp: { type: string, pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,3})?Z$' }
        app_version: { type: string, pattern: '^[0-9A-Za-z.+-]{1,32}$' }
        properties:
          type: object
          maxProperties: 16
          propertyNames: { pattern: '^[a-z0-9_]{1,64}$' }
          additionalProperties:
            anyOf:
              - { type: string, maxLength: 128, description: "no control or text-direction character, no line break", pattern: '^[^\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]*$' }
              - { type: number, exclusiveMinimum: -1e15, exclusiveMaximum: 1e15 }
              - { type: boolean }
    ForgetEventsRequest:
      type: object
      required: [anonymous_id]
      properties:
        anonymous_id: { type: string, pattern: '^[A-Za-z0-9_-]{1,128}$' }
    FunnelReport:
      type: object
      required: [flow, since, until, started, completed, completion_rate, target_ms, within_target, steps]
      properties:
        flow: { type: string }
        since: { type: string }
        until: { type: string }
        started: { type: integer }
        completed: { type: integer }
        completion_rate: { type: number }
        time_to_complete: { $ref: "#/components/schemas/Timing" }
        target_ms: { type: integer }
        within_target: { type: integer }
        steps:
          type: array
          items:
            type: object
            required: [screen, reached, went_on, dropped, reached_rate, drop_rate, errors, retries]
            properties:
              screen: { type: string }
              reached: { type: integer }
              went_on: { type: integer }
              dropped: { type: integer }
              reached_rate: { type: number }
              drop_rate: { type: number }
              time_on_screen: { $ref: "#/components/schemas/Timing" }
              errors: { type: object, additionalProperties: { type: integer } }
              retries: { type: integer }
        by_version: { type: object, additionalProperties: { $ref: "#/components/schemas/FunnelReport" } }
    Timing:
      type: object
      required: [median_ms, p90_ms, count]
      properties:
        median_ms: { type: integer }
        p90_ms: { type: integer }
        count: { type: integer }
    ProfileRequest:
      type: object
      required: [fields]
      properties:
        fields:
          type: object
          additionalProperties: { $ref: "#/components/schemas/ProfileValue" }
          properties:
            full_name: { description: "ABBY: 2 to 50 letters and spaces.", pattern: '^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*[^\W\d_]( |[^\W\d_]){0,48}[^\W\d_][\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$', anyOf: [ { $ref: "#/components/schemas/ProfileValue" } ] }
            display_name: { description: "ABBY: 2 to 30 letters, digits and spaces; unique.", pattern: '^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*[^\W_]( |[^\W_]){0,28}[^\W_][\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$', anyOf: [ { $ref: "#/components/schemas/ProfileValue" } ] }
            birth_date: { description: "ABBY: YYYY-MM-DD, 18 to 99 years ago.", pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', anyOf: [ { $ref: "#/components/schemas/ProfileValue" } ] }
            age_range: { description: "ABBY: MIN-MAX, 18 <= MIN <= MAX <= 99.", pattern: '^(1[89]|[2-9][0-9])-(1[89]|[2-9][0-9])$', anyOf: [ { $ref: "#/components/schemas/ProfileValue" } ] }
    ProfileValue:
      description: Text of at most 200 characters, a number, true or false, or at most 50 texts of at most 200 characters.
      anyOf:
        - { type: string, maxLength: 200 }
        - { type: number }
        - { type: boolean }
        - { type: array, maxItems: 50, items: { type: string, maxLength: 200 } }
    FieldValue:
      anyOf:
        - { type: string }
        - { type: number }
        - { type: boolean }
        - { type: array, items: { type: string } }
    Fields:
      type: object
      additionalProperties: { $ref: "#/components/schemas/FieldValue" }
    NameRequest:
      type: object
      required: [name]
      properties:
        name: { type: string }
    ChildRequest:
      type: object
      required: [name]
      properties:
        name: { type: string, minLength: 1, maxLength: 100, pattern: '[^\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]' }
        birth_date: { type: [string, "null"], format: date, pattern: '^(19[0-9][0-9]|2[01][0-9][0-9]|2200)-[0-9]{2}-[0-9]{2}$' }
    InviteRequest:
      type: object
      required: [child_id]
      properties:
        child_id: { type: string }
    AcceptRequest:
      type: object
      required: [code]
      properties:
        code: { type: string }
    RecordRequest:
      type: object
      required: [value]
      properties:
        value: { $ref: "#/components/schemas/FieldValue" }
    RecordItemRequest:
      type: object
      required: [item]
      properties:
        item: { type: string, minLength: 1, maxLength: 1024 }
    RecordItems:
      type: object
      required: [items]
      properties:
        items: { type: array, items: { type: string } }
    ClockRequest:
      type: object
      required: [offset_seconds]
      properties:
        offset_seconds: { type: integer, minimum: -3162240000, maximum: 3162240000 }
    FaultsRequest:
      type: object
      required: [faults]
      properties:
        faults:
          type: array
          items: { type: string, pattern: '^(network|server-error|rate-limit|reauth-fail|slow=[0-9]+|fail-first=[0-9]+)$' }
    # Answers.
    Session:
      type: object
      required: [user_id, access_token, access_expires_at, refresh_token, is_anonymous, created_at, issued_at]
      properties:
        user_id: { type: string }
        access_token: { type: string }
        access_expires_at: { type: integer }
        refresh_token: { type: string }
        refresh_expires_at: { type: integer, description: absent when the refresh token never expires }
        is_anonymous: { type: boolean }
        created_at: { type: integer }
        issued_at: { type: integer }
        device_token: { type: string, description: "after a password sign-in (register, log-in, link-email): this device's token for the account, to send as Device-Token with its later log-ins" }
    AnonymousSignIn:
      type: object
      required: [session, name_options]
      properties:
        session: { $ref: "#/components/schemas/Session" }
        name_options: { type: array, items: { type: string } }
    SignIn:
      type: object
      required: [session, is_new_user]
      properties:
        session: { $ref: "#/components/schemas/Session" }
        is_new_user: { type: boolean }
    PhoneCodeSent:
      type: object
      required: [phone, expires_in, resend_after]
      properties:
        phone: { type: string }
        expires_in: { type: integer }
        resend_after: { type: integer }
    Profile:
      type: object
      required: [user_id, is_anonymous, fields]
      properties:
        user_id: { type: string }
        display_name: { type: string }
        email: { type: string }
        phone: { type: string }
        is_anonymous: { type: boolean }
        fields:
          $ref: "#/components/schemas/Fields"
          description: >-
            The profile's own fields. A guest that has not chosen a display name also has
            `name_options`, the names it was offered, in the order they were offered.
    Child:
      type: object
      required: [id, name]
      properties:
        id: { type: string }
        name: { type: string }
        birth_date: { type: string }
    Invite:
      type: object
      required: [code, expires_at]
      properties:
        code: { type: string }
        expires_at: { type: integer }
    InviteAcceptance:
      type: object
      required: [child, shared_by]
      properties:
        child: { $ref: "#/components/schemas/Child" }
        shared_by: { type: string }
    ContentEntry:
      type: object
      required: [id, title, body]
      properties:
        id: { type: string }
        title: { type: string }
        body: { type: string }
  responses:
    Error:
      description: >
        Any failure, as one envelope with a stable code; 503 and 429 carry Retry-After.
      content:
        application/json:
          schema:
            type: object
            required: [code, message]
            properties:
              code: { type: string, enum: [network, timeout, server_error, rate_limited, unauthorized, invalid_input, not_found, conflict, bad_response, idempotency_key_reused, authorization_pending, slow_down, access_denied, expired_token] }
              message: { type: string }
              retry_after: { type: integer, minimum: 0 }
  parameters:
    IdempotencyKey:
      name: Idempotency-Key
      in: header
      required: false
      schema: { type: string, pattern: '^[!-~]{16,200}$' }
      description: 16 to 200 printable ASCII characters, no spaces.
    IdempotencyProof:
      name: Idempotency-Proof
      in: header
      required: false
      schema: { type: string, maxLength: 200 }
      description: >-
        The device's proof of its Idempotency-Key (Onboard sends an HMAC of the key under
        a secret kept on the device): part of the request the key is bound to, and what a
        repeated anonymous sign-in must bring to get a session.
    DeviceToken:
      name: Device-Token
      in: header
      required: false
      schema: { type: string, maxLength: 200 }
      description: >-
        The device_token an earlier password sign-in to this account answered with. A
        token for another account, or not signed by this service, is ignored.
  securitySchemes:
    bearer: { type: http, scheme: bearer }
    admin: { type: http, scheme: bearer, description: "the operator's admin token (--admin-token-file), not a session" }

"""#
}
