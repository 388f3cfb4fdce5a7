@testable import FlowEngine
import FlowFiles
import ScreenTable
import Testing

/// Issue 34: a screen that polls (a device sign-in waiting for the browser): on the
/// clock's ticks, every interval, never two at once, slower when told to, until an
/// answer with an outcome of its own; the screen stays usable, and leaving it stops it.
@Suite struct PollReducerTests {
    static let yaml = """
        id: poll
        title: Poll
        entry: { first_launch: start }
        screens:
          - id: start
            kind: info
            title: Start
            actions:
              - label: Sign In
                call: start_social_device
                on: { success: waiting, error: {} }
          - id: waiting
            kind: info
            title: Approve in your browser
            body: "Open {verification_uri} and enter {user_code}."
            qr: verification_uri_complete
            poll:
              call: poll_social_device
              every: poll_interval
              on:
                success: done
                access_denied: { go: start }
                expired_token: { message: "The code expired." }
                error: { message: "Something went wrong." }
            actions:
              - label: Cancel
                go: start
          - id: done
            kind: info
            title: Done
            complete: true
            actions:
              - label: Close
                quit: true
        """

    static let started = CallOutput(values: [
        "user_code": .text("BCDF-GHJK"), "verification_uri": .text("http://x/device"),
        "verification_uri_complete": .text("HTTP://X/D/BCDF-GHJK"), "device_code": .text("dc_1"), "poll_interval": .text("5"),
    ])

    func atWaiting(_ yaml: String = Self.yaml) throws -> FlowDriver {
        var flow = FlowDriver(flow: try FlowLoader.load(yaml: yaml, file: "poll.yaml").get())
        flow.launch(
            effects: ["save progress at start"],
            changes: ["phase = showing", "placeholder = p", "screen = start", "since = now", "started = now", "starts run removed"])
        flow.press("Sign In", effects: ["call start_social_device"], changes: ["call 1 = start_social_device (user's, from start)"])
        flow.answer(
            .success(Self.started), effects: ["save progress at waiting"],
            changes: [
                "call 1 removed", "context.device_code = dc_1", "context.poll_interval = 5", "context.user_code = BCDF-GHJK",
                "context.verification_uri = http://x/device", "context.verification_uri_complete = HTTP://X/D/BCDF-GHJK",
                "history = start", "poll = waiting every 5s, due now+5s", "screen = waiting", "succeeded start_social_device = now",
            ])
        return flow
    }

    @Test func itPollsEveryIntervalSlowerWhenToldAndFollowsTheAnswer() throws {
        var flow = try atWaiting()
        #expect(flow.shown.qr == "HTTP://X/D/BCDF-GHJK")
        #expect(!flow.shown.busy, "the screen stays usable while it waits")
        flow.now += 4000
        flow.send(.tick, effects: [], changes: [])  // not due yet
        flow.now += 1000
        flow.send(
            .tick, effects: ["call poll_social_device"],
            changes: ["call 2 = poll_social_device (poll from waiting)", "poll = waiting every 5s, out"])
        #expect(FlowDriver.calls(flow.effects).last?.inputs == ["device_code": "dc_1"])
        flow.send(.tick, effects: [], changes: [])  // one at a time
        flow.answer(
            .pollSocialDevice, .failure(ServiceFailure(code: "authorization_pending", message: "waiting")), effects: [],
            changes: ["call 2 removed", "poll = waiting every 5s, due now+5s"])
        flow.now += 5000
        flow.send(
            .tick, effects: ["call poll_social_device"],
            changes: ["call 3 = poll_social_device (poll from waiting)", "poll = waiting every 5s, out"])
        flow.answer(
            .pollSocialDevice, .failure(ServiceFailure(code: "slow_down", message: "slower")), effects: [],
            changes: ["call 3 removed", "poll = waiting every 10s, due now+10s"])
        flow.now += 10_000
        flow.send(
            .tick, effects: ["call poll_social_device"],
            changes: ["call 4 = poll_social_device (poll from waiting)", "poll = waiting every 10s, out"])
        let session = Session.issued(to: "u_ana", guest: false, at: flow.now / 1000)
        flow.answer(
            .pollSocialDevice, .success(CallOutput(session: session, values: ["device_code": .text("")])),
            effects: ["backfill analytics for u_ana", "save session u_ana", "save progress at done"],
            changes: [
                "call 4 removed", "context.device_code = ", "history = waiting", "onboarding = complete", "poll removed", "screen = done",
                "session = u_ana named complete", "since = now",
            ])
    }

