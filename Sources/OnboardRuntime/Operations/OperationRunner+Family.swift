import FlowEngine
import InputRules
import ServiceAPI

/// Baby Basics on the runner's side: the server a family uses, its babies and the
/// invites that share one.
extension OperationRunner {
    func connectServer(_ request: CallRequest, on service: any AuthService) async throws -> CallOutput {
        let address = (request.inputs["server_url"] ?? "").trimmingWhitespace
        var normalised = address.hasSuffix("/") ? String(address.dropLast()) : address
        // The API's own base, as a server's docs give it, is the server.
        if normalised.hasSuffix(Endpoint.root) { normalised.removeLast(Endpoint.root.count) }
        _ = try await services.service(for: normalised).health()
        return CallOutput(values: ["server_url": .text(normalised)])
    }

    func acceptInvite(_ request: CallRequest, on service: any AuthService) async throws -> CallOutput {
        let code = Self.inviteCode(from: request.inputs["invite_code"] ?? "")
        let accepted = try await service.acceptInvite(accessToken: try session(of: request).accessToken, code: code)
        var values = try await childrenValues(accessToken: try session(of: request).accessToken, on: service)
        values["child_name"] = .text(accepted.child.name)
        values["shared_by"] = .text(accepted.sharedBy)
        return CallOutput(values: values)
    }

    func addChild(_ request: CallRequest, on service: any AuthService) async throws -> CallOutput {
        let access = try session(of: request).accessToken
        let birth = request.inputs["birth_date"].flatMap { $0.isEmpty ? nil : $0 }
        _ = try await service.addChild(accessToken: access, name: request.inputs["baby_name"] ?? "", birthDate: birth)
        return CallOutput(values: try await childrenValues(accessToken: access, on: service))
    }

    func createInvite(_ request: CallRequest, on service: any AuthService) async throws -> CallOutput {
        let access = try session(of: request).accessToken
        guard let child = try await service.children(accessToken: access).first else {
            throw ServiceError(.notFound, "Add a baby first, then invite someone to it.")
        }
        let invite = try await service.createInvite(accessToken: access, childID: child.id)
        return CallOutput(values: [
            "invite_code_created": .text(invite.code),
            "invite_link": .text("babybasics://invite?code=\(invite.code)"),
            "invite_child": .text(child.name),
        ])
    }

    /// The children as the flow shows them: "Name (born YYYY-MM-DD)".
    func childrenValues(accessToken: String, on service: any AuthService) async throws -> [String: Value] {
        let children = try await service.children(accessToken: accessToken)
        return ["children": .list(children.map { child in child.birthDate.map { "\(child.name) (born \($0))" } ?? child.name })]
    }
}
