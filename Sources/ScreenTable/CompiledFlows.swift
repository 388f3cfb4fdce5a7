// Generated from BuiltinFlows/*.yaml; do not edit. After changing a flow file, run
//   ONBOARD_REGENERATE=1 swift test --filter CompiledFlowsTests
// CompiledFlowsTests fails while this differs from what FlowLoader reads from the YAML.

enum CompiledFlows {
    static func flow(_ id: String) -> Flow? {
        switch id {
        case "oklah": oklah()
        case "babybasics": babybasics()
        case "abby": abby()
        case "rucktracker": rucktracker()
        case "miga": miga()
        default: nil
        }
    }

    private static func oklah() -> Flow {
        var entry = Entry(firstLaunch: "privacy", signedIn: "returning", resume: true, signedOut: nil)
        entry.sessionRequired = true
        entry.sessionEnded = nil
        entry.keepsGuest = false
        entry.offlineGuest = nil
        let tokens = TokenSettings(accessLifetime: 86400, refreshLifetime: nil, renewBefore: 60)
        var analytics = AnalyticsNames(start: "onboarding_start", complete: "onboarding_complete", error: "onboarding_error", retry: "onboarding_retry", errorCodes: ["bad_response": "ERR-ONB-002", "network": "ERR-ONB-001", "rate_limited": "ERR-ONB-002", "server_error": "ERR-ONB-002", "timeout": "ERR-ONB-001", "unauthorized": "ERR-ONB-002"])
        analytics.consentKey = nil
        analytics.renewed = nil
        analytics.step = nil
        analytics.screens = "screen_viewed"
        analytics.breakdown = nil
        analytics.localID = false
        var flow = Flow(id: "oklah", title: "OKLah", summary: "anonymous onboarding, no name or email needed", entry: entry, tokens: tokens, analytics: analytics, screens: [oklahScreen0(), oklahScreen1(), oklahScreen2(), oklahScreen3(), oklahScreen4(), oklahScreen5(), oklahScreen6(), oklahScreen7(), oklahScreen8()])
        flow.serviceURLKey = nil
        flow.stepCount = nil
        flow.secrets = []
        return flow
    }

