@testable import FlowEngine
import ScreenTable
import Testing

/// MIGA (shared/seeds/004) through the reducer: stories 1.1 (the twelve steps), 1.2
/// (setup as a checklist with fallbacks) and 1.3 (apps, hiding, validation, hub).
@Suite struct MigaReducerTests {
    static let order = [
        "welcome", "mission", "time_wasted", "time_saved", "goal", "credibility", "trial",
        "determination", "interests", "journey", "confirm", "completion",
    ]

    /// Walks the twelve steps with readiness 7 and the Focus topic.
    func throughTheSteps() -> FlowDriver {
        var flow = FlowDriver("miga")
        flow.launch(
            effects: ["track onboarding_started", "track screen_viewed", "track step_welcome", "save progress at welcome"],
            changes: ["phase = showing", "placeholder = p", "screen = welcome", "since = now", "started = now", "starts run removed"])
        for id in Self.order {
            #expect(flow.screen == id)
            switch id {
            case "determination":
                flow.type(
                    "7", into: "readiness", effects: [],
                    changes: ["context.readiness = 7", "edited = now", "typed digits = 7", "typing number = readiness"])
                flow.press(
                    "Continue",
                    effects: [
                        "save progress at determination", "track screen_viewed", "track step_interests", "save progress at interests",
                    ],
                    changes: [
                        "context.interests = []",
                        "edited removed",
                        "history = welcome › mission › time_wasted › time_saved › goal › credibility › trial › determination",
                        "screen = interests",
                        "typing number removed",
                    ])
            case "interests":
                flow.focus("interests", effects: [], changes: [])
                flow.key(.right, effects: [], changes: ["cursor.interests = 1"])
                flow.type(" ", effects: [], changes: ["context.interests = [Focus]", "edited = now"])
                flow.press(
                    "Continue",
                    effects: ["save progress at interests", "track screen_viewed", "track step_journey", "save progress at journey"],
                    changes: [
                        "edited removed",
                        "history = welcome › mission › time_wasted › time_saved › goal › credibility › trial › determination › interests",
                        "screen = journey",
                    ])
            default:
                let next = Self.order.drop { $0 != id }.dropFirst().first ?? "setup"
                flow.press(
                    flow.view.actions[0].label,
                    effects: next == "setup"
                        ? ["track screen_viewed", "call prepare_store"]
                        : ["track screen_viewed", "track step_\(next)", "save progress at \(next)"],
                    changes: next == "setup" ? Self.setupBegins : Self.moved(from: id, to: next))
            }
        }
        #expect(flow.screen == "setup")
        return flow
    }

    /// A step forward from `screen` to `next`: the screens so far are Back's history.
    /// The readiness slider starts at 5 when its screen is first shown.
    static func moved(from screen: String, to next: String) -> [String] {
        (next == "determination" ? ["context.readiness = 5"] : [])
            + [
                "history = " + order.prefix { $0 != screen }.joined(separator: " › ") + (screen == order[0] ? "" : " › ") + screen,
                "screen = \(next)",
            ]
    }

    /// The last step's Continue: setup begins with its first task.
    static let setupBegins = [
        "call 1 = prepare_store (task 0, try 1)",
        "checklist = running | waiting | waiting | waiting | waiting",
        "checklist started = now",
        "history = " + order.joined(separator: " › "),
        "screen = setup",
    ]

