import Foundation

@testable import FunctionalNetworking

/// A session whose stacks run the composers' direct forms (``DirectTransport``) over
/// `transport`, which each call runs in a task of its own: the direct path's counterpart of
/// `NetworkSession(sending:)`, for testing a composer both ways with no server.
func directNetworkSession(sending transport: @escaping Transport) -> NetworkSession {
    NetworkSession(sendingDirectly: TransportBridge.started(transport))
}
