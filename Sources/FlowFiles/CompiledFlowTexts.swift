// Generated from BuiltinFlows/*.yaml; do not edit. After changing a flow file, run
//   ONBOARD_REGENERATE=1 swift test --filter CompiledFlowsTests

enum CompiledFlowTexts {
    static func text(_ id: String) -> String? {
        switch id {
        case "oklah":
            #"""
# yaml-language-server: $schema=../../../schemas/flow.schema.json
# OKLah — anonymous onboarding (shared/seeds/000_85704d1d2ead4433.txt).
# Privacy screen (a gate: only Start leaves it) -> automatic anonymous account ->
# pick one of three happy names -> Home. Relaunch goes straight to Home; an expired
# access token is renewed silently.
id: oklah
title: OKLah
summary: anonymous onboarding, no name or email needed

entry:
  first_launch: privacy
  # Signed in with no saved place (progress lost or unreadable): the service says
  # whether a name was chosen, never a "Hi, friend" the device made up.
  signed_in: returning
  resume: true

tokens:
  access_ttl: 24h
  refresh_ttl: never      # a guest must never be orphaned

analytics:
  start: onboarding_start
  # Every screen reached, for the funnel of where people stop.
  screens: screen_viewed
  complete: onboarding_complete
  error: onboarding_error
  retry: onboarding_retry
  error_codes:
    network: ERR-ONB-001
    timeout: ERR-ONB-001
    server_error: ERR-ONB-002
    rate_limited: ERR-ONB-002
    bad_response: ERR-ONB-002
    unauthorized: ERR-ONB-002

screens:
  - id: privacy
    kind: info
    logo:
      - "\\(^o^)/"
    title: Welcome to OKLah
    bullets:
      - Your privacy comes first
      - No name, email, or phone needed
      - Your data stays on your device
    actions:
      - label: Start
        go: creating

  - id: creating
    kind: progress
    title: Setting things up...
    call: sign_in_anonymously
    on:
      success: pick_name
      error: failed

  - id: failed
    kind: error
    body: Something went wrong. Please check your connection and try again.
    actions:
      - label: Try Again
        retry: true

  - id: pick_name
    kind: choice
    title: Pick your name
    body: Choose the name OKLah will know you by. It is made up, just for you.
    choice:
      options_from: name_options
      store: chosen_name
      then:
        go: saving_name

  - id: saving_name
    kind: progress
    title: Saving your name...
    call: choose_name
    on:
      success: home
      error: failed

  - id: home
    kind: info
    complete: true
    title: "Hi, {display_name|friend}"
    body: "{motivation|Every small step counts. You are doing great.}"
    load:
      - motivation
    actions:
      - label: Check in
        notice: Check-in is coming in a later release; it is not part of onboarding.

  - id: returning
    kind: route
    route:
      - when: has display_name
        go: home
      - go: checking_name

  - id: checking_name
    kind: progress
    title: Welcome back...
    call: load_profile
    on:
      success: named
      error: failed

  - id: named
    kind: route
    route:
      - when: has display_name
        go: home
      # Not named yet: the names the service offered (it always holds three).
      - go: pick_name

"""#
        case "babybasics":
            #"""
# yaml-language-server: $schema=../../../schemas/flow.schema.json
# Baby Basics — server URL, account, invite, add baby (shared/seeds/001_01924fa3c54cd016.txt).
# Server URL (checked with /health) -> Create Account | I Have an Invite | Log In ->
# Add Baby (unless a baby is already shared) -> Dashboard. The server URL chooses the
# service: mock://local is the embedded mock, http(s):// an onboard-server.
id: babybasics
title: Baby Basics
summary: server URL, account or invite, your baby
service_url: server_url
# Never in a recording (--cast).
secrets: [invite_code, invite_code_created, invite_link]

entry:
  first_launch: server
  signed_in: dashboard
  resume: true
  # A session that ended (30 days unused, or refused) logs in again, email filled in.
  session_ended: session_ended

# The spec names no events; these are the funnel's (which screens people reach, and
# who finishes), sent to the Baby Basics server the person chose.
analytics:
  screens: screen_viewed
  complete: onboarding_complete

tokens:
  access_ttl: 24h
  refresh_ttl: 30d

screens:
  - id: server
    kind: form
    title: Baby Basics
    body: Which Baby Basics server do you use? mock://local is the one built into Onboard.
    fields:
      - id: server_url
        kind: url
        label: Server URL
        max_length: 2048
        rules:
          - rule: required
            message: Please enter the server URL.
          - rule: url
            message: Enter a full address such as https://baby.example.org, with no spaces.
    actions:
      - label: Continue
        call: connect_server
        on:
          success: auth
          error: server_unreachable

  - id: server_unreachable
    kind: error
    body: "Can't connect to server. Check the URL and try again.\nTried: {server_url}\n{error_message|}"
    actions:
      - label: Retry
        retry: true
      - label: Change URL
        go: server

  - id: auth
    kind: info
    back: true
    title: Welcome to Baby Basics
    body: Track feeds, sleep and diapers, alone or with a second caregiver.
    actions:
      - label: Create Account
        go: register
      - label: I Have an Invite
        go: invite
      - label: Log in
        link: Already have an account?
        go: login

  - id: register
    kind: form
    back: true
    title: Create your account
    fields: &account_fields
      - id: name
        label: Name
        max_length: 100
        rules:
          - rule: required
            message: Please enter your name.
      - id: email
        kind: email
        label: Email
        max_length: 254
        rules:
          - rule: required
            message: Please enter your email address.
          - rule: email
            message: Please enter a valid email address.
      - id: password
        kind: password
        label: Password
        max_length: 72
        rules:
          - rule: min_length
            value: 8
            message: Password must be at least 8 characters.
          - rule: not_common
            message: This password is one of the most common, so it would be guessed first. Please choose another.
    actions:
      - label: Create Account
        call: register
        on:
          success: add_baby
          conflict:
            message: An account with this email already exists. Try logging in.
          network: &network_message
            message: Something went wrong. Check your connection and press the button again to retry.
          timeout: *network_message
          error: {}
      - label: Log In Instead
        validate: false
        go: login

  - id: invite
    kind: form
    back: true
    # Killed on "Accepting your invite...", a relaunch comes back here signed in: the
    # account Join made goes on accepting (under the call's kept key), never a second
    # Join ("An account with this email already exists").
    resume_at: invite_resume
    title: Join with an invite
    body: Paste the code or the whole link you were sent.
    fields:
      - id: name
        label: Name
        max_length: 100
        rules:
          - rule: required
            message: Please enter your name.
      - id: email
        kind: email
        label: Email
        max_length: 254
        rules:
          - rule: required
            message: Please enter your email address.
          - rule: email
            message: Please enter a valid email address.
      - id: password
        kind: password
        label: Password
        max_length: 72
        rules:
          - rule: min_length
            value: 8
            message: Password must be at least 8 characters.
          - rule: not_common
            message: This password is one of the most common, so it would be guessed first. Please choose another.
      - id: invite_code
        label: Invite code or link
        max_length: 512
        rules:
          - rule: required
            message: Please paste your invite code or link.
    actions:
      - label: Join
        call: register
        on:
          success: accepting
          conflict:
            message: An account with this email already exists. Try logging in.
          network: *network_message
          timeout: *network_message
          error: {}
      - label: Already registered? Log in with your invite
        validate: false
        go: invite_login

  - id: invite_login
    kind: form
    back: true
    resume_at: invite_login_resume
    title: Log in with your invite
    fields:
      - id: email
        kind: email
        label: Email
        max_length: 254
        rules:
          - rule: required
            message: Please enter your email address.
      - id: password
        kind: password
        label: Password
        max_length: 72
        rules:
          - rule: required
            message: Please enter your password.
      - id: invite_code
        label: Invite code or link
        max_length: 512
        rules:
          - rule: required
            message: Please paste your invite code or link.
    actions:
      - label: Log In and Join
        call: log_in
        on:
          success: accepting
          unauthorized:
            message: Invalid email or password.
          network: *network_message
          timeout: *network_message
          error: {}

  - id: invite_resume
    kind: route
    route:
      - when: is_signed_in
        go: accepting
      - go: invite

  - id: invite_login_resume
    kind: route
    route:
      - when: is_signed_in
        go: accepting
      - go: invite_login

  - id: accepting
    kind: progress
    title: Accepting your invite...
    call: accept_invite
    on:
      success: tracking
      not_found:
        go: invite_retry
        message: This invite link is invalid or has already been used.
      # Your own invite (or a baby already on your account): nothing is spent; the
      # service's message says so, on the dashboard.
      conflict:
        go: dashboard
        message: "{error_message}"
      error:
        go: invite_retry
        message: Something went wrong. Check your connection and try again.

  - id: invite_retry
    kind: form
    title: Your invite
    body: Your account is ready. Enter the invite code or link again.
    fields:
      - id: invite_code
        label: Invite code or link
        max_length: 512
        rules:
          - rule: required
            message: Please paste your invite code or link.
    actions:
      - label: Join
        go: accepting
      - label: Add a Baby Instead
        validate: false
        go: add_baby

  - id: tracking
    kind: info
    title: "You're now tracking {child_name}"
    body: "Shared by {shared_by}"
    actions:
      - label: Go to Dashboard
        go: dashboard

  - id: login
    kind: form
    back: true
    title: Log in
    fields: &log_in_fields
      - id: email
        kind: email
        label: Email
        max_length: 254
        rules:
          - rule: required
            message: Please enter your email address.
      - id: password
        kind: password
        label: Password
        max_length: 72
        rules:
          - rule: required
            message: Please enter your password.
    actions:
      - label: Log In
        call: log_in
        on: &log_in_outcomes
          success: checking_children
          unauthorized:
            message: Invalid email or password.
          rate_limited:
            message: Too many attempts. Please wait a few minutes and try again.
          network: *network_message
          timeout: *network_message
          error: {}

  - id: checking_children
    kind: progress
    title: Loading your babies...
    call: load_children
    on:
      success: after_login
      error: failed

  - id: after_login
    kind: route
    route:
      - when: has_children
        go: dashboard
      - go: add_baby

  - id: failed
    kind: error
    body: Something went wrong. Check your connection and try again.
    actions:
      - label: Retry
        retry: true

  - id: add_baby
    kind: form
    title: Add your baby
    # A relaunch asks the service first: a baby added meanwhile leads to the Dashboard.
    resume_at: checking_children
    fields:
      - id: baby_name
        label: Name
        max_length: 100
        rules:
          - rule: required
            message: Please enter your baby's name.
      - id: birth_date
        kind: date
        label: Date of birth
        rules:
          - rule: date
            message: Enter the date as YYYY-MM-DD.
          - rule: not_future
            message: The date of birth can't be in the future.
    actions:
      - label: Let's Go!
        call: add_child
        on:
          success: dashboard
          network: *network_message
          timeout: *network_message
          error: {}

  - id: dashboard
    kind: info
    complete: true
    title: Dashboard
    items: children
    empty: No babies yet.
    load:
      - load_children
    actions:
      - label: Invite a Caregiver
        call: create_invite
        on:
          success: invite_created
          error: {}

  - id: invite_created
    kind: info
    title: "Invite a caregiver to {invite_child}"
    body: "Share this code: {invite_code_created}\n\nOr this link:\n{invite_link}\n\nIt works once and expires in 7 days."
    actions:
      - label: Done
        go: dashboard

  - id: session_ended
    kind: form
    title: Log in again
    body: "Your session on {server_url} has ended. Log in again to see your babies."
    fields: *log_in_fields
    actions:
      - label: Log In
        call: log_in
        on: *log_in_outcomes
      - label: Use Another Account
        validate: false
        go: auth

"""#
        case "abby":
            #"""
# yaml-language-server: $schema=../../../schemas/flow.schema.json
# ABBY — consent, phone + SMS code or social sign-in, basic and extended profile
# (shared/seeds/002_82311341dc664b6f.txt). Consent -> method -> phone -> code, or a
# provider's consent screen -> names -> age -> identity -> background -> relationship ->
# done. A returning user whose profile is complete goes straight to the end.
id: abby
title: ABBY
summary: phone or social sign-in, then your profile
steps: 7

entry:
  first_launch: consent
  # Signed in: a finished profile goes to the end; with no saved place (progress lost
  # or unreadable) the service says where the person stands, never the device's guess.
  signed_in: returning
  signed_out: method
  resume: true

# A sign-in's device code is this device's secret; the user code and its address are
# the person's to type, never a recording's.
secrets: [device_code, user_code, verification_uri_complete]

tokens:
  access_ttl: 24h
  refresh_ttl: 30d
  renew_before: 5m

analytics:
  consent: analytics_consent
  complete: onboarding_completed
  error: auth_error
  retry: auth_retry
  renewed: session_refreshed
  # The consent screen promises "which steps you reach": one event per numbered screen.
  step: onboarding_step_viewed
  screens: screen_viewed

screens:
  - id: consent
    kind: info
    step: 1
    title: Welcome to ABBY
    # The choice the buttons answer comes first: at 40x12 the rest is below the fold,
    # and "Agree" must never be pressed for something not yet read (issue 32).
    body: >-
      Optional: anonymous usage events (which steps you reach) to improve onboarding.
      Nothing is tracked unless you agree.
    bullets:
      - "To set up your account ABBY asks for a phone number or a social sign-in, your name, date of birth and what you are looking for."
      - "Your full legal name and phone number stay private: never shown to others, never in analytics."
    actions:
      - label: Agree and Continue
        set: { analytics_consent: granted }
        go: method
      - label: Continue Without Analytics
        set: { analytics_consent: declined }
        go: method

  - id: method
    kind: info
    step: 2
    back: true
    title: Create your account
    body: Use your phone number, or continue with Apple, Google or Facebook.
    track: [auth_method_viewed]
    actions:
      - label: Use Phone Number
        go: phone
      - label: Continue with Apple
        set: { provider: apple, provider_name: Apple }
        call: start_social_device
        on: &start_social
          success: social_start
          network: &offline
            message: Can't reach ABBY. Check your connection and try again.
          timeout: *offline
          error: {}
      - label: Continue with Google
        set: { provider: google, provider_name: Google }
        call: start_social_device
        on: *start_social
      - label: Continue with Facebook
        set: { provider: facebook, provider_name: Facebook }
        call: start_social_device
        on: *start_social

  - id: phone
    kind: form
    step: 2
    back: true
    title: Your phone number
    body: We'll text you a 6-digit code to confirm it's you.
    fields:
      - id: country
        kind: select
        label: Country
        default: "+1 United States / Canada"
        options:
          - "+1 United States / Canada"
          - "+44 United Kingdom"
          - "+353 Ireland"
          - "+61 Australia"
          - "+64 New Zealand"
          - "+65 Singapore"
          - "+91 India"
          - "+49 Germany"
          - "+33 France"
          - "+34 Spain"
          - "+39 Italy"
          - "+31 Netherlands"
          - "+81 Japan"
          - "+52 Mexico"
          - "+55 Brazil"
          - "+27 South Africa"
        rules:
          - rule: required
            message: Choose your country.
      - id: phone
        kind: phone
        label: Phone number
        max_length: 14
        rules:
          - rule: required
            message: Please enter a valid phone number
          - rule: phone
            field: country
            message: Please enter a valid phone number
    actions:
      - label: Send Code
        call: send_phone_code
        on:
          success: code
          invalid_input:
            field: phone
          network: *offline
          timeout: *offline
          error: {}
      - label: Back to Code Entry
        # After Change Number: the code already sent still works (and a new one waits
        # for its cooldown).
        when: changing_number == yes
        validate: false
        go: code
      - label: Use Another Method
        validate: false
        go: method

  - id: code
    kind: form
    step: 2
    title: Enter your code
    body: We sent a 6-digit code to {phone_e164}. It expires in 5 minutes.
    fields:
      - id: sms_code
        kind: code
        label: Verification code
        max_length: 6
        submit_when_full: true
        rules:
          - rule: digits
            value: 6
            message: Enter the 6-digit code we sent you.
    actions:
      - label: Verify
        call: verify_phone_code
        on:
          success: signed_in
          invalid_input: &wrong_code
            message: That code is wrong or has expired. Check it, or resend a new one.
          not_found: *wrong_code
          rate_limited:
            message: Too many attempts. Wait a few minutes, then resend a new code.
          network: *offline
          timeout: *offline
          error: {}
      - label: Resend Code
        cooldown: 60s
        call: send_phone_code
        on:
          success:
            message: We sent a new code.
          network: *offline
          timeout: *offline
          error: {}
      - label: Change Number
        validate: false
        set: { changing_number: "yes" }
        go: phone
      - label: Use Another Method
        validate: false
        go: method

  # Social sign-in is approved in a browser (RFC 8628): the service brokers the
  # provider and this device polls. The embedded mock has no web page: its approval is
  # the simulated consent screen below, made here.
  - id: social_start
    kind: route
    route:
      - when: device_approval == here
        go: social
      - go: social_device

  - id: social_device
    kind: info
    step: 2
    back: true
    # A relaunch starts the sign-in again from the method choice: the code is short-lived,
    # and the next launch withdraws one a run left open.
    resumable: false
    title: Sign in with {provider_name}
    body: |-
      On your phone or computer, open
      {verification_uri}
      and enter the code:
      {user_code}

      The code expires in {device_expires_at:left}.
      {browser_hint}
    qr: verification_uri_complete
    poll:
      call: poll_social_device
      every: poll_interval
      until: device_expires_at
      # Cancel, Esc or any other way off this screen gives the code up: a browser left
      # open on it can no longer approve a sign-in no terminal waits for.
      withdraw: withdraw_social_device
      on:
        success: signed_in
        # The spec: a cancelled social sign-in returns to the method choice, no error.
        access_denied:
          go: method
        expired_token:
          message: This code has expired. Get a new code to try again.
        error: {}
    actions:
      - label: Open Browser
        when: browser == yes
        call: open_browser
        on:
          success: {}
          error: {}
      - label: Get a New Code
        when: error_code == expired_token
        set: { error_code: "" }
        call: start_social_device
        on:
          success: social_device
          network: *offline
          timeout: *offline
          error: {}
      - label: Cancel
        validate: false
        # A cancelled provider is not kept in the progress (the poll's withdraw forgets
        # the code once it has given it up).
        set: { provider: "", provider_name: "", error_code: "" }
        go: method

  - id: social
    kind: form
    step: 2
    back: true
    resumable: false
    title: Sign in with {provider_name}
    body: >-
      ABBY would like your name and email address. This is the embedded mock's
      {provider_name} consent screen: nothing is sent to {provider_name}.
    fields:
      - id: social_account
        kind: email
        label: Account email
        max_length: 254
        rules:
          - rule: required
            message: Enter the account to continue with.
          - rule: email
            message: Please enter a valid email address.
    actions:
      - label: Allow
        call: approve_social_device
        on:
          success: signed_in
          expired_token:
            go: method
            message: That sign-in took too long and expired. Choose how to sign in again.
          network: *offline
          timeout: *offline
          error: {}
      - label: Cancel
        validate: false
        # A cancelled provider is not kept in the progress.
        set: { provider: "", provider_name: "", social_account: "", device_code: "" }
        go: method

  - id: signed_in
    kind: route
    # The first step the service holds no answer for: a person whose progress on this
    # device was lost picks up where their profile stands, not at its first step.
    route:
      - when: profile_complete
        go: done
      - when: not has full_name
        go: names
      - when: not has birth_date
        go: age
      - when: not has gender
        go: identity
      - when: not has ethnicity
        go: background
      - go: relationship

  - id: names
    kind: form
    step: 3
    title: Your name
    body: Your full legal name stays private. Your display name is what others see.
    fields:
      - id: full_name
        label: Full legal name (private)
        max_length: 50
        rules:
          - rule: min_length
            value: 2
            message: Please enter your full legal name
          # Letters of any script, as the spec says, and the hyphens and apostrophes
          # real legal names hold (Mary-Jane O'Neil).
          - rule: person_name
            message: Please enter your full legal name
      - id: display_name
        label: Display name (public)
        max_length: 30
        rules:
          - rule: min_length
            value: 2
            message: Choose a display name (2-30 characters)
          - rule: alphanumeric
            message: Choose a display name (2-30 characters)
    actions:
      - label: Continue
        call: save_profile
        on:
          success: age
          network: &saved_here
            message: Your answers are saved on this device, but ABBY can't be reached. Press Continue again to send them.
          timeout: *saved_here
          error: {}

  - id: age
    kind: form
    step: 4
    back: true
    title: Your age
    fields:
      - id: birth_date
        kind: date
        label: Date of birth
        shows_age: true
        rules:
          - rule: date
            message: Enter the date as YYYY-MM-DD.
          - rule: min_age
            value: 18
            message: You must be 18+ to use ABBY
          - rule: max_age
            value: 99
            message: "Please check your date of birth: ABBY is for ages 18 to 99."
      - id: age_range
        kind: range
        label: Preferred age range
        min: 18
        max: 99
        default: "18-99"
        rules:
          - rule: min_value
            value: 18
            message: Minimum age must be at least 18
          - rule: ordered
            message: Maximum age cannot be less than minimum
    actions:
      - label: Continue
        call: save_profile
        on:
          success: identity
          network: *saved_here
          timeout: *saved_here
          error: {}

  - id: identity
    kind: form
    step: 5
    back: true
    title: About you
    fields:
      - id: gender
        kind: select
        label: Gender identity
        options:
          - Woman
          - Man
          - Non-binary
          - Transgender woman
          - Transgender man
          - Genderqueer
          - Genderfluid
          - Agender
          - Two-Spirit
          - Questioning
          - Another identity
          - Prefer not to say
        rules:
          - rule: required
            message: Please choose how you identify.
      - id: seeking
        kind: multi
        label: Looking for
        options: [Women, Men, Non-binary people, Everyone]
        exclusive: Everyone
        rules:
          - rule: min_selected
            value: 1
            message: Choose who you're looking for (one or more).
    actions:
      - label: Continue
        call: save_profile
        on:
          success: background
          network: *saved_here
          timeout: *saved_here
          error: {}

  - id: background
    kind: form
    step: 6
    back: true
    title: Your background
    fields:
      - id: ethnicity
        kind: select
        label: Ethnicity
        options:
          - Asian
          - Black / African descent
          - Hispanic / Latino
          - Middle Eastern / North African
          - Indigenous
          - Pacific Islander
          - White / European descent
          - Multiracial
          - Another ethnicity
          - Prefer not to say
        rules:
          - rule: required
            message: Please choose your ethnicity, or Prefer not to say.
      - id: ethnicity_prefs
        kind: multi
        label: Ethnicity preferences (optional)
        options: [No preference, Asian, Black, Hispanic / Latino, Middle Eastern, Indigenous, Pacific Islander, White, Multiracial]
        exclusive: No preference
    actions:
      - label: Continue
        call: save_profile
        on:
          success: relationship
          network: *saved_here
          timeout: *saved_here
          error: {}

  - id: relationship
    kind: form
    step: 7
    back: true
    title: What you want
    fields:
      - id: relationship_type
        kind: select
        label: Relationship type
        options: [Serious, Casual, Unsure]
        rules:
          - rule: required
            message: Please choose serious, casual or unsure.
      - id: smoking
        kind: select
        label: Smoking
        options: [Never, Sometimes, Regularly, No preference]
        rules:
          - rule: required
            message: Please choose a smoking preference.
    actions:
      - label: Finish
        call: finish_profile
        on:
          success: done
          network: *saved_here
          timeout: *saved_here
          error: {}

  - id: done
    kind: info
    complete: true
    title: You're all set, {display_name|friend}
    body: Your profile is complete and you stay signed in on this device. ABBY will meet you next.
    actions:
      - label: Log Out
        call: log_out
        on:
          success: consent
          error: {}
      - label: Quit
        key: q
        quit: true

  - id: returning
    kind: route
    route:
      - when: profile_complete
        go: done
      - go: checking_profile

  - id: checking_profile
    kind: progress
    title: Loading your profile...
    call: load_profile
    on:
      success: signed_in
      error: profile_unreachable

  - id: profile_unreachable
    kind: error
    body: Can't reach ABBY to load your profile. Check your connection and try again.
    actions:
      - label: Try Again
        retry: true

"""#
        case "rucktracker":
            #"""
# yaml-language-server: $schema=../../../schemas/flow.schema.json
# RuckTracker — permanent anonymous sessions (shared/seeds/003_e2fd0e1c0cf86aa3.txt).
# A guest account is made on first launch, with no auth wall, and kept for good: the
# client never signs in anonymously while it holds a session. A guest adds an email to
# sync (same user id, every ruck kept); only named accounts can sign out, and signing
# out starts a new guest at once.
id: rucktracker
title: RuckTracker
summary: permanent guest sessions, email to sync

entry:
  first_launch: starting
  signed_in: home
  resume: true
  # A guest the service will not renew keeps its id and its rucks, and tries again later;
  # a named account whose session ended logs in again, its email filled in.
  keep_guest: true
  session_ended: session_ended
  # Offline at first launch there is still no wall: a guest on this device logs rucks at
  # once, and is registered (with the key its first try kept) when the service answers.
  offline_guest: RuckTracker could not reach its service, so your guest account is on this device for now. Log rucks as usual; they sync when the service answers.

# The spec's "metrics to track" (guest to account conversion) need which screens people
# reach and who finishes.
analytics:
  screens: screen_viewed
  complete: onboarding_complete

tokens:
  access_ttl: 24h
  refresh_ttl: never      # a permanent guest is never orphaned

screens:
  - id: starting
    kind: progress
    title: Getting your tracker ready...
    call: sign_in_anonymously
    on:
      success: home
      error: start_failed

  - id: start_failed
    kind: error
    body: RuckTracker's service could not make your guest account just now. Try again in a moment.
    actions:
      - label: Try Again
        retry: true

  - id: home
    kind: info
    complete: true
    title: Your rucks
    items: rucks
    # Issue 32: oldest first, the 20th ruck was logged off-screen with no confirmation.
    newest_first: true
    empty: No rucks yet. Log your first one.
    load:
      - load_account
    actions:
      - label: Log a Ruck
        key: l
        go: log_ruck
      - label: Profile
        key: p
        branch:
          - when: is_anonymous
            go: guest_profile
          - go: account_profile
      - label: Go Pro
        key: g
        when: not has_pro
        go: pro_offer

  - id: log_ruck
    kind: form
    back: true
    # A ruck being typed is a person's work: a kill after a pause in typing keeps it.
    resume_after_complete: true
    title: Log a ruck
    fields:
      - id: distance_km
        label: Distance (km)
        placeholder: e.g. 5.5
        max_length: 8
        rules:
          - rule: required
            message: Enter the distance in kilometres.
          - rule: positive_number
            message: The distance must be a number above zero.
          - rule: max_value
            value: 500
            message: A ruck is at most 500 km.
      - id: duration_min
        label: Duration (minutes)
        placeholder: e.g. 60
        max_length: 5
        rules:
          - rule: required
            message: Enter how many minutes it took.
          - rule: positive_number
            message: The duration must be a number above zero.
          - rule: max_value
            value: 10080
            message: A ruck is at most a week (10080 minutes).
    actions:
      - label: Save
        call: log_ruck
        on:
          success: home
          network:
            message: You're offline, so the ruck was not saved. Try again when you're connected.
          error:
            message: The ruck could not be saved. Please try again.
      - label: Cancel
        # The form starts empty next time.
        set: { distance_km: "", duration_min: "" }
        back: true

  - id: guest_profile
    kind: info
    back: true
    title: Guest User
    body: "Account Status: {account_status|Guest}\nEmail: Not Set\nUsername: {username|Set Username}"
    bullets:
      - Your data is saved on this device. Add an email to sync.
    actions:
      - label: Add Email to Sync
        key: a
        go: add_email
      - label: Set Username
        key: u
        go: set_username
      - label: Log In
        go: log_in
      - label: Back
        back: true

  - id: add_email
    kind: form
    back: true
    # What was typed (never the password) survives a kill, as Log a Ruck's does; reached
    # from "Welcome to Pro!", a relaunch comes back here, not to a Home without the prompt.
    resume_after_complete: true
    title: Add Email to Sync
    body: Add an email and password to secure your account and sync your data across all devices.
    bullets:
      - Sync data across devices
      - Secure your account
      - Never lose your progress
      - Keep all your data
    fields:
      - id: email
        kind: email
        label: Email
        max_length: 254
        rules:
          - rule: required
            message: Please enter your email address.
          - rule: email
            message: Please enter a valid email address.
      - id: password
        kind: password
        label: Password
        max_length: 72
        rules:
          - rule: min_length
            value: 8
            message: Password must be at least 8 characters.
          - rule: not_common
            message: This password is one of the most common, so it would be guessed first. Please choose another.
      - id: confirm_password
        kind: password
        label: Confirm
        max_length: 72
        rules:
          - rule: matches
            field: password
            message: Passwords do not match.
    actions:
      - label: Secure My Account
        call: link_email
        on:
          success: linked
          conflict:
            message: That email already belongs to another account. Use another email; your guest data is safe.
          network:
            message: You're offline. Your data is safe on this device; add your email when you're connected.
          error:
            message: Your email could not be added. Your data is safe; please try again.
      - label: Maybe Later
        back: true

  - id: linked
    kind: info
    title: Your account is secured
    body: "Signed in as {email}. Your rucks are kept and synced."
    actions:
      - label: Done
        go: home

  - id: set_username
    kind: form
    back: true
    resume_after_complete: true
    title: Set Username
    # The service's rule, said before and checked as it is typed (issue 32).
    body: 2 to 30 letters, digits or spaces.
    fields:
      - id: username
        label: Username
        max_length: 30
        rules:
          - rule: required
            message: A username needs 2 to 30 characters.
          - rule: min_length
            value: 2
            message: A username needs 2 to 30 characters.
          - rule: alphanumeric
            message: A username can hold letters, digits and spaces only.
    actions:
      - label: Save
        call: set_username
        on:
          success:
            back: true
            message: Username saved.
          conflict:
            message: That username is taken. Please choose another.
          invalid_input:
            message: A username is 2 to 30 letters, digits or spaces.
          error:
            message: The username could not be saved. Please try again.
      - label: Cancel
        back: true

  - id: log_in
    kind: form
    back: true
    resume_after_complete: true
    title: Log In
    body: Log in to an account that already has an email. Pro, if you bought it, comes with you. Rucks logged as this guest stay with the guest account unless you bring them.
    fields: &log_in_fields
      - id: email
        kind: email
        label: Email
        max_length: 254
        rules:
          - rule: required
            message: Please enter your email address.
          - rule: email
            message: Please enter a valid email address.
      - id: password
        kind: password
        label: Password
        max_length: 72
        rules:
          - rule: required
            message: Please enter your password.
    actions:
      - label: Log In
        set: { bring_rucks: "no" }
        call: log_in
        on:
          success: home
          unauthorized:
            message: Invalid email or password.
          rate_limited:
            message: Too many attempts. Please wait a few minutes and try again.
          error:
            message: Could not log in. Check your connection and try again.
      # The guest's rucks go into the account only with the person's yes (as Firebase
      # apps merge an anonymous user into the credential it signs in to).
      - label: Log In and Bring My Rucks
        when: has rucks
        set: { bring_rucks: "yes" }
        call: log_in
        on:
          success: home
          unauthorized:
            message: Invalid email or password.
          rate_limited:
            message: Too many attempts. Please wait a few minutes and try again.
          error:
            message: Could not log in. Check your connection and try again.
      - label: Cancel
        back: true

  - id: account_profile
    kind: info
    back: true
    title: Signed In
    body: "Account Status: {account_status}\nEmail: {email}\nUsername: {username|Set Username}"
    actions:
      - label: Sign Out
        go: confirm_sign_out
      - label: Back
        back: true

  - id: confirm_sign_out
    kind: info
    back: true
    title: Sign out?
    body: "Signing out will create a new guest account. Your rucks stay with {email}: log in again to see them."
    actions:
      - label: Cancel
        back: true
      - label: Sign Out
        call: sign_out
        on:
          success:
            go: home
            message: Signed out. You're now using a new guest account.
          network:
            message: You're offline. Signing out needs a connection to make your new guest account, so nothing has changed.
          error:
            message: Could not sign out. Nothing has changed; please try again.

  - id: pro_offer
    kind: info
    back: true
    title: RuckTracker Pro
    bullets:
      - Training programs and pacing
      - Unlimited ruck history
      - Support the app
    actions:
      - label: Buy Pro (simulated)
        when: is_anonymous
        call: purchase_pro
        on:
          success: post_purchase_guest
          error:
            message: The purchase did not go through. You were not charged; please try again.
      - label: Buy Pro (simulated)
        when: is_signed_in
        call: purchase_pro
        on:
          success: post_purchase_member
          error:
            message: The purchase did not go through. You were not charged; please try again.
      - label: Not Now
        back: true

  - id: post_purchase_guest
    kind: info
    # Quitting here brings the prompt back on the next launch, until it is answered.
    resume_after_complete: true
    title: Welcome to Pro!
    body: "Secure Your Subscription\n\nAdd an email to secure your premium subscription: with an email, Pro follows you to every device and survives a lost phone."
    actions:
      - label: Add Email to Sync
        go: add_email
      - label: Skip
        go: home

  - id: post_purchase_member
    kind: info
    title: Welcome to Pro!
    body: Pro is on your account, so every device you sign in on has it, and your rucks are backed up.
    actions:
      - label: Done
        go: home

  - id: session_ended
    kind: form
    title: Log in again
    body: "Your session as {email|your account} has ended. Log in again to get your rucks back, or start over as a new guest."
    fields: *log_in_fields
    actions:
      - label: Log In
        call: log_in
        on:
          success: home
          unauthorized:
            message: Invalid email or password.
          rate_limited:
            message: Too many attempts. Please wait a few minutes and try again.
          error:
            message: Could not log in. Check your connection and try again.
      - label: Continue as Guest
        validate: false
        go: starting

"""#
        case "miga":
            #"""
# yaml-language-server: $schema=../../../schemas/flow.schema.json
# MIGA — Epic 1: the 12-step mindful onboarding, first-run setup with fallbacks, app
# selection, hiding instructions and the hub (shared/seeds/004_cc2aa94f48dab0f8.txt).
# Welcome -> ten value steps -> completion -> setup checklist -> apps -> hiding
# instructions for the device's unlock method -> "I've done it" -> hub. Choices stay on
# this device: no operation sends them to the service.
id: miga
title: MIGA
summary: 12 mindful steps, setup, app hiding, the hub
steps: 12

entry:
  first_launch: welcome
  signed_in: hub
  session_required: false
  resume: true

analytics:
  local_id: true
  start: onboarding_started
  complete: hub_unlocked
  error: setup_error
  screens: screen_viewed
  # The remote config's version on every event: the funnel compares versions.
  breakdown: onboarding_flow_version

screens:
  - id: welcome
    kind: info
    step: 1
    logo:
      - "  .  *  .  "
      - " *  MIGA  * "
      - "  .  *  .  "
    title: The Intentional Life Starts Now
    body: >-
      MIGA puts a mindful pause between you and your social apps, so every scroll is
      a choice you make on purpose.
    track: [step_welcome]
    actions:
      - label: Begin My Journey
        go: mission

  - id: mission
    kind: info
    step: 2
    back: true
    title: Our mission
    body: >-
      Technology should serve your life, not consume it. MIGA is a gateway: your
      social apps open through it, with a moment to decide first.
    track: [step_mission]
    actions:
      - label: Continue
        go: time_wasted

  - id: time_wasted
    kind: info
    step: 3
    back: true
    title: Where the time goes
    body: >-
      Most of us pick up our phones dozens of times a day, often without deciding to.
      Minutes of autopilot scrolling add up to hours we never chose to spend.
    bullets:
      - Opened out of habit, closed without remembering why.
      - Two hours a day is more than 700 hours a year.
    track: [step_time_wasted]
    actions:
      - label: Continue
        go: time_saved

  - id: time_saved
    kind: info
    step: 4
    back: true
    title: What a pause gives back
    body: >-
      Take back just 30 minutes a day and you gain over 180 hours a year: more than a
      week of waking life for people, rest and the things you care about.
    track: [step_time_saved]
    actions:
      - label: Continue
        go: goal

  - id: goal
    kind: info
    step: 5
    back: true
    title: Your goal
    body: >-
      Not to quit social media, but to choose it. Open an app when you mean to, for as
      long as you mean to, and close it feeling fine.
    track: [step_goal]
    actions:
      - label: Continue
        go: credibility

  - id: credibility
    kind: info
    step: 6
    back: true
    title: Why a pause works
    body: >-
      Habits run on cue, routine and reward. A short, deliberate pause between the cue
      and the routine is where a habit can change: behavioural science calls it
      breaking the loop. MIGA makes that pause part of opening an app.
    track: [step_credibility]
    actions:
      - label: Continue
        go: trial

  - id: trial
    kind: info
    step: 7
    back: true
    title: Try it free, without risk
    body: >-
      Your first 7 days are free. Cancel any time before the trial ends and you pay
      nothing; we remind you a day before it does.
    track: [step_trial]
    actions:
      - label: Continue
        go: determination

  - id: determination
    kind: form
    step: 8
    back: true
    title: How ready are you?
    body: 1 means just curious, 10 means ready to change today. There is no wrong answer.
    track: [step_determination]
    fields:
      - id: readiness
        kind: slider
        label: Readiness
        min: 1
        max: 10
        default: "5"
        rules:
          - rule: min_value
            value: 1
            message: Choose a number from 1 to 10.
    actions:
      - label: Continue
        go: interests

  - id: interests
    kind: form
    step: 9
    back: true
    title: What would you like to see?
    body: Your mindful moments will draw on these topics.
    track: [step_interests]
    fields:
      - id: interests
        kind: multi
        label: Topics
        options: [Breathing, Focus, Sleep, Gratitude, Self-compassion, Movement, Nature, Relationships]
        rules:
          - rule: min_selected
            value: 1
            message: Pick at least one topic.
    actions:
      - label: Continue
        go: journey

  - id: journey
    kind: info
    step: 10
    back: true
    title: Your journey
    bullets:
      - MIGA prepares itself on this device.
      - You choose the apps you want a pause before.
      - You hide them behind Face ID or your passcode, so MIGA becomes the way in.
      - Each time you open one, you take a mindful moment first.
    track: [step_journey]
    actions:
      - label: Continue
        go: confirm

  - id: confirm
    kind: info
    step: 11
    back: true
    title: Ready to begin?
    body: "Readiness {readiness} of 10. Topics: {interests}. These stay on this device."
    track: [step_confirm]
    actions:
      - label: Yes, Set Up MIGA
        go: completion

  - id: completion
    kind: info
    step: 12
    title: Onboarding complete
    body: Next, MIGA sets itself up on this device. It takes a few seconds.
    track: [step_completion]
    actions:
      - label: Start Setup
        go: setup

  - id: setup
    kind: checklist
    title: Setting up MIGA
    report: setup_completed
    finished: Everything is ready.
    # Said for any failure the task falls back from: the service out of reach, or
    # answering with an error (issue 47: "could not reach" when it had answered).
    finished_offline: >-
      MIGA could not use its service just now, so it runs in local-only mode: everything
      works on this device, and content syncs when it can.
    tasks:
      - label: Local store
        call: prepare_store
      - label: Anonymous sign-in
        call: sign_in_anonymously
        retries: 2
        fallback: "local-only mode"
      - label: Remote config
        call: fetch_config
      - label: Content preload
        call: preload_content
      - label: Compatibility check
        call: check_compatibility
    actions:
      - label: Continue
        go: choosing_apps

  - id: apps
    kind: form
    title: Choose your apps
    body: Which apps do you want a mindful pause before? Only apps MIGA can open for you are listed.
    fields:
      - id: apps
        kind: multi
        label: Apps
        options_from: supported_apps
        rules:
          - rule: min_selected
            value: 1
            message: Choose at least one app to put behind a mindful pause.
    actions:
      - label: Continue
        go: hiding

  - id: hiding
    kind: route
    route:
      - when: biometrics == face_id
        go: hide_face_id
      - when: biometrics == touch_id
        go: hide_touch_id
      - when: biometrics == passcode
        go: hide_passcode
      - go: hide_none

  - id: hide_face_id
    kind: info
    back: true
    title: Hide your apps behind Face ID
    body: "For each of: {apps}"
    bullets: &hide_steps_face
      - "1. On your Home Screen, touch and hold the app's icon."
      - "2. Tap Require Face ID."
      - "3. Tap Hide and Require Face ID, then confirm. The app moves to the Hidden folder."
      - "4. Come back to MIGA and press I've Done It."
    actions: &check_hidden
      - label: I've Done It
        call: validate_hiding
        on:
          success: hub
          error:
            message: "Not hidden yet: repeat steps 1-3 for each app (the menu item is Hide and Require …), then press I've Done It again. Your choices are kept."
      - label: Change Apps
        go: apps

  - id: hide_touch_id
    kind: info
    back: true
    title: Hide your apps behind Touch ID
    body: "For each of: {apps}"
    bullets:
      - "1. On your Home Screen, touch and hold the app's icon."
      - "2. Tap Require Touch ID."
      - "3. Tap Hide and Require Touch ID, then confirm. The app moves to the Hidden folder."
      - "4. Come back to MIGA and press I've Done It."
    actions: *check_hidden

  - id: hide_passcode
    kind: info
    back: true
    title: Hide your apps behind your passcode
    body: "For each of: {apps}"
    bullets:
      - "1. On your Home Screen, touch and hold the app's icon."
      - "2. Tap Require Passcode."
      - "3. Tap Hide and Require Passcode, then confirm. The app moves to the Hidden folder."
      - "4. Come back to MIGA and press I've Done It."
    actions: *check_hidden

  - id: hide_none
    kind: info
    back: true
    title: Another way to add a pause
    body: >-
      This device has no passcode, so apps cannot be hidden behind one. You can still
      put MIGA first, for each of: {apps}
    bullets:
      - "1. Touch and hold the app's icon, tap Remove App, then Remove from Home Screen (it stays in the App Library)."
      - "2. Put MIGA where the app used to be."
      - "3. Open the app from MIGA's hub, with a mindful moment first."
      - "4. Later, set a passcode in Settings > Face ID & Passcode to hide apps fully."
    actions:
      - label: Continue to the Hub
        go: hub

  - id: hub
    kind: info
    complete: true
    title: "Day {streak_day|1} of your mindful streak"
    body: "{banner|Before you open an app, take one slow breath.}"
    items: hub_summary
    load:
      - open_hub
    actions:
      - label: Quit
        key: q
        quit: true

  # After setup: the apps MIGA can open, or, when it can open none of them on this
  # device, the spec's fallback: instructions instead, without blocking the app.
  - id: choosing_apps
    kind: route
    route:
      - when: has supported_apps
        go: apps
      - go: no_supported_apps

  - id: no_supported_apps
    kind: info
    title: No app can be paused here yet
    body: >-
      MIGA cannot open any of your social apps on this device, so none can be put behind a
      mindful pause for now. MIGA still works: its daily reflections and streak are yours.
    bullets:
      - "Update your social apps from the App Store: newer versions can be opened by MIGA."
      - "Next time MIGA sets up, it checks them again and lists the ones it can open."
    actions:
      - label: Continue to the Hub
        go: hub

"""#
        default: nil
        }
    }
}