    @Test func deniedGoesBackWithNoErrorAndExpiredSaysSo() throws {
        var flow = try atWaiting()
        flow.now += 5000
        flow.send(
            .tick, effects: ["call poll_social_device"],
            changes: ["call 2 = poll_social_device (poll from waiting)", "poll = waiting every 5s, out"])
        flow.answer(
            .pollSocialDevice, .failure(ServiceFailure(code: "access_denied", message: "no")), effects: ["save progress at start"],
            changes: [
                "call 2 removed", "context.error_code = access_denied", "context.error_message = no", "history removed",
                "poll removed", "screen = start", "since = now",
            ])
        #expect(flow.state.message == nil, "no error state")

        var expired = try atWaiting()
        expired.now += 5000
        expired.send(
            .tick, effects: ["call poll_social_device"],
            changes: ["call 2 = poll_social_device (poll from waiting)", "poll = waiting every 5s, out"])
        expired.answer(
            .pollSocialDevice, .failure(ServiceFailure(code: "expired_token", message: "expired")), effects: [],
            changes: [
                "call 2 removed", "context.error_code = expired_token", "context.error_message = expired",
                "message = error: The code expired.",
                "poll removed", "poll ended = waiting",
            ])
        expired.now += 60_000
        expired.send(.tick, effects: [], changes: [])
    }

    @Test func leavingTheScreenStopsThePollAndALateAnswerIsDropped() throws {
        var flow = try atWaiting()
        flow.now += 5000
        flow.send(
            .tick, effects: ["call poll_social_device"],
            changes: ["call 2 = poll_social_device (poll from waiting)", "poll = waiting every 5s, out"])
        flow.press(
            "Cancel", effects: ["save progress at start"],
            changes: ["history removed", "poll removed", "screen = start", "since = now"])
        flow.answer(
            .pollSocialDevice, .failure(ServiceFailure(code: "authorization_pending", message: "waiting")), effects: [],
            changes: ["call 2 removed"])
        flow.now += 60_000
        flow.send(.tick, effects: [], changes: [])
    }

    /// Issue 45: with `withdraw:`, a screen left while its poll waits gives the code up at
    /// the service (Cancel, Esc), with the code it had, and forgets it.
    @Test(arguments: ["Cancel", "Esc"]) func leavingTheScreenWithdrawsWhatThePollWaitsOn(way: String) throws {
        let yaml = Self.yaml
            .replacingOccurrences(
                of: "      every: poll_interval\n", with: "      every: poll_interval\n      withdraw: withdraw_social_device\n"
            )
            .replacingOccurrences(of: "    title: Approve in your browser\n", with: "    title: Approve in your browser\n    back: true\n")
        var flow = try atWaiting(yaml)
        let left = ["call withdraw_social_device", "save progress at start"]
        if way == "Cancel" {
            flow.press(
                "Cancel", effects: left,
                changes: [
                    "call 2 = withdraw_social_device (background)", "context.device_code removed", "history removed", "poll removed",
                    "screen = start",
                ])
        } else {
            flow.key(
                .back, effects: left,
                changes: [
                    "call 2 = withdraw_social_device (background)", "context.device_code removed", "history removed", "poll removed",
                    "screen = start",
                ])
        }
        #expect(FlowDriver.calls(flow.effects).last?.inputs == ["device_code": "dc_1"])
        flow.answer(.withdrawSocialDevice, .success(CallOutput()), effects: ["save progress at start"], changes: ["call 2 removed"])
        // Started again: the new code is polled, and no stale withdrawal touches it.
        flow.press("Sign In", effects: ["call start_social_device"], changes: ["call 3 = start_social_device (user's, from start)"])
        #expect(flow.state.calls.poll == nil)
    }

    /// A moment offline does not end the wait: the poll asks again after its interval.
    @Test func aNetworkFailureWhileWaitingIsAskedAgainLater() throws {
        var flow = try atWaiting()
        flow.now += 5000
        flow.send(
            .tick, effects: ["call poll_social_device"],
            changes: ["call 2 = poll_social_device (poll from waiting)", "poll = waiting every 5s, out"])
        flow.answer(
            .pollSocialDevice, .failure(ServiceFailure(code: "network", message: "offline")), effects: [],
            changes: ["call 2 removed", "poll = waiting every 5s, due now+5s"])
        #expect(flow.state.message == nil)
    }

    /// A clock set back an hour (QA's Clock, a device's clock corrected) does not put the
    /// next poll an hour off.
    @Test func aClockSetBackKeepsThePollAnIntervalAway() throws {
        var flow = try atWaiting()
        flow.now -= 3_600_000
        flow.send(.clockMoved, effects: [], changes: ["poll = waiting every 5s, due now+5s"])
        flow.now += 5000
        flow.send(
            .tick, effects: ["call poll_social_device"],
            changes: ["call 2 = poll_social_device (poll from waiting)", "poll = waiting every 5s, out"])
    }
}
