import Foundation

/// A token store the test owns, read through a getter closure (SwiftUI's `@Binding` on Linux).
/// It is the `TokenStore` of the article "Composing networking as the articles write it".
final class TokenStore: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: String?

    var token: String? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