    private static func oklahScreen0() -> Screen {
        var screen = Screen(id: "privacy", kind: .info, location: SourceLocation(file: "oklah.yaml", line: 37, column: 5))
        screen.title = "Welcome to OKLah"
        screen.logo = ["\\(^o^)/"]
        screen.bullets = ["Your privacy comes first", "No name, email, or phone needed", "Your data stays on your device"]
        screen.resumable = true
        do {
            let action = Action(label: "Start", key: nil, step: .go("creating"), when: nil, location: SourceLocation(file: "oklah.yaml", line: 47, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func oklahScreen1() -> Screen {
        var screen = Screen(id: "creating", kind: .progress, location: SourceLocation(file: "oklah.yaml", line: 50, column: 5))
        screen.title = "Setting things up..."
        screen.resumable = false
        screen.call = ServiceCall(operation: .signInAnonymously, outcomes: ["error": Outcome(go: "failed", message: nil, back: false, field: nil), "success": Outcome(go: "pick_name", message: nil, back: false, field: nil)])
        return screen
    }

    private static func oklahScreen2() -> Screen {
        var screen = Screen(id: "failed", kind: .error, location: SourceLocation(file: "oklah.yaml", line: 58, column: 5))
        screen.body = "Something went wrong. Please check your connection and try again."
        screen.resumable = false
        do {
            let action = Action(label: "Try Again", key: nil, step: .retry, when: nil, location: SourceLocation(file: "oklah.yaml", line: 62, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func oklahScreen3() -> Screen {
        var screen = Screen(id: "pick_name", kind: .choice, location: SourceLocation(file: "oklah.yaml", line: 65, column: 5))
        screen.title = "Pick your name"
        screen.body = "Choose the name OKLah will know you by. It is made up, just for you."
        screen.resumable = true
        screen.choice = Choice(options: .context("name_options"), store: "chosen_name", then: .go("saving_name"))
        return screen
    }

    private static func oklahScreen4() -> Screen {
        var screen = Screen(id: "saving_name", kind: .progress, location: SourceLocation(file: "oklah.yaml", line: 75, column: 5))
        screen.title = "Saving your name..."
        screen.resumable = false
        screen.call = ServiceCall(operation: .chooseName, outcomes: ["error": Outcome(go: "failed", message: nil, back: false, field: nil), "success": Outcome(go: "home", message: nil, back: false, field: nil)])
        return screen
    }

    private static func oklahScreen5() -> Screen {
        var screen = Screen(id: "home", kind: .info, location: SourceLocation(file: "oklah.yaml", line: 83, column: 5))
        screen.title = "Hi, {display_name|friend}"
        screen.body = "{motivation|Every small step counts. You are doing great.}"
        screen.load = [.motivation]
        screen.resumable = true
        screen.completesOnboarding = true
        do {
            let action = Action(label: "Check in", key: nil, step: .notice("Check-in is coming in a later release; it is not part of onboarding."), when: nil, location: SourceLocation(file: "oklah.yaml", line: 91, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func oklahScreen6() -> Screen {
        var screen = Screen(id: "returning", kind: .route, location: SourceLocation(file: "oklah.yaml", line: 94, column: 5))
        screen.resumable = false
        screen.route = [Branch(when: Guard(.has, negated: false, key: "display_name", value: nil), go: "home"), Branch(when: nil, go: "checking_name")]
        return screen
    }

    private static func oklahScreen7() -> Screen {
        var screen = Screen(id: "checking_name", kind: .progress, location: SourceLocation(file: "oklah.yaml", line: 101, column: 5))
        screen.title = "Welcome back..."
        screen.resumable = false
        screen.call = ServiceCall(operation: .loadProfile, outcomes: ["error": Outcome(go: "failed", message: nil, back: false, field: nil), "success": Outcome(go: "named", message: nil, back: false, field: nil)])
        return screen
    }

    private static func oklahScreen8() -> Screen {
        var screen = Screen(id: "named", kind: .route, location: SourceLocation(file: "oklah.yaml", line: 109, column: 5))
        screen.resumable = false
        screen.route = [Branch(when: Guard(.has, negated: false, key: "display_name", value: nil), go: "home"), Branch(when: nil, go: "pick_name")]
        return screen
    }

    private static func babybasics() -> Flow {
        var entry = Entry(firstLaunch: "server", signedIn: "dashboard", resume: true, signedOut: nil)
        entry.sessionRequired = true
        entry.sessionEnded = "session_ended"
        entry.keepsGuest = false
        entry.offlineGuest = nil
        let tokens = TokenSettings(accessLifetime: 86400, refreshLifetime: 2592000, renewBefore: 60)
        var analytics = AnalyticsNames(start: nil, complete: "onboarding_complete", error: nil, retry: nil, errorCodes: [:])
        analytics.consentKey = nil
        analytics.renewed = nil
        analytics.step = nil
        analytics.screens = "screen_viewed"
        analytics.breakdown = nil
        analytics.localID = false
        var flow = Flow(id: "babybasics", title: "Baby Basics", summary: "server URL, account or invite, your baby", entry: entry, tokens: tokens, analytics: analytics, screens: [babybasicsScreen0(), babybasicsScreen1(), babybasicsScreen2(), babybasicsScreen3(), babybasicsScreen4(), babybasicsScreen5(), babybasicsScreen6(), babybasicsScreen7(), babybasicsScreen8(), babybasicsScreen9(), babybasicsScreen10(), babybasicsScreen11(), babybasicsScreen12(), babybasicsScreen13(), babybasicsScreen14(), babybasicsScreen15(), babybasicsScreen16(), babybasicsScreen17(), babybasicsScreen18()])
        flow.serviceURLKey = "server_url"
        flow.stepCount = nil
        flow.secrets = ["invite_code", "invite_code_created", "invite_link"]
        return flow
    }

    private static func babybasicsScreen0() -> Screen {
        var screen = Screen(id: "server", kind: .form, location: SourceLocation(file: "babybasics.yaml", line: 31, column: 5))
        screen.title = "Baby Basics"
        screen.body = "Which Baby Basics server do you use? mock://local is the one built into Onboard."
        screen.resumable = true
        do {
            var field = Field(id: "server_url", kind: .url, label: "Server URL", placeholder: "", maxLength: 2048)
            field.rules.append(Rule(.required, count: nil, field: nil, message: "Please enter the server URL."))
            field.rules.append(Rule(.url, count: nil, field: nil, message: "Enter a full address such as https://baby.example.org, with no spaces."))
            screen.fields.append(field)
        }
        do {
            let action = Action(label: "Continue", key: nil, step: .call(ServiceCall(operation: .connectServer, outcomes: ["error": Outcome(go: "server_unreachable", message: nil, back: false, field: nil), "success": Outcome(go: "auth", message: nil, back: false, field: nil)])), when: nil, location: SourceLocation(file: "babybasics.yaml", line: 46, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func babybasicsScreen1() -> Screen {
        var screen = Screen(id: "server_unreachable", kind: .error, location: SourceLocation(file: "babybasics.yaml", line: 52, column: 5))
        screen.body = "Can't connect to server. Check the URL and try again.\nTried: {server_url}\n{error_message|}"
        screen.resumable = false
        do {
            let action = Action(label: "Retry", key: nil, step: .retry, when: nil, location: SourceLocation(file: "babybasics.yaml", line: 56, column: 9))
            screen.actions.append(action)
        }
        do {
            let action = Action(label: "Change URL", key: nil, step: .go("server"), when: nil, location: SourceLocation(file: "babybasics.yaml", line: 58, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func babybasicsScreen2() -> Screen {
        var screen = Screen(id: "auth", kind: .info, location: SourceLocation(file: "babybasics.yaml", line: 61, column: 5))
        screen.title = "Welcome to Baby Basics"
        screen.body = "Track feeds, sleep and diapers, alone or with a second caregiver."
        screen.allowsBack = true
        screen.resumable = true
        do {
            let action = Action(label: "Create Account", key: nil, step: .go("register"), when: nil, location: SourceLocation(file: "babybasics.yaml", line: 67, column: 9))
            screen.actions.append(action)
        }
        do {
            let action = Action(label: "I Have an Invite", key: nil, step: .go("invite"), when: nil, location: SourceLocation(file: "babybasics.yaml", line: 69, column: 9))
            screen.actions.append(action)
        }
        do {
            var action = Action(label: "Log in", key: nil, step: .go("login"), when: nil, location: SourceLocation(file: "babybasics.yaml", line: 71, column: 9))
            action.linkPrompt = "Already have an account?"
            screen.actions.append(action)
        }
        return screen
    }

    private static func babybasicsScreen3() -> Screen {
        var screen = Screen(id: "register", kind: .form, location: SourceLocation(file: "babybasics.yaml", line: 75, column: 5))
        screen.title = "Create your account"
        screen.allowsBack = true
        screen.resumable = true
        do {
            var field = Field(id: "name", kind: .text, label: "Name", placeholder: "", maxLength: 100)
            field.rules.append(Rule(.required, count: nil, field: nil, message: "Please enter your name."))
            screen.fields.append(field)
        }
        do {
            var field = Field(id: "email", kind: .email, label: "Email", placeholder: "", maxLength: 254)
            field.rules.append(Rule(.required, count: nil, field: nil, message: "Please enter your email address."))
            field.rules.append(Rule(.email, count: nil, field: nil, message: "Please enter a valid email address."))
            screen.fields.append(field)
        }
        do {
            var field = Field(id: "password", kind: .password, label: "Password", placeholder: "", maxLength: 72)
            field.rules.append(Rule(.minLength, count: 8, field: nil, message: "Password must be at least 8 characters."))
            field.rules.append(Rule(.notCommon, count: nil, field: nil, message: "This password is one of the most common, so it would be guessed first. Please choose another."))
            screen.fields.append(field)
        }
        do {
            let action = Action(label: "Create Account", key: nil, step: .call(ServiceCall(operation: .register, outcomes: ["conflict": Outcome(go: nil, message: "An account with this email already exists. Try logging in.", back: false, field: nil), "error": Outcome(go: nil, message: nil, back: false, field: nil), "network": Outcome(go: nil, message: "Something went wrong. Check your connection and press the button again to retry.", back: false, field: nil), "success": Outcome(go: "add_baby", message: nil, back: false, field: nil), "timeout": Outcome(go: nil, message: "Something went wrong. Check your connection and press the button again to retry.", back: false, field: nil)])), when: nil, location: SourceLocation(file: "babybasics.yaml", line: 106, column: 9))
            screen.actions.append(action)
        }
        do {
            var action = Action(label: "Log In Instead", key: nil, step: .go("login"), when: nil, location: SourceLocation(file: "babybasics.yaml", line: 116, column: 9))
            action.validates = false
            screen.actions.append(action)
        }
        return screen
    }

    private static func babybasicsScreen4() -> Screen {
        var screen = Screen(id: "invite", kind: .form, location: SourceLocation(file: "babybasics.yaml", line: 120, column: 5))
        screen.title = "Join with an invite"
        screen.body = "Paste the code or the whole link you were sent."
        screen.allowsBack = true
        screen.resumeAt = "invite_resume"
        screen.resumable = true
        do {
            var field = Field(id: "name", kind: .text, label: "Name", placeholder: "", maxLength: 100)
            field.rules.append(Rule(.required, count: nil, field: nil, message: "Please enter your name."))
            screen.fields.append(field)
        }
        do {
            var field = Field(id: "email", kind: .email, label: "Email", placeholder: "", maxLength: 254)
            field.rules.append(Rule(.required, count: nil, field: nil, message: "Please enter your email address."))
            field.rules.append(Rule(.email, count: nil, field: nil, message: "Please enter a valid email address."))
            screen.fields.append(field)
        }
        do {
            var field = Field(id: "password", kind: .password, label: "Password", placeholder: "", maxLength: 72)
            field.rules.append(Rule(.minLength, count: 8, field: nil, message: "Password must be at least 8 characters."))
            field.rules.append(Rule(.notCommon, count: nil, field: nil, message: "This password is one of the most common, so it would be guessed first. Please choose another."))
            screen.fields.append(field)
        }
        do {
            var field = Field(id: "invite_code", kind: .text, label: "Invite code or link", placeholder: "", maxLength: 512)
            field.rules.append(Rule(.required, count: nil, field: nil, message: "Please paste your invite code or link."))
            screen.fields.append(field)
        }
        do {
            let action = Action(label: "Join", key: nil, step: .call(ServiceCall(operation: .register, outcomes: ["conflict": Outcome(go: nil, message: "An account with this email already exists. Try logging in.", back: false, field: nil), "error": Outcome(go: nil, message: nil, back: false, field: nil), "network": Outcome(go: nil, message: "Something went wrong. Check your connection and press the button again to retry.", back: false, field: nil), "success": Outcome(go: "accepting", message: nil, back: false, field: nil), "timeout": Outcome(go: nil, message: "Something went wrong. Check your connection and press the button again to retry.", back: false, field: nil)])), when: nil, location: SourceLocation(file: "babybasics.yaml", line: 162, column: 9))
            screen.actions.append(action)
        }
        do {
            var action = Action(label: "Already registered? Log in with your invite", key: nil, step: .go("invite_login"), when: nil, location: SourceLocation(file: "babybasics.yaml", line: 171, column: 9))
            action.validates = false
            screen.actions.append(action)
        }
        return screen
    }

    private static func babybasicsScreen5() -> Screen {
        var screen = Screen(id: "invite_login", kind: .form, location: SourceLocation(file: "babybasics.yaml", line: 175, column: 5))
        screen.title = "Log in with your invite"
        screen.allowsBack = true
        screen.resumeAt = "invite_login_resume"
        screen.resumable = true
        do {
            var field = Field(id: "email", kind: .email, label: "Email", placeholder: "", maxLength: 254)
            field.rules.append(Rule(.required, count: nil, field: nil, message: "Please enter your email address."))
            screen.fields.append(field)
        }
        do {
            var field = Field(id: "password", kind: .password, label: "Password", placeholder: "", maxLength: 72)
            field.rules.append(Rule(.required, count: nil, field: nil, message: "Please enter your password."))
            screen.fields.append(field)
        }
        do {
            var field = Field(id: "invite_code", kind: .text, label: "Invite code or link", placeholder: "", maxLength: 512)
            field.rules.append(Rule(.required, count: nil, field: nil, message: "Please paste your invite code or link."))
            screen.fields.append(field)
        }
        do {
            let action = Action(label: "Log In and Join", key: nil, step: .call(ServiceCall(operation: .logIn, outcomes: ["error": Outcome(go: nil, message: nil, back: false, field: nil), "network": Outcome(go: nil, message: "Something went wrong. Check your connection and press the button again to retry.", back: false, field: nil), "success": Outcome(go: "accepting", message: nil, back: false, field: nil), "timeout": Outcome(go: nil, message: "Something went wrong. Check your connection and press the button again to retry.", back: false, field: nil), "unauthorized": Outcome(go: nil, message: "Invalid email or password.", back: false, field: nil)])), when: nil, location: SourceLocation(file: "babybasics.yaml", line: 202, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func babybasicsScreen6() -> Screen {
        var screen = Screen(id: "invite_resume", kind: .route, location: SourceLocation(file: "babybasics.yaml", line: 212, column: 5))
        screen.resumable = false
        screen.route = [Branch(when: Guard(.isSignedIn, negated: false, key: nil, value: nil), go: "accepting"), Branch(when: nil, go: "invite")]
        return screen
    }

    private static func babybasicsScreen7() -> Screen {
        var screen = Screen(id: "invite_login_resume", kind: .route, location: SourceLocation(file: "babybasics.yaml", line: 219, column: 5))
        screen.resumable = false
        screen.route = [Branch(when: Guard(.isSignedIn, negated: false, key: nil, value: nil), go: "accepting"), Branch(when: nil, go: "invite_login")]
        return screen
    }

    private static func babybasicsScreen8() -> Screen {
        var screen = Screen(id: "accepting", kind: .progress, location: SourceLocation(file: "babybasics.yaml", line: 226, column: 5))
        screen.title = "Accepting your invite..."
        screen.resumable = false
        screen.call = ServiceCall(operation: .acceptInvite, outcomes: ["conflict": Outcome(go: "dashboard", message: "{error_message}", back: false, field: nil), "error": Outcome(go: "invite_retry", message: "Something went wrong. Check your connection and try again.", back: false, field: nil), "not_found": Outcome(go: "invite_retry", message: "This invite link is invalid or has already been used.", back: false, field: nil), "success": Outcome(go: "tracking", message: nil, back: false, field: nil)])
        return screen
    }

    private static func babybasicsScreen9() -> Screen {
        var screen = Screen(id: "invite_retry", kind: .form, location: SourceLocation(file: "babybasics.yaml", line: 244, column: 5))
        screen.title = "Your invite"
        screen.body = "Your account is ready. Enter the invite code or link again."
        screen.resumable = true
        do {
            var field = Field(id: "invite_code", kind: .text, label: "Invite code or link", placeholder: "", maxLength: 512)
            field.rules.append(Rule(.required, count: nil, field: nil, message: "Please paste your invite code or link."))
            screen.fields.append(field)
        }
        do {
            let action = Action(label: "Join", key: nil, step: .go("accepting"), when: nil, location: SourceLocation(file: "babybasics.yaml", line: 256, column: 9))
            screen.actions.append(action)
        }
        do {
            var action = Action(label: "Add a Baby Instead", key: nil, step: .go("add_baby"), when: nil, location: SourceLocation(file: "babybasics.yaml", line: 258, column: 9))
            action.validates = false
            screen.actions.append(action)
        }
        return screen
    }

    private static func babybasicsScreen10() -> Screen {
        var screen = Screen(id: "tracking", kind: .info, location: SourceLocation(file: "babybasics.yaml", line: 262, column: 5))
        screen.title = "You're now tracking {child_name}"
        screen.body = "Shared by {shared_by}"
        screen.resumable = true
        do {
            let action = Action(label: "Go to Dashboard", key: nil, step: .go("dashboard"), when: nil, location: SourceLocation(file: "babybasics.yaml", line: 267, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func babybasicsScreen11() -> Screen {
        var screen = Screen(id: "login", kind: .form, location: SourceLocation(file: "babybasics.yaml", line: 270, column: 5))
        screen.title = "Log in"
        screen.allowsBack = true
        screen.resumable = true
        do {
            var field = Field(id: "email", kind: .email, label: "Email", placeholder: "", maxLength: 254)
            field.rules.append(Rule(.required, count: nil, field: nil, message: "Please enter your email address."))
            screen.fields.append(field)
        }
        do {
            var field = Field(id: "password", kind: .password, label: "Password", placeholder: "", maxLength: 72)
            field.rules.append(Rule(.required, count: nil, field: nil, message: "Please enter your password."))
            screen.fields.append(field)
        }
        do {
            let action = Action(label: "Log In", key: nil, step: .call(ServiceCall(operation: .logIn, outcomes: ["error": Outcome(go: nil, message: nil, back: false, field: nil), "network": Outcome(go: nil, message: "Something went wrong. Check your connection and press the button again to retry.", back: false, field: nil), "rate_limited": Outcome(go: nil, message: "Too many attempts. Please wait a few minutes and try again.", back: false, field: nil), "success": Outcome(go: "checking_children", message: nil, back: false, field: nil), "timeout": Outcome(go: nil, message: "Something went wrong. Check your connection and press the button again to retry.", back: false, field: nil), "unauthorized": Outcome(go: nil, message: "Invalid email or password.", back: false, field: nil)])), when: nil, location: SourceLocation(file: "babybasics.yaml", line: 290, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func babybasicsScreen12() -> Screen {
        var screen = Screen(id: "checking_children", kind: .progress, location: SourceLocation(file: "babybasics.yaml", line: 302, column: 5))
        screen.title = "Loading your babies..."
        screen.resumable = false
        screen.call = ServiceCall(operation: .loadChildren, outcomes: ["error": Outcome(go: "failed", message: nil, back: false, field: nil), "success": Outcome(go: "after_login", message: nil, back: false, field: nil)])
        return screen
    }

    private static func babybasicsScreen13() -> Screen {
        var screen = Screen(id: "after_login", kind: .route, location: SourceLocation(file: "babybasics.yaml", line: 310, column: 5))
        screen.resumable = false
        screen.route = [Branch(when: Guard(.hasChildren, negated: false, key: nil, value: nil), go: "dashboard"), Branch(when: nil, go: "add_baby")]
        return screen
    }

    private static func babybasicsScreen14() -> Screen {
        var screen = Screen(id: "failed", kind: .error, location: SourceLocation(file: "babybasics.yaml", line: 317, column: 5))
        screen.body = "Something went wrong. Check your connection and try again."
        screen.resumable = false
        do {
            let action = Action(label: "Retry", key: nil, step: .retry, when: nil, location: SourceLocation(file: "babybasics.yaml", line: 321, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func babybasicsScreen15() -> Screen {
        var screen = Screen(id: "add_baby", kind: .form, location: SourceLocation(file: "babybasics.yaml", line: 324, column: 5))
        screen.title = "Add your baby"
        screen.resumeAt = "checking_children"
        screen.resumable = true
        do {
            var field = Field(id: "baby_name", kind: .text, label: "Name", placeholder: "", maxLength: 100)
            field.rules.append(Rule(.required, count: nil, field: nil, message: "Please enter your baby's name."))
            screen.fields.append(field)
        }
        do {
            var field = Field(id: "birth_date", kind: .date, label: "Date of birth", placeholder: "", maxLength: 256)
            field.rules.append(Rule(.date, count: nil, field: nil, message: "Enter the date as YYYY-MM-DD."))
            field.rules.append(Rule(.notFuture, count: nil, field: nil, message: "The date of birth can't be in the future."))
            screen.fields.append(field)
        }
        do {
            let action = Action(label: "Let's Go!", key: nil, step: .call(ServiceCall(operation: .addChild, outcomes: ["error": Outcome(go: nil, message: nil, back: false, field: nil), "network": Outcome(go: nil, message: "Something went wrong. Check your connection and press the button again to retry.", back: false, field: nil), "success": Outcome(go: "dashboard", message: nil, back: false, field: nil), "timeout": Outcome(go: nil, message: "Something went wrong. Check your connection and press the button again to retry.", back: false, field: nil)])), when: nil, location: SourceLocation(file: "babybasics.yaml", line: 345, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func babybasicsScreen16() -> Screen {
        var screen = Screen(id: "dashboard", kind: .info, location: SourceLocation(file: "babybasics.yaml", line: 353, column: 5))
        screen.title = "Dashboard"
        screen.load = [.loadChildren]
        screen.resumable = true
        screen.completesOnboarding = true
        screen.items = "children"
        screen.empty = "No babies yet."
        do {
            let action = Action(label: "Invite a Caregiver", key: nil, step: .call(ServiceCall(operation: .createInvite, outcomes: ["error": Outcome(go: nil, message: nil, back: false, field: nil), "success": Outcome(go: "invite_created", message: nil, back: false, field: nil)])), when: nil, location: SourceLocation(file: "babybasics.yaml", line: 362, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func babybasicsScreen17() -> Screen {
        var screen = Screen(id: "invite_created", kind: .info, location: SourceLocation(file: "babybasics.yaml", line: 368, column: 5))
        screen.title = "Invite a caregiver to {invite_child}"
        screen.body = "Share this code: {invite_code_created}\n\nOr this link:\n{invite_link}\n\nIt works once and expires in 7 days."
        screen.resumable = true
        do {
            let action = Action(label: "Done", key: nil, step: .go("dashboard"), when: nil, location: SourceLocation(file: "babybasics.yaml", line: 373, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func babybasicsScreen18() -> Screen {
        var screen = Screen(id: "session_ended", kind: .form, location: SourceLocation(file: "babybasics.yaml", line: 376, column: 5))
        screen.title = "Log in again"
        screen.body = "Your session on {server_url} has ended. Log in again to see your babies."
        screen.resumable = true
        do {
            var field = Field(id: "email", kind: .email, label: "Email", placeholder: "", maxLength: 254)
            field.rules.append(Rule(.required, count: nil, field: nil, message: "Please enter your email address."))
            screen.fields.append(field)
        }
        do {
            var field = Field(id: "password", kind: .password, label: "Password", placeholder: "", maxLength: 72)
            field.rules.append(Rule(.required, count: nil, field: nil, message: "Please enter your password."))
            screen.fields.append(field)
        }
        do {
            let action = Action(label: "Log In", key: nil, step: .call(ServiceCall(operation: .logIn, outcomes: ["error": Outcome(go: nil, message: nil, back: false, field: nil), "network": Outcome(go: nil, message: "Something went wrong. Check your connection and press the button again to retry.", back: false, field: nil), "rate_limited": Outcome(go: nil, message: "Too many attempts. Please wait a few minutes and try again.", back: false, field: nil), "success": Outcome(go: "checking_children", message: nil, back: false, field: nil), "timeout": Outcome(go: nil, message: "Something went wrong. Check your connection and press the button again to retry.", back: false, field: nil), "unauthorized": Outcome(go: nil, message: "Invalid email or password.", back: false, field: nil)])), when: nil, location: SourceLocation(file: "babybasics.yaml", line: 382, column: 9))
            screen.actions.append(action)
        }
        do {
            var action = Action(label: "Use Another Account", key: nil, step: .go("auth"), when: nil, location: SourceLocation(file: "babybasics.yaml", line: 385, column: 9))
            action.validates = false
            screen.actions.append(action)
        }
        return screen
    }

    private static func abby() -> Flow {
        var entry = Entry(firstLaunch: "consent", signedIn: "returning", resume: true, signedOut: "method")
        entry.sessionRequired = true
        entry.sessionEnded = nil
        entry.keepsGuest = false
        entry.offlineGuest = nil
        let tokens = TokenSettings(accessLifetime: 86400, refreshLifetime: 2592000, renewBefore: 300)
        var analytics = AnalyticsNames(start: nil, complete: "onboarding_completed", error: "auth_error", retry: "auth_retry", errorCodes: [:])
        analytics.consentKey = "analytics_consent"
        analytics.renewed = "session_refreshed"
        analytics.step = "onboarding_step_viewed"
        analytics.screens = "screen_viewed"
        analytics.breakdown = nil
        analytics.localID = false
        var flow = Flow(id: "abby", title: "ABBY", summary: "phone or social sign-in, then your profile", entry: entry, tokens: tokens, analytics: analytics, screens: [abbyScreen0(), abbyScreen1(), abbyScreen2(), abbyScreen3(), abbyScreen4(), abbyScreen5(), abbyScreen6(), abbyScreen7(), abbyScreen8(), abbyScreen9(), abbyScreen10(), abbyScreen11(), abbyScreen12(), abbyScreen13(), abbyScreen14(), abbyScreen15(), abbyScreen16()])
        flow.serviceURLKey = nil
        flow.stepCount = 7
        flow.secrets = ["device_code", "user_code", "verification_uri_complete"]
        return flow
    }

    private static func abbyScreen0() -> Screen {
        var screen = Screen(id: "consent", kind: .info, location: SourceLocation(file: "abby.yaml", line: 39, column: 5))
        screen.title = "Welcome to ABBY"
        screen.body = "Optional: anonymous usage events (which steps you reach) to improve onboarding. Nothing is tracked unless you agree."
        screen.bullets = ["To set up your account ABBY asks for a phone number or a social sign-in, your name, date of birth and what you are looking for.", "Your full legal name and phone number stay private: never shown to others, never in analytics."]
        screen.resumable = true
        screen.step = 1
        do {
            var action = Action(label: "Agree and Continue", key: nil, step: .go("method"), when: nil, location: SourceLocation(file: "abby.yaml", line: 52, column: 9))
            action.sets = ["analytics_consent": "granted"]
            screen.actions.append(action)
        }
        do {
            var action = Action(label: "Continue Without Analytics", key: nil, step: .go("method"), when: nil, location: SourceLocation(file: "abby.yaml", line: 55, column: 9))
            action.sets = ["analytics_consent": "declined"]
            screen.actions.append(action)
        }
        return screen
    }

    private static func abbyScreen1() -> Screen {
        var screen = Screen(id: "method", kind: .info, location: SourceLocation(file: "abby.yaml", line: 59, column: 5))
        screen.title = "Create your account"
        screen.body = "Use your phone number, or continue with Apple, Google or Facebook."
        screen.allowsBack = true
        screen.resumable = true
        screen.track = ["auth_method_viewed"]
        screen.step = 2
        do {
            let action = Action(label: "Use Phone Number", key: nil, step: .go("phone"), when: nil, location: SourceLocation(file: "abby.yaml", line: 67, column: 9))
            screen.actions.append(action)
        }
        do {
            var action = Action(label: "Continue with Apple", key: nil, step: .call(ServiceCall(operation: .startSocialDevice, outcomes: ["error": Outcome(go: nil, message: nil, back: false, field: nil), "network": Outcome(go: nil, message: "Can't reach ABBY. Check your connection and try again.", back: false, field: nil), "success": Outcome(go: "social_start", message: nil, back: false, field: nil), "timeout": Outcome(go: nil, message: "Can't reach ABBY. Check your connection and try again.", back: false, field: nil)])), when: nil, location: SourceLocation(file: "abby.yaml", line: 69, column: 9))
            action.sets = ["provider": "apple", "provider_name": "Apple"]
            screen.actions.append(action)
        }
        do {
            var action = Action(label: "Continue with Google", key: nil, step: .call(ServiceCall(operation: .startSocialDevice, outcomes: ["error": Outcome(go: nil, message: nil, back: false, field: nil), "network": Outcome(go: nil, message: "Can't reach ABBY. Check your connection and try again.", back: false, field: nil), "success": Outcome(go: "social_start", message: nil, back: false, field: nil), "timeout": Outcome(go: nil, message: "Can't reach ABBY. Check your connection and try again.", back: false, field: nil)])), when: nil, location: SourceLocation(file: "abby.yaml", line: 78, column: 9))
            action.sets = ["provider": "google", "provider_name": "Google"]
            screen.actions.append(action)
        }
        do {
            var action = Action(label: "Continue with Facebook", key: nil, step: .call(ServiceCall(operation: .startSocialDevice, outcomes: ["error": Outcome(go: nil, message: nil, back: false, field: nil), "network": Outcome(go: nil, message: "Can't reach ABBY. Check your connection and try again.", back: false, field: nil), "success": Outcome(go: "social_start", message: nil, back: false, field: nil), "timeout": Outcome(go: nil, message: "Can't reach ABBY. Check your connection and try again.", back: false, field: nil)])), when: nil, location: SourceLocation(file: "abby.yaml", line: 82, column: 9))
            action.sets = ["provider": "facebook", "provider_name": "Facebook"]
            screen.actions.append(action)
        }
        return screen
    }

    private static func abbyScreen2() -> Screen {
        var screen = Screen(id: "phone", kind: .form, location: SourceLocation(file: "abby.yaml", line: 87, column: 5))
        screen.title = "Your phone number"
        screen.body = "We'll text you a 6-digit code to confirm it's you."
        screen.allowsBack = true
        screen.resumable = true
        screen.step = 2
        do {
            var field = Field(id: "country", kind: .select, label: "Country", placeholder: "", maxLength: 256)
            field.rules.append(Rule(.required, count: nil, field: nil, message: "Choose your country."))
            field.options = ["+1 United States / Canada", "+44 United Kingdom", "+353 Ireland", "+61 Australia", "+64 New Zealand", "+65 Singapore", "+91 India", "+49 Germany", "+33 France", "+34 Spain", "+39 Italy", "+31 Netherlands", "+81 Japan", "+52 Mexico", "+55 Brazil", "+27 South Africa"]
            field.initial = "+1 United States / Canada"
            screen.fields.append(field)
        }
        do {
            var field = Field(id: "phone", kind: .phone, label: "Phone number", placeholder: "", maxLength: 14)
            field.rules.append(Rule(.required, count: nil, field: nil, message: "Please enter a valid phone number"))
            field.rules.append(Rule(.phone, count: nil, field: "country", message: "Please enter a valid phone number"))
            screen.fields.append(field)
        }
        do {
            let action = Action(label: "Send Code", key: nil, step: .call(ServiceCall(operation: .sendPhoneCode, outcomes: ["error": Outcome(go: nil, message: nil, back: false, field: nil), "invalid_input": Outcome(go: nil, message: nil, back: false, field: "phone"), "network": Outcome(go: nil, message: "Can't reach ABBY. Check your connection and try again.", back: false, field: nil), "success": Outcome(go: "code", message: nil, back: false, field: nil), "timeout": Outcome(go: nil, message: "Can't reach ABBY. Check your connection and try again.", back: false, field: nil)])), when: nil, location: SourceLocation(file: "abby.yaml", line: 129, column: 9))
            screen.actions.append(action)
        }
        do {
            var action = Action(label: "Back to Code Entry", key: nil, step: .go("code"), when: Guard(.equals, negated: false, key: "changing_number", value: "yes"), location: SourceLocation(file: "abby.yaml", line: 138, column: 9))
            action.validates = false
            screen.actions.append(action)
        }
        do {
            var action = Action(label: "Use Another Method", key: nil, step: .go("method"), when: nil, location: SourceLocation(file: "abby.yaml", line: 144, column: 9))
            action.validates = false
            screen.actions.append(action)
        }
        return screen
    }

    private static func abbyScreen3() -> Screen {
        var screen = Screen(id: "code", kind: .form, location: SourceLocation(file: "abby.yaml", line: 148, column: 5))
        screen.title = "Enter your code"
        screen.body = "We sent a 6-digit code to {phone_e164}. It expires in 5 minutes."
        screen.resumable = true
        screen.step = 2
        do {
            var field = Field(id: "sms_code", kind: .code, label: "Verification code", placeholder: "", maxLength: 6)
            field.rules.append(Rule(.digits, count: 6, field: nil, message: "Enter the 6-digit code we sent you."))
            field.submitsWhenFull = true
            screen.fields.append(field)
        }
        do {
            let action = Action(label: "Verify", key: nil, step: .call(ServiceCall(operation: .verifyPhoneCode, outcomes: ["error": Outcome(go: nil, message: nil, back: false, field: nil), "invalid_input": Outcome(go: nil, message: "That code is wrong or has expired. Check it, or resend a new one.", back: false, field: nil), "network": Outcome(go: nil, message: "Can't reach ABBY. Check your connection and try again.", back: false, field: nil), "not_found": Outcome(go: nil, message: "That code is wrong or has expired. Check it, or resend a new one.", back: false, field: nil), "rate_limited": Outcome(go: nil, message: "Too many attempts. Wait a few minutes, then resend a new code.", back: false, field: nil), "success": Outcome(go: "signed_in", message: nil, back: false, field: nil), "timeout": Outcome(go: nil, message: "Can't reach ABBY. Check your connection and try again.", back: false, field: nil)])), when: nil, location: SourceLocation(file: "abby.yaml", line: 164, column: 9))
            screen.actions.append(action)
        }
        do {
            var action = Action(label: "Resend Code", key: nil, step: .call(ServiceCall(operation: .sendPhoneCode, outcomes: ["error": Outcome(go: nil, message: nil, back: false, field: nil), "network": Outcome(go: nil, message: "Can't reach ABBY. Check your connection and try again.", back: false, field: nil), "success": Outcome(go: nil, message: "We sent a new code.", back: false, field: nil), "timeout": Outcome(go: nil, message: "Can't reach ABBY. Check your connection and try again.", back: false, field: nil)])), when: nil, location: SourceLocation(file: "abby.yaml", line: 176, column: 9))
            action.cooldown = 60
            screen.actions.append(action)
        }
        do {
            var action = Action(label: "Change Number", key: nil, step: .go("phone"), when: nil, location: SourceLocation(file: "abby.yaml", line: 185, column: 9))
            action.validates = false
            action.sets = ["changing_number": "yes"]
            screen.actions.append(action)
        }
        do {
            var action = Action(label: "Use Another Method", key: nil, step: .go("method"), when: nil, location: SourceLocation(file: "abby.yaml", line: 189, column: 9))
            action.validates = false
            screen.actions.append(action)
        }
        return screen
    }

    private static func abbyScreen4() -> Screen {
        var screen = Screen(id: "social_start", kind: .route, location: SourceLocation(file: "abby.yaml", line: 196, column: 5))
        screen.resumable = false
        screen.route = [Branch(when: Guard(.equals, negated: false, key: "device_approval", value: "here"), go: "social"), Branch(when: nil, go: "social_device")]
        return screen
    }

    private static func abbyScreen5() -> Screen {
        var screen = Screen(id: "social_device", kind: .info, location: SourceLocation(file: "abby.yaml", line: 203, column: 5))
        screen.title = "Sign in with {provider_name}"
        screen.body = "On your phone or computer, open\n{verification_uri}\nand enter the code:\n{user_code}\n\nThe code expires in {device_expires_at:left}.\n{browser_hint}"
        screen.allowsBack = true
        screen.resumable = false
        screen.qr = "verification_uri_complete"
        screen.step = 2
        screen.poll = Poll(call: ServiceCall(operation: .pollSocialDevice, outcomes: ["access_denied": Outcome(go: "method", message: nil, back: false, field: nil), "error": Outcome(go: nil, message: nil, back: false, field: nil), "expired_token": Outcome(go: nil, message: "This code has expired. Get a new code to try again.", back: false, field: nil), "success": Outcome(go: "signed_in", message: nil, back: false, field: nil)]), every: "poll_interval", until: "device_expires_at", withdraw: .withdrawSocialDevice)
        do {
            let action = Action(label: "Open Browser", key: nil, step: .call(ServiceCall(operation: .openBrowser, outcomes: ["error": Outcome(go: nil, message: nil, back: false, field: nil), "success": Outcome(go: nil, message: nil, back: false, field: nil)])), when: Guard(.equals, negated: false, key: "browser", value: "yes"), location: SourceLocation(file: "abby.yaml", line: 236, column: 9))
            screen.actions.append(action)
        }
        do {
            var action = Action(label: "Get a New Code", key: nil, step: .call(ServiceCall(operation: .startSocialDevice, outcomes: ["error": Outcome(go: nil, message: nil, back: false, field: nil), "network": Outcome(go: nil, message: "Can't reach ABBY. Check your connection and try again.", back: false, field: nil), "success": Outcome(go: "social_device", message: nil, back: false, field: nil), "timeout": Outcome(go: nil, message: "Can't reach ABBY. Check your connection and try again.", back: false, field: nil)])), when: Guard(.equals, negated: false, key: "error_code", value: "expired_token"), location: SourceLocation(file: "abby.yaml", line: 242, column: 9))
            action.sets = ["error_code": ""]
            screen.actions.append(action)
        }
        do {
            var action = Action(label: "Cancel", key: nil, step: .go("method"), when: nil, location: SourceLocation(file: "abby.yaml", line: 251, column: 9))
            action.validates = false
            action.sets = ["error_code": "", "provider": "", "provider_name": ""]
            screen.actions.append(action)
        }
        return screen
    }

    private static func abbyScreen6() -> Screen {
        var screen = Screen(id: "social", kind: .form, location: SourceLocation(file: "abby.yaml", line: 258, column: 5))
        screen.title = "Sign in with {provider_name}"
        screen.body = "ABBY would like your name and email address. This is the embedded mock's {provider_name} consent screen: nothing is sent to {provider_name}."
        screen.allowsBack = true
        screen.resumable = false
        screen.step = 2
        do {
            var field = Field(id: "social_account", kind: .email, label: "Account email", placeholder: "", maxLength: 254)
            field.rules.append(Rule(.required, count: nil, field: nil, message: "Enter the account to continue with."))
            field.rules.append(Rule(.email, count: nil, field: nil, message: "Please enter a valid email address."))
            screen.fields.append(field)
        }
        do {
            let action = Action(label: "Allow", key: nil, step: .call(ServiceCall(operation: .approveSocialDevice, outcomes: ["error": Outcome(go: nil, message: nil, back: false, field: nil), "expired_token": Outcome(go: "method", message: "That sign-in took too long and expired. Choose how to sign in again.", back: false, field: nil), "network": Outcome(go: nil, message: "Can't reach ABBY. Check your connection and try again.", back: false, field: nil), "success": Outcome(go: "signed_in", message: nil, back: false, field: nil), "timeout": Outcome(go: nil, message: "Can't reach ABBY. Check your connection and try again.", back: false, field: nil)])), when: nil, location: SourceLocation(file: "abby.yaml", line: 278, column: 9))
            screen.actions.append(action)
        }
        do {
            var action = Action(label: "Cancel", key: nil, step: .go("method"), when: nil, location: SourceLocation(file: "abby.yaml", line: 288, column: 9))
            action.validates = false
            action.sets = ["device_code": "", "provider": "", "provider_name": "", "social_account": ""]
            screen.actions.append(action)
        }
        return screen
    }

    private static func abbyScreen7() -> Screen {
        var screen = Screen(id: "signed_in", kind: .route, location: SourceLocation(file: "abby.yaml", line: 294, column: 5))
        screen.resumable = false
        screen.route = [Branch(when: Guard(.profileComplete, negated: false, key: nil, value: nil), go: "done"), Branch(when: Guard(.has, negated: true, key: "full_name", value: nil), go: "names"), Branch(when: Guard(.has, negated: true, key: "birth_date", value: nil), go: "age"), Branch(when: Guard(.has, negated: true, key: "gender", value: nil), go: "identity"), Branch(when: Guard(.has, negated: true, key: "ethnicity", value: nil), go: "background"), Branch(when: nil, go: "relationship")]
        return screen
    }

    private static func abbyScreen8() -> Screen {
        var screen = Screen(id: "names", kind: .form, location: SourceLocation(file: "abby.yaml", line: 311, column: 5))
        screen.title = "Your name"
        screen.body = "Your full legal name stays private. Your display name is what others see."
        screen.resumable = true
        screen.step = 3
        do {
            var field = Field(id: "full_name", kind: .text, label: "Full legal name (private)", placeholder: "", maxLength: 50)
            field.rules.append(Rule(.minLength, count: 2, field: nil, message: "Please enter your full legal name"))
            field.rules.append(Rule(.personName, count: nil, field: nil, message: "Please enter your full legal name"))
            screen.fields.append(field)
        }
        do {
            var field = Field(id: "display_name", kind: .text, label: "Display name (public)", placeholder: "", maxLength: 30)
            field.rules.append(Rule(.minLength, count: 2, field: nil, message: "Choose a display name (2-30 characters)"))
            field.rules.append(Rule(.alphanumeric, count: nil, field: nil, message: "Choose a display name (2-30 characters)"))
            screen.fields.append(field)
        }
        do {
            let action = Action(label: "Continue", key: nil, step: .call(ServiceCall(operation: .saveProfile, outcomes: ["error": Outcome(go: nil, message: nil, back: false, field: nil), "network": Outcome(go: nil, message: "Your answers are saved on this device, but ABBY can't be reached. Press Continue again to send them.", back: false, field: nil), "success": Outcome(go: "age", message: nil, back: false, field: nil), "timeout": Outcome(go: nil, message: "Your answers are saved on this device, but ABBY can't be reached. Press Continue again to send them.", back: false, field: nil)])), when: nil, location: SourceLocation(file: "abby.yaml", line: 338, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func abbyScreen9() -> Screen {
        var screen = Screen(id: "age", kind: .form, location: SourceLocation(file: "abby.yaml", line: 347, column: 5))
        screen.title = "Your age"
        screen.allowsBack = true
        screen.resumable = true
        screen.step = 4
        do {
            var field = Field(id: "birth_date", kind: .date, label: "Date of birth", placeholder: "", maxLength: 256)
            field.rules.append(Rule(.date, count: nil, field: nil, message: "Enter the date as YYYY-MM-DD."))
            field.rules.append(Rule(.minAge, count: 18, field: nil, message: "You must be 18+ to use ABBY"))
            field.rules.append(Rule(.maxAge, count: 99, field: nil, message: "Please check your date of birth: ABBY is for ages 18 to 99."))
            field.showsAge = true
            screen.fields.append(field)
        }
        do {
            var field = Field(id: "age_range", kind: .range, label: "Preferred age range", placeholder: "", maxLength: 256)
            field.rules.append(Rule(.minValue, count: 18, field: nil, message: "Minimum age must be at least 18"))
            field.rules.append(Rule(.ordered, count: nil, field: nil, message: "Maximum age cannot be less than minimum"))
            field.minimum = 18
            field.maximum = 99
            field.initial = "18-99"
            screen.fields.append(field)
        }
        do {
            let action = Action(label: "Continue", key: nil, step: .call(ServiceCall(operation: .saveProfile, outcomes: ["error": Outcome(go: nil, message: nil, back: false, field: nil), "network": Outcome(go: nil, message: "Your answers are saved on this device, but ABBY can't be reached. Press Continue again to send them.", back: false, field: nil), "success": Outcome(go: "identity", message: nil, back: false, field: nil), "timeout": Outcome(go: nil, message: "Your answers are saved on this device, but ABBY can't be reached. Press Continue again to send them.", back: false, field: nil)])), when: nil, location: SourceLocation(file: "abby.yaml", line: 379, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func abbyScreen10() -> Screen {
        var screen = Screen(id: "identity", kind: .form, location: SourceLocation(file: "abby.yaml", line: 387, column: 5))
        screen.title = "About you"
        screen.allowsBack = true
        screen.resumable = true
        screen.step = 5
        do {
            var field = Field(id: "gender", kind: .select, label: "Gender identity", placeholder: "", maxLength: 256)
            field.rules.append(Rule(.required, count: nil, field: nil, message: "Please choose how you identify."))
            field.options = ["Woman", "Man", "Non-binary", "Transgender woman", "Transgender man", "Genderqueer", "Genderfluid", "Agender", "Two-Spirit", "Questioning", "Another identity", "Prefer not to say"]
            screen.fields.append(field)
        }
        do {
            var field = Field(id: "seeking", kind: .multi, label: "Looking for", placeholder: "", maxLength: 256)
            field.rules.append(Rule(.minSelected, count: 1, field: nil, message: "Choose who you're looking for (one or more)."))
            field.options = ["Women", "Men", "Non-binary people", "Everyone"]
            field.exclusive = "Everyone"
            screen.fields.append(field)
        }
        do {
            let action = Action(label: "Continue", key: nil, step: .call(ServiceCall(operation: .saveProfile, outcomes: ["error": Outcome(go: nil, message: nil, back: false, field: nil), "network": Outcome(go: nil, message: "Your answers are saved on this device, but ABBY can't be reached. Press Continue again to send them.", back: false, field: nil), "success": Outcome(go: "background", message: nil, back: false, field: nil), "timeout": Outcome(go: nil, message: "Your answers are saved on this device, but ABBY can't be reached. Press Continue again to send them.", back: false, field: nil)])), when: nil, location: SourceLocation(file: "abby.yaml", line: 422, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func abbyScreen11() -> Screen {
        var screen = Screen(id: "background", kind: .form, location: SourceLocation(file: "abby.yaml", line: 430, column: 5))
        screen.title = "Your background"
        screen.allowsBack = true
        screen.resumable = true
        screen.step = 6
        do {
            var field = Field(id: "ethnicity", kind: .select, label: "Ethnicity", placeholder: "", maxLength: 256)
            field.rules.append(Rule(.required, count: nil, field: nil, message: "Please choose your ethnicity, or Prefer not to say."))
            field.options = ["Asian", "Black / African descent", "Hispanic / Latino", "Middle Eastern / North African", "Indigenous", "Pacific Islander", "White / European descent", "Multiracial", "Another ethnicity", "Prefer not to say"]
            screen.fields.append(field)
        }
        do {
            var field = Field(id: "ethnicity_prefs", kind: .multi, label: "Ethnicity preferences (optional)", placeholder: "", maxLength: 256)
            field.options = ["No preference", "Asian", "Black", "Hispanic / Latino", "Middle Eastern", "Indigenous", "Pacific Islander", "White", "Multiracial"]
            field.exclusive = "No preference"
            screen.fields.append(field)
        }
        do {
            let action = Action(label: "Continue", key: nil, step: .call(ServiceCall(operation: .saveProfile, outcomes: ["error": Outcome(go: nil, message: nil, back: false, field: nil), "network": Outcome(go: nil, message: "Your answers are saved on this device, but ABBY can't be reached. Press Continue again to send them.", back: false, field: nil), "success": Outcome(go: "relationship", message: nil, back: false, field: nil), "timeout": Outcome(go: nil, message: "Your answers are saved on this device, but ABBY can't be reached. Press Continue again to send them.", back: false, field: nil)])), when: nil, location: SourceLocation(file: "abby.yaml", line: 459, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func abbyScreen12() -> Screen {
        var screen = Screen(id: "relationship", kind: .form, location: SourceLocation(file: "abby.yaml", line: 467, column: 5))
        screen.title = "What you want"
        screen.allowsBack = true
        screen.resumable = true
        screen.step = 7
        do {
            var field = Field(id: "relationship_type", kind: .select, label: "Relationship type", placeholder: "", maxLength: 256)
            field.rules.append(Rule(.required, count: nil, field: nil, message: "Please choose serious, casual or unsure."))
            field.options = ["Serious", "Casual", "Unsure"]
            screen.fields.append(field)
        }
        do {
            var field = Field(id: "smoking", kind: .select, label: "Smoking", placeholder: "", maxLength: 256)
            field.rules.append(Rule(.required, count: nil, field: nil, message: "Please choose a smoking preference."))
            field.options = ["Never", "Sometimes", "Regularly", "No preference"]
            screen.fields.append(field)
        }
        do {
            let action = Action(label: "Finish", key: nil, step: .call(ServiceCall(operation: .finishProfile, outcomes: ["error": Outcome(go: nil, message: nil, back: false, field: nil), "network": Outcome(go: nil, message: "Your answers are saved on this device, but ABBY can't be reached. Press Continue again to send them.", back: false, field: nil), "success": Outcome(go: "done", message: nil, back: false, field: nil), "timeout": Outcome(go: nil, message: "Your answers are saved on this device, but ABBY can't be reached. Press Continue again to send them.", back: false, field: nil)])), when: nil, location: SourceLocation(file: "abby.yaml", line: 488, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func abbyScreen13() -> Screen {
        var screen = Screen(id: "done", kind: .info, location: SourceLocation(file: "abby.yaml", line: 496, column: 5))
        screen.title = "You're all set, {display_name|friend}"
        screen.body = "Your profile is complete and you stay signed in on this device. ABBY will meet you next."
        screen.resumable = true
        screen.completesOnboarding = true
        do {
            let action = Action(label: "Log Out", key: nil, step: .call(ServiceCall(operation: .logOut, outcomes: ["error": Outcome(go: nil, message: nil, back: false, field: nil), "success": Outcome(go: "consent", message: nil, back: false, field: nil)])), when: nil, location: SourceLocation(file: "abby.yaml", line: 502, column: 9))
            screen.actions.append(action)
        }
        do {
            let action = Action(label: "Quit", key: "q", step: .quit, when: nil, location: SourceLocation(file: "abby.yaml", line: 507, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func abbyScreen14() -> Screen {
        var screen = Screen(id: "returning", kind: .route, location: SourceLocation(file: "abby.yaml", line: 511, column: 5))
        screen.resumable = false
        screen.route = [Branch(when: Guard(.profileComplete, negated: false, key: nil, value: nil), go: "done"), Branch(when: nil, go: "checking_profile")]
        return screen
    }

    private static func abbyScreen15() -> Screen {
        var screen = Screen(id: "checking_profile", kind: .progress, location: SourceLocation(file: "abby.yaml", line: 518, column: 5))
        screen.title = "Loading your profile..."
        screen.resumable = false
        screen.call = ServiceCall(operation: .loadProfile, outcomes: ["error": Outcome(go: "profile_unreachable", message: nil, back: false, field: nil), "success": Outcome(go: "signed_in", message: nil, back: false, field: nil)])
        return screen
    }

    private static func abbyScreen16() -> Screen {
        var screen = Screen(id: "profile_unreachable", kind: .error, location: SourceLocation(file: "abby.yaml", line: 526, column: 5))
        screen.body = "Can't reach ABBY to load your profile. Check your connection and try again."
        screen.resumable = false
        do {
            let action = Action(label: "Try Again", key: nil, step: .retry, when: nil, location: SourceLocation(file: "abby.yaml", line: 530, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func rucktracker() -> Flow {
        var entry = Entry(firstLaunch: "starting", signedIn: "home", resume: true, signedOut: nil)
        entry.sessionRequired = true
        entry.sessionEnded = "session_ended"
        entry.keepsGuest = true
        entry.offlineGuest = "RuckTracker could not reach its service, so your guest account is on this device for now. Log rucks as usual; they sync when the service answers."
        let tokens = TokenSettings(accessLifetime: 86400, refreshLifetime: nil, renewBefore: 60)
        var analytics = AnalyticsNames(start: nil, complete: "onboarding_complete", error: nil, retry: nil, errorCodes: [:])
        analytics.consentKey = nil
        analytics.renewed = nil
        analytics.step = nil
        analytics.screens = "screen_viewed"
        analytics.breakdown = nil
        analytics.localID = false
        var flow = Flow(id: "rucktracker", title: "RuckTracker", summary: "permanent guest sessions, email to sync", entry: entry, tokens: tokens, analytics: analytics, screens: [rucktrackerScreen0(), rucktrackerScreen1(), rucktrackerScreen2(), rucktrackerScreen3(), rucktrackerScreen4(), rucktrackerScreen5(), rucktrackerScreen6(), rucktrackerScreen7(), rucktrackerScreen8(), rucktrackerScreen9(), rucktrackerScreen10(), rucktrackerScreen11(), rucktrackerScreen12(), rucktrackerScreen13(), rucktrackerScreen14()])
        flow.serviceURLKey = nil
        flow.stepCount = nil
        flow.secrets = []
        return flow
    }

    private static func rucktrackerScreen0() -> Screen {
        var screen = Screen(id: "starting", kind: .progress, location: SourceLocation(file: "rucktracker.yaml", line: 34, column: 5))
        screen.title = "Getting your tracker ready..."
        screen.resumable = false
        screen.call = ServiceCall(operation: .signInAnonymously, outcomes: ["error": Outcome(go: "start_failed", message: nil, back: false, field: nil), "success": Outcome(go: "home", message: nil, back: false, field: nil)])
        return screen
    }

    private static func rucktrackerScreen1() -> Screen {
        var screen = Screen(id: "start_failed", kind: .error, location: SourceLocation(file: "rucktracker.yaml", line: 42, column: 5))
        screen.body = "RuckTracker's service could not make your guest account just now. Try again in a moment."
        screen.resumable = false
        do {
            let action = Action(label: "Try Again", key: nil, step: .retry, when: nil, location: SourceLocation(file: "rucktracker.yaml", line: 46, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func rucktrackerScreen2() -> Screen {
        var screen = Screen(id: "home", kind: .info, location: SourceLocation(file: "rucktracker.yaml", line: 49, column: 5))
        screen.title = "Your rucks"
        screen.load = [.loadAccount]
        screen.resumable = true
        screen.completesOnboarding = true
        screen.items = "rucks"
        screen.empty = "No rucks yet. Log your first one."
        screen.newestFirst = true
        do {
            let action = Action(label: "Log a Ruck", key: "l", step: .go("log_ruck"), when: nil, location: SourceLocation(file: "rucktracker.yaml", line: 60, column: 9))
            screen.actions.append(action)
        }
        do {
            let action = Action(label: "Profile", key: "p", step: .branch([Branch(when: Guard(.isAnonymous, negated: false, key: nil, value: nil), go: "guest_profile"), Branch(when: nil, go: "account_profile")]), when: nil, location: SourceLocation(file: "rucktracker.yaml", line: 63, column: 9))
            screen.actions.append(action)
        }
        do {
            let action = Action(label: "Go Pro", key: "g", step: .go("pro_offer"), when: Guard(.hasPro, negated: true, key: nil, value: nil), location: SourceLocation(file: "rucktracker.yaml", line: 69, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func rucktrackerScreen3() -> Screen {
        var screen = Screen(id: "log_ruck", kind: .form, location: SourceLocation(file: "rucktracker.yaml", line: 74, column: 5))
        screen.title = "Log a ruck"
        screen.allowsBack = true
        screen.resumesAfterComplete = true
        screen.resumable = true
        do {
            var field = Field(id: "distance_km", kind: .text, label: "Distance (km)", placeholder: "e.g. 5.5", maxLength: 8)
            field.rules.append(Rule(.required, count: nil, field: nil, message: "Enter the distance in kilometres."))
            field.rules.append(Rule(.positiveNumber, count: nil, field: nil, message: "The distance must be a number above zero."))
            field.rules.append(Rule(.maxValue, count: 500, field: nil, message: "A ruck is at most 500 km."))
            screen.fields.append(field)
        }
        do {
            var field = Field(id: "duration_min", kind: .text, label: "Duration (minutes)", placeholder: "e.g. 60", maxLength: 5)
            field.rules.append(Rule(.required, count: nil, field: nil, message: "Enter how many minutes it took."))
            field.rules.append(Rule(.positiveNumber, count: nil, field: nil, message: "The duration must be a number above zero."))
            field.rules.append(Rule(.maxValue, count: 10080, field: nil, message: "A ruck is at most a week (10080 minutes)."))
            screen.fields.append(field)
        }
        do {
            let action = Action(label: "Save", key: nil, step: .call(ServiceCall(operation: .logRuck, outcomes: ["error": Outcome(go: nil, message: "The ruck could not be saved. Please try again.", back: false, field: nil), "network": Outcome(go: nil, message: "You're offline, so the ruck was not saved. Try again when you're connected.", back: false, field: nil), "success": Outcome(go: "home", message: nil, back: false, field: nil)])), when: nil, location: SourceLocation(file: "rucktracker.yaml", line: 106, column: 9))
            screen.actions.append(action)
        }
        do {
            var action = Action(label: "Cancel", key: nil, step: .back, when: nil, location: SourceLocation(file: "rucktracker.yaml", line: 114, column: 9))
            action.sets = ["distance_km": "", "duration_min": ""]
            screen.actions.append(action)
        }
        return screen
    }

    private static func rucktrackerScreen4() -> Screen {
        var screen = Screen(id: "guest_profile", kind: .info, location: SourceLocation(file: "rucktracker.yaml", line: 119, column: 5))
        screen.title = "Guest User"
        screen.body = "Account Status: {account_status|Guest}\nEmail: Not Set\nUsername: {username|Set Username}"
        screen.bullets = ["Your data is saved on this device. Add an email to sync."]
        screen.allowsBack = true
        screen.resumable = true
        do {
            let action = Action(label: "Add Email to Sync", key: "a", step: .go("add_email"), when: nil, location: SourceLocation(file: "rucktracker.yaml", line: 127, column: 9))
            screen.actions.append(action)
        }
        do {
            let action = Action(label: "Set Username", key: "u", step: .go("set_username"), when: nil, location: SourceLocation(file: "rucktracker.yaml", line: 130, column: 9))
            screen.actions.append(action)
        }
        do {
            let action = Action(label: "Log In", key: nil, step: .go("log_in"), when: nil, location: SourceLocation(file: "rucktracker.yaml", line: 133, column: 9))
            screen.actions.append(action)
        }
        do {
            let action = Action(label: "Back", key: nil, step: .back, when: nil, location: SourceLocation(file: "rucktracker.yaml", line: 135, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func rucktrackerScreen5() -> Screen {
        var screen = Screen(id: "add_email", kind: .form, location: SourceLocation(file: "rucktracker.yaml", line: 138, column: 5))
        screen.title = "Add Email to Sync"
        screen.body = "Add an email and password to secure your account and sync your data across all devices."
        screen.bullets = ["Sync data across devices", "Secure your account", "Never lose your progress", "Keep all your data"]
        screen.allowsBack = true
        screen.resumesAfterComplete = true
        screen.resumable = true
        do {
            var field = Field(id: "email", kind: .email, label: "Email", placeholder: "", maxLength: 254)
            field.rules.append(Rule(.required, count: nil, field: nil, message: "Please enter your email address."))
            field.rules.append(Rule(.email, count: nil, field: nil, message: "Please enter a valid email address."))
            screen.fields.append(field)
        }
        do {
            var field = Field(id: "password", kind: .password, label: "Password", placeholder: "", maxLength: 72)
            field.rules.append(Rule(.minLength, count: 8, field: nil, message: "Password must be at least 8 characters."))
            field.rules.append(Rule(.notCommon, count: nil, field: nil, message: "This password is one of the most common, so it would be guessed first. Please choose another."))
            screen.fields.append(field)
        }
        do {
            var field = Field(id: "confirm_password", kind: .password, label: "Confirm", placeholder: "", maxLength: 72)
            field.rules.append(Rule(.matches, count: nil, field: "password", message: "Passwords do not match."))
            screen.fields.append(field)
        }
        do {
            let action = Action(label: "Secure My Account", key: nil, step: .call(ServiceCall(operation: .linkEmail, outcomes: ["conflict": Outcome(go: nil, message: "That email already belongs to another account. Use another email; your guest data is safe.", back: false, field: nil), "error": Outcome(go: nil, message: "Your email could not be added. Your data is safe; please try again.", back: false, field: nil), "network": Outcome(go: nil, message: "You're offline. Your data is safe on this device; add your email when you're connected.", back: false, field: nil), "success": Outcome(go: "linked", message: nil, back: false, field: nil)])), when: nil, location: SourceLocation(file: "rucktracker.yaml", line: 180, column: 9))
            screen.actions.append(action)
        }
        do {
            let action = Action(label: "Maybe Later", key: nil, step: .back, when: nil, location: SourceLocation(file: "rucktracker.yaml", line: 190, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func rucktrackerScreen6() -> Screen {
        var screen = Screen(id: "linked", kind: .info, location: SourceLocation(file: "rucktracker.yaml", line: 193, column: 5))
        screen.title = "Your account is secured"
        screen.body = "Signed in as {email}. Your rucks are kept and synced."
        screen.resumable = true
        do {
            let action = Action(label: "Done", key: nil, step: .go("home"), when: nil, location: SourceLocation(file: "rucktracker.yaml", line: 198, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func rucktrackerScreen7() -> Screen {
        var screen = Screen(id: "set_username", kind: .form, location: SourceLocation(file: "rucktracker.yaml", line: 201, column: 5))
        screen.title = "Set Username"
        screen.body = "2 to 30 letters, digits or spaces."
        screen.allowsBack = true
        screen.resumesAfterComplete = true
        screen.resumable = true
        do {
            var field = Field(id: "username", kind: .text, label: "Username", placeholder: "", maxLength: 30)
            field.rules.append(Rule(.required, count: nil, field: nil, message: "A username needs 2 to 30 characters."))
            field.rules.append(Rule(.minLength, count: 2, field: nil, message: "A username needs 2 to 30 characters."))
            field.rules.append(Rule(.alphanumeric, count: nil, field: nil, message: "A username can hold letters, digits and spaces only."))
            screen.fields.append(field)
        }
        do {
            let action = Action(label: "Save", key: nil, step: .call(ServiceCall(operation: .setUsername, outcomes: ["conflict": Outcome(go: nil, message: "That username is taken. Please choose another.", back: false, field: nil), "error": Outcome(go: nil, message: "The username could not be saved. Please try again.", back: false, field: nil), "invalid_input": Outcome(go: nil, message: "A username is 2 to 30 letters, digits or spaces.", back: false, field: nil), "success": Outcome(go: nil, message: "Username saved.", back: true, field: nil)])), when: nil, location: SourceLocation(file: "rucktracker.yaml", line: 221, column: 9))
            screen.actions.append(action)
        }
        do {
            let action = Action(label: "Cancel", key: nil, step: .back, when: nil, location: SourceLocation(file: "rucktracker.yaml", line: 233, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func rucktrackerScreen8() -> Screen {
        var screen = Screen(id: "log_in", kind: .form, location: SourceLocation(file: "rucktracker.yaml", line: 236, column: 5))
        screen.title = "Log In"
        screen.body = "Log in to an account that already has an email. Pro, if you bought it, comes with you. Rucks logged as this guest stay with the guest account unless you bring them."
        screen.allowsBack = true
        screen.resumesAfterComplete = true
        screen.resumable = true
        do {
            var field = Field(id: "email", kind: .email, label: "Email", placeholder: "", maxLength: 254)
            field.rules.append(Rule(.required, count: nil, field: nil, message: "Please enter your email address."))
            field.rules.append(Rule(.email, count: nil, field: nil, message: "Please enter a valid email address."))
            screen.fields.append(field)
        }
        do {
            var field = Field(id: "password", kind: .password, label: "Password", placeholder: "", maxLength: 72)
            field.rules.append(Rule(.required, count: nil, field: nil, message: "Please enter your password."))
            screen.fields.append(field)
        }
        do {
            var action = Action(label: "Log In", key: nil, step: .call(ServiceCall(operation: .logIn, outcomes: ["error": Outcome(go: nil, message: "Could not log in. Check your connection and try again.", back: false, field: nil), "rate_limited": Outcome(go: nil, message: "Too many attempts. Please wait a few minutes and try again.", back: false, field: nil), "success": Outcome(go: "home", message: nil, back: false, field: nil), "unauthorized": Outcome(go: nil, message: "Invalid email or password.", back: false, field: nil)])), when: nil, location: SourceLocation(file: "rucktracker.yaml", line: 260, column: 9))
            action.sets = ["bring_rucks": "no"]
            screen.actions.append(action)
        }
        do {
            var action = Action(label: "Log In and Bring My Rucks", key: nil, step: .call(ServiceCall(operation: .logIn, outcomes: ["error": Outcome(go: nil, message: "Could not log in. Check your connection and try again.", back: false, field: nil), "rate_limited": Outcome(go: nil, message: "Too many attempts. Please wait a few minutes and try again.", back: false, field: nil), "success": Outcome(go: "home", message: nil, back: false, field: nil), "unauthorized": Outcome(go: nil, message: "Invalid email or password.", back: false, field: nil)])), when: Guard(.has, negated: false, key: "rucks", value: nil), location: SourceLocation(file: "rucktracker.yaml", line: 273, column: 9))
            action.sets = ["bring_rucks": "yes"]
            screen.actions.append(action)
        }
        do {
            let action = Action(label: "Cancel", key: nil, step: .back, when: nil, location: SourceLocation(file: "rucktracker.yaml", line: 285, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func rucktrackerScreen9() -> Screen {
        var screen = Screen(id: "account_profile", kind: .info, location: SourceLocation(file: "rucktracker.yaml", line: 288, column: 5))
        screen.title = "Signed In"
        screen.body = "Account Status: {account_status}\nEmail: {email}\nUsername: {username|Set Username}"
        screen.allowsBack = true
        screen.resumable = true
        do {
            let action = Action(label: "Sign Out", key: nil, step: .go("confirm_sign_out"), when: nil, location: SourceLocation(file: "rucktracker.yaml", line: 294, column: 9))
            screen.actions.append(action)
        }
        do {
            let action = Action(label: "Back", key: nil, step: .back, when: nil, location: SourceLocation(file: "rucktracker.yaml", line: 296, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func rucktrackerScreen10() -> Screen {
        var screen = Screen(id: "confirm_sign_out", kind: .info, location: SourceLocation(file: "rucktracker.yaml", line: 299, column: 5))
        screen.title = "Sign out?"
        screen.body = "Signing out will create a new guest account. Your rucks stay with {email}: log in again to see them."
        screen.allowsBack = true
        screen.resumable = true
        do {
            let action = Action(label: "Cancel", key: nil, step: .back, when: nil, location: SourceLocation(file: "rucktracker.yaml", line: 305, column: 9))
            screen.actions.append(action)
        }
        do {
            let action = Action(label: "Sign Out", key: nil, step: .call(ServiceCall(operation: .signOut, outcomes: ["error": Outcome(go: nil, message: "Could not sign out. Nothing has changed; please try again.", back: false, field: nil), "network": Outcome(go: nil, message: "You're offline. Signing out needs a connection to make your new guest account, so nothing has changed.", back: false, field: nil), "success": Outcome(go: "home", message: "Signed out. You're now using a new guest account.", back: false, field: nil)])), when: nil, location: SourceLocation(file: "rucktracker.yaml", line: 307, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func rucktrackerScreen11() -> Screen {
        var screen = Screen(id: "pro_offer", kind: .info, location: SourceLocation(file: "rucktracker.yaml", line: 318, column: 5))
        screen.title = "RuckTracker Pro"
        screen.bullets = ["Training programs and pacing", "Unlimited ruck history", "Support the app"]
        screen.allowsBack = true
        screen.resumable = true
        do {
            let action = Action(label: "Buy Pro (simulated)", key: nil, step: .call(ServiceCall(operation: .purchasePro, outcomes: ["error": Outcome(go: nil, message: "The purchase did not go through. You were not charged; please try again.", back: false, field: nil), "success": Outcome(go: "post_purchase_guest", message: nil, back: false, field: nil)])), when: Guard(.isAnonymous, negated: false, key: nil, value: nil), location: SourceLocation(file: "rucktracker.yaml", line: 327, column: 9))
            screen.actions.append(action)
        }
        do {
            let action = Action(label: "Buy Pro (simulated)", key: nil, step: .call(ServiceCall(operation: .purchasePro, outcomes: ["error": Outcome(go: nil, message: "The purchase did not go through. You were not charged; please try again.", back: false, field: nil), "success": Outcome(go: "post_purchase_member", message: nil, back: false, field: nil)])), when: Guard(.isSignedIn, negated: false, key: nil, value: nil), location: SourceLocation(file: "rucktracker.yaml", line: 334, column: 9))
            screen.actions.append(action)
        }
        do {
            let action = Action(label: "Not Now", key: nil, step: .back, when: nil, location: SourceLocation(file: "rucktracker.yaml", line: 341, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func rucktrackerScreen12() -> Screen {
        var screen = Screen(id: "post_purchase_guest", kind: .info, location: SourceLocation(file: "rucktracker.yaml", line: 344, column: 5))
        screen.title = "Welcome to Pro!"
        screen.body = "Secure Your Subscription\n\nAdd an email to secure your premium subscription: with an email, Pro follows you to every device and survives a lost phone."
        screen.resumesAfterComplete = true
        screen.resumable = true
        do {
            let action = Action(label: "Add Email to Sync", key: nil, step: .go("add_email"), when: nil, location: SourceLocation(file: "rucktracker.yaml", line: 351, column: 9))
            screen.actions.append(action)
        }
        do {
            let action = Action(label: "Skip", key: nil, step: .go("home"), when: nil, location: SourceLocation(file: "rucktracker.yaml", line: 353, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func rucktrackerScreen13() -> Screen {
        var screen = Screen(id: "post_purchase_member", kind: .info, location: SourceLocation(file: "rucktracker.yaml", line: 356, column: 5))
        screen.title = "Welcome to Pro!"
        screen.body = "Pro is on your account, so every device you sign in on has it, and your rucks are backed up."
        screen.resumable = true
        do {
            let action = Action(label: "Done", key: nil, step: .go("home"), when: nil, location: SourceLocation(file: "rucktracker.yaml", line: 361, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func rucktrackerScreen14() -> Screen {
        var screen = Screen(id: "session_ended", kind: .form, location: SourceLocation(file: "rucktracker.yaml", line: 364, column: 5))
        screen.title = "Log in again"
        screen.body = "Your session as {email|your account} has ended. Log in again to get your rucks back, or start over as a new guest."
        screen.resumable = true
        do {
            var field = Field(id: "email", kind: .email, label: "Email", placeholder: "", maxLength: 254)
            field.rules.append(Rule(.required, count: nil, field: nil, message: "Please enter your email address."))
            field.rules.append(Rule(.email, count: nil, field: nil, message: "Please enter a valid email address."))
            screen.fields.append(field)
        }
        do {
            var field = Field(id: "password", kind: .password, label: "Password", placeholder: "", maxLength: 72)
            field.rules.append(Rule(.required, count: nil, field: nil, message: "Please enter your password."))
            screen.fields.append(field)
        }
        do {
            let action = Action(label: "Log In", key: nil, step: .call(ServiceCall(operation: .logIn, outcomes: ["error": Outcome(go: nil, message: "Could not log in. Check your connection and try again.", back: false, field: nil), "rate_limited": Outcome(go: nil, message: "Too many attempts. Please wait a few minutes and try again.", back: false, field: nil), "success": Outcome(go: "home", message: nil, back: false, field: nil), "unauthorized": Outcome(go: nil, message: "Invalid email or password.", back: false, field: nil)])), when: nil, location: SourceLocation(file: "rucktracker.yaml", line: 370, column: 9))
            screen.actions.append(action)
        }
        do {
            var action = Action(label: "Continue as Guest", key: nil, step: .go("starting"), when: nil, location: SourceLocation(file: "rucktracker.yaml", line: 380, column: 9))
            action.validates = false
            screen.actions.append(action)
        }
        return screen
    }

    private static func miga() -> Flow {
        var entry = Entry(firstLaunch: "welcome", signedIn: "hub", resume: true, signedOut: nil)
        entry.sessionRequired = false
        entry.sessionEnded = nil
        entry.keepsGuest = false
        entry.offlineGuest = nil
        let tokens = TokenSettings(accessLifetime: 86400, refreshLifetime: nil, renewBefore: 60)
        var analytics = AnalyticsNames(start: "onboarding_started", complete: "hub_unlocked", error: "setup_error", retry: nil, errorCodes: [:])
        analytics.consentKey = nil
        analytics.renewed = nil
        analytics.step = nil
        analytics.screens = "screen_viewed"
        analytics.breakdown = "onboarding_flow_version"
        analytics.localID = true
        var flow = Flow(id: "miga", title: "MIGA", summary: "12 mindful steps, setup, app hiding, the hub", entry: entry, tokens: tokens, analytics: analytics, screens: [migaScreen0(), migaScreen1(), migaScreen2(), migaScreen3(), migaScreen4(), migaScreen5(), migaScreen6(), migaScreen7(), migaScreen8(), migaScreen9(), migaScreen10(), migaScreen11(), migaScreen12(), migaScreen13(), migaScreen14(), migaScreen15(), migaScreen16(), migaScreen17(), migaScreen18(), migaScreen19(), migaScreen20(), migaScreen21()])
        flow.serviceURLKey = nil
        flow.stepCount = 12
        flow.secrets = []
        return flow
    }

    private static func migaScreen0() -> Screen {
        var screen = Screen(id: "welcome", kind: .info, location: SourceLocation(file: "miga.yaml", line: 28, column: 5))
        screen.title = "The Intentional Life Starts Now"
        screen.logo = ["  .  *  .  ", " *  MIGA  * ", "  .  *  .  "]
        screen.body = "MIGA puts a mindful pause between you and your social apps, so every scroll is a choice you make on purpose."
        screen.resumable = true
        screen.track = ["step_welcome"]
        screen.step = 1
        do {
            let action = Action(label: "Begin My Journey", key: nil, step: .go("mission"), when: nil, location: SourceLocation(file: "miga.yaml", line: 41, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func migaScreen1() -> Screen {
        var screen = Screen(id: "mission", kind: .info, location: SourceLocation(file: "miga.yaml", line: 44, column: 5))
        screen.title = "Our mission"
        screen.body = "Technology should serve your life, not consume it. MIGA is a gateway: your social apps open through it, with a moment to decide first."
        screen.allowsBack = true
        screen.resumable = true
        screen.track = ["step_mission"]
        screen.step = 2
        do {
            let action = Action(label: "Continue", key: nil, step: .go("time_wasted"), when: nil, location: SourceLocation(file: "miga.yaml", line: 54, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func migaScreen2() -> Screen {
        var screen = Screen(id: "time_wasted", kind: .info, location: SourceLocation(file: "miga.yaml", line: 57, column: 5))
        screen.title = "Where the time goes"
        screen.body = "Most of us pick up our phones dozens of times a day, often without deciding to. Minutes of autopilot scrolling add up to hours we never chose to spend."
        screen.bullets = ["Opened out of habit, closed without remembering why.", "Two hours a day is more than 700 hours a year."]
        screen.allowsBack = true
        screen.resumable = true
        screen.track = ["step_time_wasted"]
        screen.step = 3
        do {
            let action = Action(label: "Continue", key: nil, step: .go("time_saved"), when: nil, location: SourceLocation(file: "miga.yaml", line: 70, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func migaScreen3() -> Screen {
        var screen = Screen(id: "time_saved", kind: .info, location: SourceLocation(file: "miga.yaml", line: 73, column: 5))
        screen.title = "What a pause gives back"
        screen.body = "Take back just 30 minutes a day and you gain over 180 hours a year: more than a week of waking life for people, rest and the things you care about."
        screen.allowsBack = true
        screen.resumable = true
        screen.track = ["step_time_saved"]
        screen.step = 4
        do {
            let action = Action(label: "Continue", key: nil, step: .go("goal"), when: nil, location: SourceLocation(file: "miga.yaml", line: 83, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func migaScreen4() -> Screen {
        var screen = Screen(id: "goal", kind: .info, location: SourceLocation(file: "miga.yaml", line: 86, column: 5))
        screen.title = "Your goal"
        screen.body = "Not to quit social media, but to choose it. Open an app when you mean to, for as long as you mean to, and close it feeling fine."
        screen.allowsBack = true
        screen.resumable = true
        screen.track = ["step_goal"]
        screen.step = 5
        do {
            let action = Action(label: "Continue", key: nil, step: .go("credibility"), when: nil, location: SourceLocation(file: "miga.yaml", line: 96, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func migaScreen5() -> Screen {
        var screen = Screen(id: "credibility", kind: .info, location: SourceLocation(file: "miga.yaml", line: 99, column: 5))
        screen.title = "Why a pause works"
        screen.body = "Habits run on cue, routine and reward. A short, deliberate pause between the cue and the routine is where a habit can change: behavioural science calls it breaking the loop. MIGA makes that pause part of opening an app."
        screen.allowsBack = true
        screen.resumable = true
        screen.track = ["step_credibility"]
        screen.step = 6
        do {
            let action = Action(label: "Continue", key: nil, step: .go("trial"), when: nil, location: SourceLocation(file: "miga.yaml", line: 110, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func migaScreen6() -> Screen {
        var screen = Screen(id: "trial", kind: .info, location: SourceLocation(file: "miga.yaml", line: 113, column: 5))
        screen.title = "Try it free, without risk"
        screen.body = "Your first 7 days are free. Cancel any time before the trial ends and you pay nothing; we remind you a day before it does."
        screen.allowsBack = true
        screen.resumable = true
        screen.track = ["step_trial"]
        screen.step = 7
        do {
            let action = Action(label: "Continue", key: nil, step: .go("determination"), when: nil, location: SourceLocation(file: "miga.yaml", line: 123, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func migaScreen7() -> Screen {
        var screen = Screen(id: "determination", kind: .form, location: SourceLocation(file: "miga.yaml", line: 126, column: 5))
        screen.title = "How ready are you?"
        screen.body = "1 means just curious, 10 means ready to change today. There is no wrong answer."
        screen.allowsBack = true
        screen.resumable = true
        screen.track = ["step_determination"]
        screen.step = 8
        do {
            var field = Field(id: "readiness", kind: .slider, label: "Readiness", placeholder: "", maxLength: 256)
            field.rules.append(Rule(.minValue, count: 1, field: nil, message: "Choose a number from 1 to 10."))
            field.minimum = 1
            field.maximum = 10
            field.initial = "5"
            screen.fields.append(field)
        }
        do {
            let action = Action(label: "Continue", key: nil, step: .go("interests"), when: nil, location: SourceLocation(file: "miga.yaml", line: 145, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func migaScreen8() -> Screen {
        var screen = Screen(id: "interests", kind: .form, location: SourceLocation(file: "miga.yaml", line: 148, column: 5))
        screen.title = "What would you like to see?"
        screen.body = "Your mindful moments will draw on these topics."
        screen.allowsBack = true
        screen.resumable = true
        screen.track = ["step_interests"]
        screen.step = 9
        do {
            var field = Field(id: "interests", kind: .multi, label: "Topics", placeholder: "", maxLength: 256)
            field.rules.append(Rule(.minSelected, count: 1, field: nil, message: "Pick at least one topic."))
            field.options = ["Breathing", "Focus", "Sleep", "Gratitude", "Self-compassion", "Movement", "Nature", "Relationships"]
            screen.fields.append(field)
        }
        do {
            let action = Action(label: "Continue", key: nil, step: .go("journey"), when: nil, location: SourceLocation(file: "miga.yaml", line: 165, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func migaScreen9() -> Screen {
        var screen = Screen(id: "journey", kind: .info, location: SourceLocation(file: "miga.yaml", line: 168, column: 5))
        screen.title = "Your journey"
        screen.bullets = ["MIGA prepares itself on this device.", "You choose the apps you want a pause before.", "You hide them behind Face ID or your passcode, so MIGA becomes the way in.", "Each time you open one, you take a mindful moment first."]
        screen.allowsBack = true
        screen.resumable = true
        screen.track = ["step_journey"]
        screen.step = 10
        do {
            let action = Action(label: "Continue", key: nil, step: .go("confirm"), when: nil, location: SourceLocation(file: "miga.yaml", line: 180, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func migaScreen10() -> Screen {
        var screen = Screen(id: "confirm", kind: .info, location: SourceLocation(file: "miga.yaml", line: 183, column: 5))
        screen.title = "Ready to begin?"
        screen.body = "Readiness {readiness} of 10. Topics: {interests}. These stay on this device."
        screen.allowsBack = true
        screen.resumable = true
        screen.track = ["step_confirm"]
        screen.step = 11
        do {
            let action = Action(label: "Yes, Set Up MIGA", key: nil, step: .go("completion"), when: nil, location: SourceLocation(file: "miga.yaml", line: 191, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func migaScreen11() -> Screen {
        var screen = Screen(id: "completion", kind: .info, location: SourceLocation(file: "miga.yaml", line: 194, column: 5))
        screen.title = "Onboarding complete"
        screen.body = "Next, MIGA sets itself up on this device. It takes a few seconds."
        screen.resumable = true
        screen.track = ["step_completion"]
        screen.step = 12
        do {
            let action = Action(label: "Start Setup", key: nil, step: .go("setup"), when: nil, location: SourceLocation(file: "miga.yaml", line: 201, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func migaScreen12() -> Screen {
        var screen = Screen(id: "setup", kind: .checklist, location: SourceLocation(file: "miga.yaml", line: 204, column: 5))
        screen.title = "Setting up MIGA"
        screen.resumable = false
        screen.report = "setup_completed"
        screen.finishedNote = "Everything is ready."
        screen.fallbackNote = "MIGA could not use its service just now, so it runs in local-only mode: everything works on this device, and content syncs when it can."
        screen.tasks.append(ChecklistTask(label: "Local store", operation: .prepareStore, retries: 0, fallback: nil))
        screen.tasks.append(ChecklistTask(label: "Anonymous sign-in", operation: .signInAnonymously, retries: 2, fallback: "local-only mode"))
        screen.tasks.append(ChecklistTask(label: "Remote config", operation: .fetchConfig, retries: 0, fallback: nil))
        screen.tasks.append(ChecklistTask(label: "Content preload", operation: .preloadContent, retries: 0, fallback: nil))
        screen.tasks.append(ChecklistTask(label: "Compatibility check", operation: .checkCompatibility, retries: 0, fallback: nil))
        do {
            let action = Action(label: "Continue", key: nil, step: .go("choosing_apps"), when: nil, location: SourceLocation(file: "miga.yaml", line: 228, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func migaScreen13() -> Screen {
        var screen = Screen(id: "apps", kind: .form, location: SourceLocation(file: "miga.yaml", line: 231, column: 5))
        screen.title = "Choose your apps"
        screen.body = "Which apps do you want a mindful pause before? Only apps MIGA can open for you are listed."
        screen.resumable = true
        do {
            var field = Field(id: "apps", kind: .multi, label: "Apps", placeholder: "", maxLength: 256)
            field.rules.append(Rule(.minSelected, count: 1, field: nil, message: "Choose at least one app to put behind a mindful pause."))
            field.optionsFrom = "supported_apps"
            screen.fields.append(field)
        }
        do {
            let action = Action(label: "Continue", key: nil, step: .go("hiding"), when: nil, location: SourceLocation(file: "miga.yaml", line: 245, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func migaScreen14() -> Screen {
        var screen = Screen(id: "hiding", kind: .route, location: SourceLocation(file: "miga.yaml", line: 248, column: 5))
        screen.resumable = false
        screen.route = [Branch(when: Guard(.equals, negated: false, key: "biometrics", value: "face_id"), go: "hide_face_id"), Branch(when: Guard(.equals, negated: false, key: "biometrics", value: "touch_id"), go: "hide_touch_id"), Branch(when: Guard(.equals, negated: false, key: "biometrics", value: "passcode"), go: "hide_passcode"), Branch(when: nil, go: "hide_none")]
        return screen
    }

    private static func migaScreen15() -> Screen {
        var screen = Screen(id: "hide_face_id", kind: .info, location: SourceLocation(file: "miga.yaml", line: 259, column: 5))
        screen.title = "Hide your apps behind Face ID"
        screen.body = "For each of: {apps}"
        screen.bullets = ["1. On your Home Screen, touch and hold the app's icon.", "2. Tap Require Face ID.", "3. Tap Hide and Require Face ID, then confirm. The app moves to the Hidden folder.", "4. Come back to MIGA and press I've Done It."]
        screen.allowsBack = true
        screen.resumable = true
        do {
            let action = Action(label: "I've Done It", key: nil, step: .call(ServiceCall(operation: .validateHiding, outcomes: ["error": Outcome(go: nil, message: "Not hidden yet: repeat steps 1-3 for each app (the menu item is Hide and Require …), then press I've Done It again. Your choices are kept.", back: false, field: nil), "success": Outcome(go: "hub", message: nil, back: false, field: nil)])), when: nil, location: SourceLocation(file: "miga.yaml", line: 270, column: 9))
            screen.actions.append(action)
        }
        do {
            let action = Action(label: "Change Apps", key: nil, step: .go("apps"), when: nil, location: SourceLocation(file: "miga.yaml", line: 276, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func migaScreen16() -> Screen {
        var screen = Screen(id: "hide_touch_id", kind: .info, location: SourceLocation(file: "miga.yaml", line: 279, column: 5))
        screen.title = "Hide your apps behind Touch ID"
        screen.body = "For each of: {apps}"
        screen.bullets = ["1. On your Home Screen, touch and hold the app's icon.", "2. Tap Require Touch ID.", "3. Tap Hide and Require Touch ID, then confirm. The app moves to the Hidden folder.", "4. Come back to MIGA and press I've Done It."]
        screen.allowsBack = true
        screen.resumable = true
        do {
            let action = Action(label: "I've Done It", key: nil, step: .call(ServiceCall(operation: .validateHiding, outcomes: ["error": Outcome(go: nil, message: "Not hidden yet: repeat steps 1-3 for each app (the menu item is Hide and Require …), then press I've Done It again. Your choices are kept.", back: false, field: nil), "success": Outcome(go: "hub", message: nil, back: false, field: nil)])), when: nil, location: SourceLocation(file: "miga.yaml", line: 270, column: 9))
            screen.actions.append(action)
        }
        do {
            let action = Action(label: "Change Apps", key: nil, step: .go("apps"), when: nil, location: SourceLocation(file: "miga.yaml", line: 276, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func migaScreen17() -> Screen {
        var screen = Screen(id: "hide_passcode", kind: .info, location: SourceLocation(file: "miga.yaml", line: 291, column: 5))
        screen.title = "Hide your apps behind your passcode"
        screen.body = "For each of: {apps}"
        screen.bullets = ["1. On your Home Screen, touch and hold the app's icon.", "2. Tap Require Passcode.", "3. Tap Hide and Require Passcode, then confirm. The app moves to the Hidden folder.", "4. Come back to MIGA and press I've Done It."]
        screen.allowsBack = true
        screen.resumable = true
        do {
            let action = Action(label: "I've Done It", key: nil, step: .call(ServiceCall(operation: .validateHiding, outcomes: ["error": Outcome(go: nil, message: "Not hidden yet: repeat steps 1-3 for each app (the menu item is Hide and Require …), then press I've Done It again. Your choices are kept.", back: false, field: nil), "success": Outcome(go: "hub", message: nil, back: false, field: nil)])), when: nil, location: SourceLocation(file: "miga.yaml", line: 270, column: 9))
            screen.actions.append(action)
        }
        do {
            let action = Action(label: "Change Apps", key: nil, step: .go("apps"), when: nil, location: SourceLocation(file: "miga.yaml", line: 276, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func migaScreen18() -> Screen {
        var screen = Screen(id: "hide_none", kind: .info, location: SourceLocation(file: "miga.yaml", line: 303, column: 5))
        screen.title = "Another way to add a pause"
        screen.body = "This device has no passcode, so apps cannot be hidden behind one. You can still put MIGA first, for each of: {apps}"
        screen.bullets = ["1. Touch and hold the app's icon, tap Remove App, then Remove from Home Screen (it stays in the App Library).", "2. Put MIGA where the app used to be.", "3. Open the app from MIGA's hub, with a mindful moment first.", "4. Later, set a passcode in Settings > Face ID & Passcode to hide apps fully."]
        screen.allowsBack = true
        screen.resumable = true
        do {
            let action = Action(label: "Continue to the Hub", key: nil, step: .go("hub"), when: nil, location: SourceLocation(file: "miga.yaml", line: 316, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func migaScreen19() -> Screen {
        var screen = Screen(id: "hub", kind: .info, location: SourceLocation(file: "miga.yaml", line: 319, column: 5))
        screen.title = "Day {streak_day|1} of your mindful streak"
        screen.body = "{banner|Before you open an app, take one slow breath.}"
        screen.load = [.openHub]
        screen.resumable = true
        screen.completesOnboarding = true
        screen.items = "hub_summary"
        do {
            let action = Action(label: "Quit", key: "q", step: .quit, when: nil, location: SourceLocation(file: "miga.yaml", line: 328, column: 9))
            screen.actions.append(action)
        }
        return screen
    }

    private static func migaScreen20() -> Screen {
        var screen = Screen(id: "choosing_apps", kind: .route, location: SourceLocation(file: "miga.yaml", line: 334, column: 5))
        screen.resumable = false
        screen.route = [Branch(when: Guard(.has, negated: false, key: "supported_apps", value: nil), go: "apps"), Branch(when: nil, go: "no_supported_apps")]
        return screen
    }

    private static func migaScreen21() -> Screen {
        var screen = Screen(id: "no_supported_apps", kind: .info, location: SourceLocation(file: "miga.yaml", line: 341, column: 5))
        screen.title = "No app can be paused here yet"
        screen.body = "MIGA cannot open any of your social apps on this device, so none can be put behind a mindful pause for now. MIGA still works: its daily reflections and streak are yours."
        screen.bullets = ["Update your social apps from the App Store: newer versions can be opened by MIGA.", "Next time MIGA sets up, it checks them again and lists the ones it can open."]
        screen.resumable = true
        do {
            let action = Action(label: "Continue to the Hub", key: nil, step: .go("hub"), when: nil, location: SourceLocation(file: "miga.yaml", line: 351, column: 9))
            screen.actions.append(action)
        }
        return screen
    }
}