    /// Answers each setup task in turn; `effects` and `changes` say what each answer does.
    mutating func answerTasks(
        _ flow: inout FlowDriver, _ results: [Result<CallOutput, ServiceFailure>], effects: [[String]], changes: [[String]],
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        #expect(
            results.count == effects.count && results.count == changes.count, "one list each per answer", sourceLocation: sourceLocation)
        for ((result, expected), stated) in zip(zip(results, effects), changes) {
            guard let call = flow.state.calls.task else {
                Issue.record("no task is running", sourceLocation: sourceLocation)
                return
            }
            flow.send(.callFinished(id: call.id, result: result), effects: expected, changes: stated, sourceLocation: sourceLocation)
        }
    }

    /// What each online answer does: the guest's key is saved before the sign-in leaves,
    /// the session when it is back, and the report once setup is done.
    static let onlineEffects = [
        ["save progress at completion", "call sign_in_anonymously"], ["save session u_guest", "call fetch_config"],
        ["call preload_content"], ["call check_compatibility"], ["track setup_completed"],
    ]

    /// What each online answer changes, from the first task's answer on.
    static let onlineChanges: [[String]] = [
        [
            "call 1 removed",
            "call 2 = sign_in_anonymously (task 1, try 1), keyed",
            "checklist = done: ready | running | waiting | waiting | waiting",
            "context.idempotency_key.sign_in_anonymously = p-1795348800000-2",
        ],
        [
            "call 2 removed",
            "call 3 = fetch_config (task 2, try 1)",
            "checklist = done: ready | done: done | running | waiting | waiting",
            "context.idempotency_key.sign_in_anonymously removed",
            "context.user_id = u_guest",
            "history removed",
            "session = u_guest guest",
        ],
        [
            "call 3 removed",
            "call 4 = preload_content (task 3, try 1)",
            "checklist = done: ready | done: done | done: content sync on, flow 1.0 | running | waiting",
            "context.content_sync_enabled = true",
        ],
        [
            "call 4 removed",
            "call 5 = check_compatibility (task 4, try 1)",
            "checklist = done: ready | done: done | done: content sync on, flow 1.0 | done: 12 entries cached | running",
        ],
        [
            "call 5 removed",
            "checklist = done: ready | done: done | done: content sync on, flow 1.0 | done: 12 entries cached | done: done",
            "context.biometrics = face_id",
            "context.setup_mode = online",
            "context.supported_apps = [Instagram, TikTok, X]",
            "message = notice: Everything is ready.",
        ],
    ]

    static let online: [Result<CallOutput, ServiceFailure>] = [
        .success(CallOutput(values: ["note": .text("ready")])),
        .success(
            CallOutput(
                session: .issued(to: "u_guest", at: 0, accessFor: 4_000_000_000, token: "a", refreshToken: "r"),
                values: ["user_id": .text("u_guest")])),
        .success(CallOutput(values: ["note": .text("content sync on, flow 1.0"), "content_sync_enabled": .text("true")])),
        .success(CallOutput(values: ["note": .text("12 entries cached")])),
        .success(CallOutput(values: ["supported_apps": .list(["Instagram", "TikTok", "X"]), "biometrics": .text("face_id")])),
    ]

    @Test func aFirstLaunchShowsTheWelcomeAndTwelveNumberedStepsInTheSpecsOrder() {
        var flow = FlowDriver("miga")
        flow.launch(
            effects: ["track onboarding_started", "track screen_viewed", "track step_welcome", "save progress at welcome"],
            changes: ["phase = showing", "placeholder = p", "screen = welcome", "since = now", "started = now", "starts run removed"])
        #expect(flow.view.title == "The Intentional Life Starts Now")
        #expect(flow.view.actions.map(\.label) == ["Begin My Journey"])
        let view = flow.engine.view(of: flow.state)
        #expect(view.stepLabel == "Step 1 of 12")
        let numbered = flow.engine.flow.screens.filter { $0.step != nil }.sorted { $0.step! < $1.step! }.map(\.id)
        #expect(numbered == Self.order)
        let walked = throughTheSteps()
        #expect(walked.text("readiness") == "7")
        #expect(walked.state.context["interests"] == .list(["Focus"]))
    }

    @Test func eachStepIsSavedAndAKillResumesThere() {
        var flow = FlowDriver("miga")
        flow.launch(
            effects: ["track onboarding_started", "track screen_viewed", "track step_welcome", "save progress at welcome"],
            changes: ["phase = showing", "placeholder = p", "screen = welcome", "since = now", "started = now", "starts run removed"])
        flow.press(
            "Begin My Journey", effects: ["track screen_viewed", "track step_mission", "save progress at mission"],
            changes: ["history = welcome", "screen = mission"])
        flow.press(
            "Continue", effects: ["track screen_viewed", "track step_time_wasted", "save progress at time_wasted"],
            changes: ["history = welcome › mission", "screen = time_wasted"])
        flow.press(
            "Continue", effects: ["track screen_viewed", "track step_time_saved", "save progress at time_saved"],
            changes: ["history = welcome › mission › time_wasted", "screen = time_saved"])
        let at = flow.screen
        #expect(flow.savedProgress?.screen == at)
        var relaunched = FlowDriver("miga")
        relaunched.launch(
            progress: flow.savedProgress, effects: ["track screen_viewed", "track step_time_saved", "save progress at time_saved"],
            changes: [
                "history = welcome › mission › time_wasted",
                "phase = showing",
                "placeholder = p",
                "screen = time_saved",
                "since = now",
                "started = now", "starts run removed",
            ])
        #expect(relaunched.screen == at)
    }

    @Test func theReadinessSliderAndTopicPillsWorkByKeyboard() {
        var flow = FlowDriver("miga")
        flow.launch(
            effects: ["track onboarding_started", "track screen_viewed", "track step_welcome", "save progress at welcome"],
            changes: ["phase = showing", "placeholder = p", "screen = welcome", "since = now", "started = now", "starts run removed"])
        while let at = flow.screen, at != "determination" {
            let next = Self.order.drop { $0 != at }.dropFirst().first ?? "setup"
            flow.press(
                flow.view.actions[0].label, effects: ["track screen_viewed", "track step_\(next)", "save progress at \(next)"],
                changes: Self.moved(from: at, to: next))
        }
        #expect(flow.text("readiness") == "5")
        flow.focus("readiness", effects: [], changes: [])
        flow.key(.right, times: 9, effects: [], changes: ["context.readiness = 10", "edited = now"])
        #expect(flow.text("readiness") == "10", "never past 10")
        flow.key(.home, effects: [], changes: ["context.readiness = 1"])
        #expect(flow.text("readiness") == "1")
        flow.type(
            "910", effects: [],
            changes: ["context.readiness = 10", "typed digits = 10", "typing number = readiness"])  // 9, then 1 starts a new number, then 10
        #expect(flow.text("readiness") == "10")
        flow.type("0", effects: [], changes: [])  // nothing from 1 to 10 starts with 0
        #expect(flow.text("readiness") == "10")
        flow.key(.deleteBackward, effects: [], changes: ["context.readiness = 1", "typed digits = 1"])
        #expect(flow.text("readiness") == "1")
        flow.press(
            "Continue",
            effects: ["save progress at determination", "track screen_viewed", "track step_interests", "save progress at interests"],
            changes: [
                "context.interests = []",
                "edited removed",
                "history = welcome › mission › time_wasted › time_saved › goal › credibility › trial › determination",
                "screen = interests",
                "typing number removed",
            ])
        #expect(flow.screen == "interests")
        flow.press("Continue", effects: ["save progress at interests"], changes: ["error.interests = Pick at least one topic."])
        #expect(flow.state.form.errors["interests"] == "Pick at least one topic.")
    }

    @Test func setupRunsAsAChecklistAndTheButtonsShowOnlyWhenDone() {
        var flow = throughTheSteps()
        #expect(flow.state.checklist.tasks == [.running(nil), .waiting, .waiting, .waiting, .waiting])
        #expect(flow.engine.focusables(of: flow.view, flow.state).isEmpty, "no Continue while setting up")
        var copy = self
        copy.answerTasks(&flow, Self.online, effects: Self.onlineEffects, changes: Self.onlineChanges)
        #expect(
            flow.state.checklist.tasks == [
                .done("ready"), .done("done"), .done("content sync on, flow 1.0"), .done("12 entries cached"), .done("done"),
            ])
        #expect(flow.text("setup_mode") == "online")
        #expect(flow.state.message == .notice("Everything is ready."))
        let report = flow.effects.compactMap { if case .track(let record) = $0, record.name == "setup_completed" { record } else { nil } }
            .first
        #expect(report?.properties["fallbacks"] == .number(0))
        #expect(report?.properties["duration_ms"] != nil)
        #expect(report?.userID == "p", "analytics keep the device's own id, not the service's u_guest")
        flow.press(
            "Continue", effects: ["track screen_viewed", "save progress at apps"],
            changes: ["context.apps = []", "message removed", "screen = apps"])
        #expect(flow.screen == "apps")
        #expect(flow.view.fields[0].optionsFrom == "supported_apps")
        #expect(flow.engine.resolved(flow.view.fields[0], flow.state).options == ["Instagram", "TikTok", "X"])
    }

    @Test func offlineSetupRetriesSignInThenCompletesInLocalOnlyMode() {
        var flow = throughTheSteps()
        var copy = self
        copy.answerTasks(&flow, [Self.online[0]], effects: [Self.onlineEffects[0]], changes: [Self.onlineChanges[0]])
        let offline = ServiceFailure(code: "network", message: "offline")
        let retried: [[String]] = [
            [
                "call 2 removed",
                "call 3 = sign_in_anonymously (task 1, try 2), keyed",
                "checklist = done: ready | running (try 2 of 3) | waiting | waiting | waiting",
            ],
            [
                "call 3 removed",
                "call 4 = sign_in_anonymously (task 1, try 3), keyed",
                "checklist = done: ready | running (try 3 of 3) | waiting | waiting | waiting",
            ],
            [
                "call 4 removed",
                "call 5 = fetch_config (task 2, try 1)",
                "checklist = done: ready | fell back: local-only mode | running | waiting | waiting",
            ],
        ]
        for attempt in 1...3 {
            #expect(flow.state.calls.task?.attempt == attempt)
            // Issue 32: each retry is said on its line, so QA sees a recovery happen.
            #expect(flow.state.checklist.tasks[1] == .running(attempt == 1 ? nil : "try \(attempt) of 3"))
            // Retried twice, then the flow goes on without an account.
            copy.answerTasks(
                &flow, [.failure(offline)], effects: [attempt < 3 ? ["call sign_in_anonymously"] : ["call fetch_config"]],
                changes: [retried[attempt - 1]])
        }
        #expect(flow.state.checklist.tasks[1] == .fellBack("local-only mode"))
        copy.answerTasks(
            &flow,
            [
                .success(CallOutput(values: ["note": .text("local: defaults used"), "fell_back": .text("true")])),
                .success(CallOutput(values: ["note": .text("local: 10 bundled entries cached"), "fell_back": .text("true")])),
                Self.online[4],
            ], effects: [["call preload_content"], ["call check_compatibility"], ["track setup_completed"]],
            changes: [
                [
                    "call 5 removed",
                    "call 6 = preload_content (task 3, try 1)",
                    "checklist = done: ready | fell back: local-only mode | fell back: local: defaults used | running | waiting",
                ],
                [
                    "call 6 removed",
                    "call 7 = check_compatibility (task 4, try 1)",
                    "checklist = done: ready | fell back: local-only mode | fell back: local: defaults used | fell back: local: 10 bundled entries cached | running",
                ],
                [
                    "call 7 removed",
                    "checklist = done: ready | fell back: local-only mode | fell back: local: defaults used | fell back: local: 10 bundled entries cached | done: done",
                    "context.biometrics = face_id",
                    "context.setup_mode = local-only",
                    "context.supported_apps = [Instagram, TikTok, X]",
                    "message = notice: MIGA could not use its service just now, so it runs in local-only mode: everything works on this device, and content syncs when it can.",
                ],
            ])
        #expect(flow.text("setup_mode") == "local-only")
        #expect(
            flow.state.message
                == .notice(
                    "MIGA could not use its service just now, so it runs in local-only mode: everything works on this device, and content syncs when it can."
                ), "not an error: setup worked")
        #expect(flow.state.session == nil)
        flow.press(
            "Continue", effects: ["track screen_viewed", "save progress at apps"],
            changes: ["context.apps = []", "message removed", "screen = apps"])
        #expect(flow.screen == "apps")
    }

    @Test func aTaskWithNoFallbackStopsTheChecklistAndEnterTriesAgain() {
        var flow = throughTheSteps()
        var copy = self
        copy.answerTasks(
            &flow, [.failure(ServiceFailure(code: "server_error", message: "The disk is full."))], effects: [[]],
            changes: [
                [
                    "call 1 removed",
                    "checklist = failed: The disk is full. | waiting | waiting | waiting | waiting",
                    "message = error: The disk is full. Press Enter to try again.",
                ]
            ])
        #expect(flow.state.checklist.tasks[0] == .failed("The disk is full."))
        #expect(flow.state.message == .error("The disk is full. Press Enter to try again."))
        let again = flow.key(
            .activate, effects: ["call prepare_store"],
            changes: [
                "call 2 = prepare_store (task 0, try 1)",
                "checklist = running | waiting | waiting | waiting | waiting",
                "message removed",
            ])
        #expect(FlowDriver.calls(again).map(\.operation) == [.prepareStore])
        copy.answerTasks(
            &flow, Self.online, effects: Self.onlineEffects,
            changes: [
                [
                    "call 2 removed",
                    "call 3 = sign_in_anonymously (task 1, try 1), keyed",
                    "checklist = done: ready | running | waiting | waiting | waiting",
                    "context.idempotency_key.sign_in_anonymously = p-1795348800000-3",
                ],
                [
                    "call 3 removed",
                    "call 4 = fetch_config (task 2, try 1)",
                    "checklist = done: ready | done: done | running | waiting | waiting",
                    "context.idempotency_key.sign_in_anonymously removed",
                    "context.user_id = u_guest",
                    "history removed",
                    "session = u_guest guest",
                ],
                [
                    "call 4 removed",
                    "call 5 = preload_content (task 3, try 1)",
                    "checklist = done: ready | done: done | done: content sync on, flow 1.0 | running | waiting",
                    "context.content_sync_enabled = true",
                ],
                [
                    "call 5 removed",
                    "call 6 = check_compatibility (task 4, try 1)",
                    "checklist = done: ready | done: done | done: content sync on, flow 1.0 | done: 12 entries cached | running",
                ],
                [
                    "call 6 removed",
                    "checklist = done: ready | done: done | done: content sync on, flow 1.0 | done: 12 entries cached | done: done",
                    "context.biometrics = face_id",
                    "context.setup_mode = online",
                    "context.supported_apps = [Instagram, TikTok, X]",
                    "message = notice: Everything is ready.",
                ],
            ])
        #expect(flow.engine.checklistDone(flow.state))
    }

    func atApps() -> FlowDriver {
        var flow = throughTheSteps()
        var copy = self
        copy.answerTasks(&flow, Self.online, effects: Self.onlineEffects, changes: Self.onlineChanges)
        flow.press(
            "Continue", effects: ["track screen_viewed", "save progress at apps"],
            changes: ["context.apps = []", "message removed", "screen = apps"])
        return flow
    }

    @Test(arguments: [("face_id", "hide_face_id"), ("touch_id", "hide_touch_id"), ("passcode", "hide_passcode"), ("none", "hide_none")])
    func theInstructionsFollowTheDevicesUnlockMethod(biometrics: String, screen: String) {
        var flow = atApps()
        flow.state.context.record(["biometrics": .text(biometrics)])
        flow.press(
            "Continue", effects: ["save progress at apps"], changes: ["error.apps = Choose at least one app to put behind a mindful pause."]
        )
        #expect(flow.state.form.errors["apps"] == "Choose at least one app to put behind a mindful pause.")
        flow.type(" ", into: "apps", effects: [], changes: ["context.apps = [Instagram]", "edited = now", "error.apps removed"])
        flow.press(
            "Continue", effects: ["save progress at apps", "track screen_viewed", "save progress at \(screen)"],
            changes: ["edited removed", "history = apps", "screen = \(screen)"])
        #expect(flow.screen == screen)
        #expect(flow.view.bullets.first?.hasPrefix("1. ") == true, "numbered steps")
        if biometrics == "none" {
            flow.press(
                "Continue to the Hub",
                effects: ["track screen_viewed", "save session u_guest", "track hub_unlocked", "save progress at hub", "call open_hub"],
                changes: [
                    "call 6 = open_hub (background), keyed",
                    "context.idempotency_key.open_hub = p-1795348800000-6",
                    "history = apps › hide_none",
                    "onboarding = complete",
                    "screen = hub",
                    "session = u_guest guest complete",
                ])
            #expect(flow.screen == "hub", "no passcode does not block")
        }
    }

    /// Issue 30 §5: with no app MIGA can open, the apps screen was an empty list that
    /// refused Continue, with no Back: a dead end. The spec's fallback: instructions
    /// instead, without blocking the app.
    @Test func noSupportedAppIsNotADeadEnd() {
        var flow = throughTheSteps()
        var answers = Self.online
        answers[4] = .success(CallOutput(values: ["supported_apps": .list([]), "biometrics": .text("face_id")]))
        var copy = self
        copy.answerTasks(
            &flow, answers, effects: Self.onlineEffects,
            changes: [
                [
                    "call 1 removed",
                    "call 2 = sign_in_anonymously (task 1, try 1), keyed",
                    "checklist = done: ready | running | waiting | waiting | waiting",
                    "context.idempotency_key.sign_in_anonymously = p-1795348800000-2",
                ],
                [
                    "call 2 removed",
                    "call 3 = fetch_config (task 2, try 1)",
                    "checklist = done: ready | done: done | running | waiting | waiting",
                    "context.idempotency_key.sign_in_anonymously removed",
                    "context.user_id = u_guest",
                    "history removed",
                    "session = u_guest guest",
                ],
                [
                    "call 3 removed",
                    "call 4 = preload_content (task 3, try 1)",
                    "checklist = done: ready | done: done | done: content sync on, flow 1.0 | running | waiting",
                    "context.content_sync_enabled = true",
                ],
                [
                    "call 4 removed",
                    "call 5 = check_compatibility (task 4, try 1)",
                    "checklist = done: ready | done: done | done: content sync on, flow 1.0 | done: 12 entries cached | running",
                ],
                [
                    "call 5 removed",
                    "checklist = done: ready | done: done | done: content sync on, flow 1.0 | done: 12 entries cached | done: done",
                    "context.biometrics = face_id",
                    "context.setup_mode = online",
                    "context.supported_apps = []",
                    "message = notice: Everything is ready.",
                ],
            ])
        flow.press(
            "Continue", effects: ["track screen_viewed", "save progress at no_supported_apps"],
            changes: ["message removed", "screen = no_supported_apps"])
        #expect(flow.screen == "no_supported_apps")
        #expect(flow.shown.buttons.map(\.label) == ["Continue to the Hub"])
        flow.press(
            "Continue to the Hub",
            effects: ["track screen_viewed", "save session u_guest", "track hub_unlocked", "save progress at hub", "call open_hub"],
            changes: [
                "call 6 = open_hub (background), keyed",
                "context.idempotency_key.open_hub = p-1795348800000-6",
                "history = no_supported_apps",
                "onboarding = complete",
                "screen = hub",
                "session = u_guest guest complete",
            ])
        #expect(flow.screen == "hub")
    }

    @Test func aFailedValidationGivesRetryInstructionsAndKeepsEverything() {
        var flow = atApps()
        flow.type(" ", into: "apps", effects: [], changes: ["context.apps = [Instagram]", "edited = now"])
        flow.press(
            "Continue", effects: ["save progress at apps", "track screen_viewed", "save progress at hide_face_id"],
            changes: ["edited removed", "history = apps", "screen = hide_face_id"])
        #expect(flow.screen == "hide_face_id")
        flow.press("I've Done It", effects: ["call validate_hiding"], changes: ["call 6 = validate_hiding (user's, from hide_face_id)"])
        _ = flow.fail(
            "not_found", "MIGA can still open the apps directly, so they are not hidden yet.",
            effects: ["save progress at hide_face_id", "track setup_error"],
            changes: [
                "call 6 removed",
                "context.error_code = not_found",
                "context.error_message = MIGA can still open the apps directly, so they are not hidden yet.",
                "last failure = hide_face_id",
                "message = error: Not hidden yet: repeat steps 1-3 for each app (the menu item is Hide and Require …), then press I've Done It again. Your choices are kept.",
            ])
        #expect(flow.screen == "hide_face_id")
        if case .error(let text)? = flow.state.message {
            #expect(text.hasPrefix("Not hidden yet: repeat steps 1-3"))
        } else {
            Issue.record("no message")
        }
        #expect(flow.state.context["apps"] == .list(["Instagram"]))
        // Quitting here and relaunching comes back to these instructions.
        var relaunched = FlowDriver("miga")
        relaunched.launch(
            session: flow.state.session, progress: flow.savedProgress, effects: ["track screen_viewed", "save progress at hide_face_id"],
            changes: [
                "context.apps = [Instagram]",
                "context.biometrics = face_id",
                "context.content_sync_enabled = true",
                "context.error_code = not_found",
                "context.error_message = MIGA can still open the apps directly, so they are not hidden yet.",
                "context.interests = [Focus]",
                "context.readiness = 7",
                "context.setup_mode = online",
                "context.supported_apps = [Instagram, TikTok, X]",
                "context.user_id = u_guest",
                "history = apps",
                "phase = showing",
                "placeholder = p",
                "screen = hide_face_id",
                "session = u_guest guest",
                "since = now",
                "started = now", "starts run removed",
            ])
        #expect(relaunched.screen == "hide_face_id")
        flow.press(
            "I've Done It", effects: ["call validate_hiding"],
            changes: ["call 7 = validate_hiding (user's, from hide_face_id)", "message removed"])
        let done = flow.answer(
            .success(CallOutput(values: ["hiding_verified": .text("true")])),
            effects: ["track screen_viewed", "save session u_guest", "track hub_unlocked", "save progress at hub", "call open_hub"],
            changes: [
                "call 7 removed",
                "call 8 = open_hub (background), keyed",
                "context.error_code removed",
                "context.error_message removed",
                "context.hiding_verified = true",
                "context.idempotency_key.open_hub = p-1795348800000-8",
                "history = apps › hide_face_id",
                "last failure removed",
                "onboarding = complete",
                "screen = hub",
                "session = u_guest guest complete", "succeeded validate_hiding = now",
            ])
        #expect(flow.screen == "hub")
        #expect(FlowDriver.tracked(done).map(\.name).contains("hub_unlocked"))
        #expect(FlowDriver.calls(done).map(\.operation) == [.openHub])
        #expect(FlowDriver.calls(done).first?.fields["apps"] == .list(["Instagram"]))
    }

    @Test func afterTheHubARelaunchGoesStraightThereEvenWithoutASession() {
        var flow = atApps()
        flow.state.context.record(["biometrics": .text("none")])
        flow.type(" ", into: "apps", effects: [], changes: ["context.apps = [Instagram]", "edited = now"])
        flow.press(
            "Continue", effects: ["save progress at apps", "track screen_viewed", "save progress at hide_none"],
            changes: ["edited removed", "history = apps", "screen = hide_none"])
        flow.press(
            "Continue to the Hub",
            effects: ["track screen_viewed", "save session u_guest", "track hub_unlocked", "save progress at hub", "call open_hub"],
            changes: [
                "call 6 = open_hub (background), keyed",
                "context.idempotency_key.open_hub = p-1795348800000-6",
                "history = apps › hide_none",
                "onboarding = complete",
                "screen = hub",
                "session = u_guest guest complete",
            ])
        var relaunched = FlowDriver("miga")
        var progress = flow.savedProgress!
        progress.requiresSession = false
        relaunched.launch(
            session: nil, progress: progress, effects: ["track screen_viewed", "save progress at hub", "call open_hub"],
            changes: [
                "call 1 = open_hub (background), keyed",
                "context.apps = [Instagram]",
                "context.biometrics = none",
                "context.content_sync_enabled = true",
                "context.idempotency_key.open_hub = p-1795348800000-6",
                "context.interests = [Focus]",
                "context.readiness = 7",
                "context.setup_mode = online",
                "context.supported_apps = [Instagram, TikTok, X]",
                "context.user_id = u_guest",
                "onboarding = complete",
                "phase = showing",
                "placeholder = p",
                "screen = hub",
                "since = now",
                "started = now", "starts run removed",
            ])
        #expect(relaunched.screen == "hub")
    }

    @Test func theHubIsLockedUntilOnboardingIsComplete() {
        // Saved progress from the middle of onboarding never opens the hub.
        var flow = FlowDriver("miga")
        flow.launch(
            effects: ["track onboarding_started", "track screen_viewed", "track step_welcome", "save progress at welcome"],
            changes: ["phase = showing", "placeholder = p", "screen = welcome", "since = now", "started = now", "starts run removed"])
        flow.press(
            "Begin My Journey", effects: ["track screen_viewed", "track step_mission", "save progress at mission"],
            changes: ["history = welcome", "screen = mission"])
        var relaunched = FlowDriver("miga")
        relaunched.launch(
            progress: flow.savedProgress, effects: ["track screen_viewed", "track step_mission", "save progress at mission"],
            changes: [
                "history = welcome", "phase = showing", "placeholder = p", "screen = mission", "since = now", "started = now",
                "starts run removed",
            ])
        #expect(relaunched.screen == "mission")
        #expect(!relaunched.state.onboardingComplete)
    }

    @Test func noCallSendsTheUsersChoicesToTheService() {
        var flow = atApps()
        flow.type(" ", into: "apps", effects: [], changes: ["context.apps = [Instagram]", "edited = now"])
        flow.press(
            "Continue", effects: ["save progress at apps", "track screen_viewed", "save progress at hide_face_id"],
            changes: ["edited removed", "history = apps", "screen = hide_face_id"])
        flow.press("I've Done It", effects: ["call validate_hiding"], changes: ["call 6 = validate_hiding (user's, from hide_face_id)"])
        flow.answer(
            .success(CallOutput()),
            effects: ["track screen_viewed", "save session u_guest", "track hub_unlocked", "save progress at hub", "call open_hub"],
            changes: [
                "call 6 removed",
                "call 7 = open_hub (background), keyed",
                "context.idempotency_key.open_hub = p-1795348800000-7",
                "history = apps › hide_face_id",
                "onboarding = complete",
                "screen = hub",
                "session = u_guest guest complete", "succeeded validate_hiding = now",
            ])
        let serviceCalls = FlowDriver.calls(flow.effects).filter {
            ![.prepareStore, .checkCompatibility, .validateHiding, .openHub, .preloadContent, .fetchConfig].contains($0.operation)
        }
        #expect(serviceCalls.map(\.operation) == [.signInAnonymously])
        for call in serviceCalls {
            #expect(call.inputs.isEmpty && call.fields.isEmpty)
        }
    }
}

