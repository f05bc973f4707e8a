import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The network session of each URLSession but `URLSession.shared`: one URLSession always maps
/// to one ``NetworkSession`` (over one ``PackageSession``), for as long as that URLSession lives.
///
/// It exists so that connections are reused. A package session is a URLSession of the
/// package's own, with its own pool of connections: built afresh for each read of
/// `session.transport` or each `session.request(_:)`, it opened a connection per call. With
/// this table, every read of a session's transport, and every request, goes through the same
/// package session, so no property read builds a session after the first.
///
/// An entry holds its URLSession weakly and its package session strongly. An entry whose
/// URLSession is gone is dropped at the next lookup (every lookup sweeps the table, which holds
/// one entry per live URLSession that was used); its package session then goes, and is
/// invalidated by its `deinit`, once no transport made from it is left, since every transport
/// holds its package session for as long as it is in use. An `ObjectIdentifier` may be given to
/// a later URLSession once the first is freed, so an entry counts only while its weak reference
/// is that very session.
///
/// - Note: Owns a lock that guards its table, hence `@unchecked Sendable`.
final class PackageSessionRegistry: @unchecked Sendable {
    private struct Entry {
        weak var session: URLSession?
        let network: NetworkSession
    }

    private let lock = NSLock()
    private var entries: [ObjectIdentifier: Entry] = [:]

    /// The table every transport of the process uses.
    static let process = PackageSessionRegistry()

    /// The network session of `session`, built from its configuration at the first lookup.
    func network(for session: URLSession) -> NetworkSession {
        let (network, dropped) = lock.withLock { () -> (NetworkSession, [NetworkSession]) in
            let dropped = sweep()
            let key = ObjectIdentifier(session)
            if let entry = entries[key], entry.session === session {
                return (entry.network, dropped)
            }
            let network = NetworkSession(
                package: PackageSession(configuration: session.configuration),
                policy: .default,
                configurationProblem: WireCheck.problem(inAdditionalHeaders: session.configuration.httpAdditionalHeaders)
            )
            entries[key] = Entry(session: session, network: network)
            return (network, dropped)
        }
        // A dropped package session is invalidated by its deinit: let it go outside the lock.
        withExtendedLifetime(dropped) {}
        return network
    }

    /// The number of entries whose URLSession is still alive, after dropping the others.
    var count: Int {
        let (count, dropped) = lock.withLock { () -> (Int, [NetworkSession]) in
            let dropped = sweep()
            return (entries.count, dropped)
        }
        withExtendedLifetime(dropped) {}
        return count
    }

    /// Removes the entries whose URLSession is gone and returns their package sessions, for the
    /// caller to release once the lock is released. Call with the lock held.
    private func sweep() -> [NetworkSession] {
        var dropped: [NetworkSession] = []
        for (key, entry) in entries where entry.session == nil {
            dropped.append(entry.network)
            entries[key] = nil
        }
        return dropped
    }
}
