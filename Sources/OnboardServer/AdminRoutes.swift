import FunnelText
import Hummingbird
import OnboardService
import ServiceAPI

/// `/api/v1/admin`: the operator's reports, behind `--admin-token` (`AdminToken`), each
/// attempt counted against the caller's address so the token cannot be guessed.
struct AdminRoutes {
    let service: OnboardService
    let clock: AdjustableClock
    /// nil: the reports are off, and every request is refused.
    let adminToken: String?

    var collection: RouteCollection<APIContext> {
        let routes = RouteCollection(context: APIContext.self)
        routes.on(.adminFunnel) { request, context in
            try await service.admitAdminAttempt(from: context.clientAddress, presentsToken: request.headers[.authorization] != nil) {
                try AdminToken.check(request, against: adminToken)
            }
            let query = request.uri.queryParameters
            guard let flow = query["flow"].map(String.init), !flow.isEmpty else {
                throw ServiceError(.invalidInput, "Name the flow: /api/v1/admin/funnel?flow=oklah&since=7d.")
            }
            let sinceText = query["since"].map(String.init) ?? "7d"
            guard let since = FunnelText.since(sinceText, now: clock.now() * 1000) else {
                throw ServiceError(.invalidInput, "since must be like 7d, 24h, 90m or 2026-11-01T00:00:00Z, not '\(sinceText)'.")
            }
            return JSONReply(try await service.funnel(flow: flow, since: since, byVersion: query["by"] == "version"))
        }
        return routes
    }
}