/// QA's jump: any screen at once, with the steps behind it kept for Esc.
@Suite struct JumpReducerTests {
    @Test func aJumpShowsTheScreenDropsTheWaitAndKeepsBack() {
        var flow = FlowDriver("abby")
        flow.launch(
            effects: ["save progress at consent"],
            changes: ["phase = showing", "placeholder = p", "screen = consent", "since = now", "started = now", "starts run removed"])
        flow.press(
            "Agree and Continue",
            effects: ["track screen_viewed", "track auth_method_viewed", "track onboarding_step_viewed", "save progress at method"],
            changes: ["context.analytics_consent = granted", "history = consent", "screen = method"])
        flow.press(
            "Use Phone Number", effects: ["track screen_viewed", "track onboarding_step_viewed", "save progress at phone"],
            changes: ["context.country = +1 United States / Canada", "history = consent › method", "screen = phone"])
        flow.type(
            "5550109999", into: "phone", effects: ["save progress at phone"],
            changes: ["context.phone = 5550109999", "edited = now", "focus = 1"])
        flow.press(
            "Send Code", effects: ["save progress at phone", "save progress at phone", "call send_phone_code"],
            changes: [
                "call 1 = send_phone_code (user's, from phone), keyed",
                "context.idempotency_key.send_phone_code = p-1795348800000-1",
                "edited removed",
                "focus = 2",
            ])
        #expect(flow.state.calls.userCall != nil)
        // A forced run: nothing recorded as the person's (issue 30 §1).
        flow.send(
            .jump("age"), effects: [],
            changes: [
                "call 1 = send_phone_code (abandoned), keyed",
                "context.age_range = 18-99",
                "context.birth_date = 2026-11-22",
                "focus = 0",
                "forced by jump = yes",
                "history = consent › method › phone",
                "screen = age",
            ])
        #expect(flow.screen == "age")
        #expect(flow.state.calls.userCall == nil, "the call under way no longer holds the screen")
        #expect(flow.text("birth_date") != nil, "arrival fills the date as usual")
        flow.send(.jump("no-such-screen"), effects: [], changes: [])
        #expect(flow.screen == "age")
        flow.key(.back, effects: [], changes: ["history = consent › method", "screen = phone"])
        #expect(flow.screen == "phone")
    }

    /// Issue 30 §1: OKLah's Jump to Home wrote `onboarding_complete` for a device id with
    /// no account. A jump marks the run forced: no progress, no analytics, no completion,
    /// until the next launch.
    @Test func aJumpRecordsNothingAsThePersons() {
        var flow = FlowDriver("oklah")
        flow.launch(
            effects: ["track onboarding_start", "track screen_viewed", "save progress at privacy"],
            changes: ["phase = showing", "placeholder = p", "screen = privacy", "since = now", "started = now", "starts run removed"])
        flow.send(
            .jump("home"), effects: ["call motivation"],
            changes: ["call 1 = motivation (background)", "forced by jump = yes", "history = privacy", "screen = home"])
        #expect(flow.screen == "home")
        #expect(!flow.state.onboardingComplete)
        #expect(flow.state.forcedByJump)
        flow.send(
            .launched(Launch(session: nil, progress: flow.savedProgress, placeholderUserID: "p")),
            effects: ["track onboarding_start", "track screen_viewed", "save progress at privacy"],
            changes: ["call 1 removed", "forced by jump removed", "history removed", "screen = privacy"])
        #expect(!flow.state.forcedByJump, "a relaunch is a real run again")
    }

    /// Issue 30 §1: a guest could jump to "confirm sign out" (its email empty) and orphan
    /// itself. A screen the flow reaches only through guards that do not hold is refused.
    @Test func aJumpHonoursTheFlowsGuards() {
        var flow = FlowDriver("rucktracker")
        let guest = Session.issued(to: "u_guest", at: flow.now / 1000, complete: true)
        flow.launch(
            session: guest,
            effects: ["track screen_viewed", "save progress at home", "call load_account"],
            changes: [
                "call 1 = load_account (background)",
                "onboarding = complete",
                "phase = showing",
                "placeholder = p",
                "screen = home",
                "session = u_guest guest complete",
                "since = now", "starts run removed",
            ])
        let before = flow.screen
        flow.send(
            .jump("confirm_sign_out"), effects: [],
            changes: [
                "message = error: QA: the flow cannot reach confirm_sign_out in this state (it needs is_signed_in, or not is_anonymous), so it was not opened."
            ])
        #expect(flow.screen == before)
        #expect(
            flow.state.message
                == .error(
                    "QA: the flow cannot reach confirm_sign_out in this state (it needs is_signed_in, or not is_anonymous), so it was not opened."
                ))
        flow.send(
            .jump("guest_profile"),
            effects: [],
            changes: ["forced by jump = yes", "history = home", "message removed", "screen = guest_profile"])
        #expect(flow.screen == "guest_profile", "what a guest can reach opens")
    }
}
