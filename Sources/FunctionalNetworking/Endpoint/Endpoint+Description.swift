import Foundation

/// An endpoint shows its method, its URL, its headers and what its body is, through
/// ``Redaction/default``: the URL's user and password and its secret query values, the values
/// of secret headers, and the body's bytes never appear in its description, its debug
/// description or its mirror (`dump`).
extension Endpoint: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The method, the redacted URL, the headers (secret values hidden) and the body's size or
    /// kind, on one line:
    ///
    /// ```
    /// POST https://shop.test/v1/orders?access_token=<redacted> [Authorization: <redacted>, Accept: */*] (body: 42 bytes)
    /// ```
    ///
    /// An endpoint whose URL cannot be made shows its destination, path and query items, and
    /// says so.
    public var description: String {
        let redaction = Redaction.default
        var text = "\(method.rawValue) \(shownURL(redaction))"
        if !headers.isEmpty {
            text += " " + redaction.inLine(headers)
        }
        if let body = redaction.describeBody(body, streamed: streamedBody) {
            text += " (body: \(body))"
        }
        return text
    }

    /// The description with the type's name and the limits that are set:
    ///
    /// ```
    /// Endpoint(GET https://shop.test/v1/me [Authorization: <redacted>], timeout: 5.0 s)
    /// ```
    public var debugDescription: String {
        var parts = [description]
        if let timeout {
            parts.append("timeout: \(timeout) s")
        }
        if let maximumResponseSize {
            parts.append("maximum response size: \(maximumResponseSize) bytes")
        }
        return "Endpoint(\(parts.joined(separator: ", ")))"
    }

    /// The method, the redacted URL, the headers (secret values hidden), the body's size or
    /// kind and the limits that are set, so that `dump` hides what the description hides.
    public var customMirror: Mirror {
        let redaction = Redaction.default
        var children: [Mirror.Child] = [
            ("method", method.rawValue), ("url", shownURL(redaction)), ("headers", redaction.redact(headers)),
        ]
        if let body = redaction.describeBody(body, streamed: streamedBody) {
            children.append(("body", body))
        }
        if let timeout {
            children.append(("timeout", timeout))
        }
        if let maximumResponseSize {
            children.append(("maximumResponseSize", maximumResponseSize))
        }
        return Mirror(self, children: children, displayStyle: .struct)
    }

    /// The redacted URL, or what it would be made of when it cannot be made.
    private func shownURL(_ redaction: Redaction) -> String {
        if let url {
            return redaction.redact(url)
        }
        let query = queryItems.isEmpty ? "" : "?" + redaction.inLine(queryItems)
        return "\(destination)\(path)\(query) (not a valid URL)"
    }
}

/// A destination shows its base URL redacted (user, password and secret query values hidden),
/// or its scheme, host and port.
extension Endpoint.Destination: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The base URL, redacted (`https://<redacted>:<redacted>@shop.test/v1`), or
    /// `scheme://host:port`.
    public var description: String {
        switch self {
        case .baseURL(let url):
            Redaction.default.redact(url)
        case .server(let scheme, let host, let port):
            "\(scheme)://\(host)" + (port.map { ":\($0)" } ?? "")
        }
    }

    /// The description with the case's name: `.baseURL(https://shop.test/v1)` or
    /// `.server(http://127.0.0.1:8080)`.
    public var debugDescription: String {
        switch self {
        case .baseURL: ".baseURL(\(description))"
        case .server: ".server(\(description))"
        }
    }

    /// The redacted base URL as text, or the scheme, host and port.
    public var customMirror: Mirror {
        switch self {
        case .baseURL:
            Mirror(self, children: ["baseURL": description], displayStyle: .enum)
        case .server(let scheme, let host, let port):
            Mirror(self, children: ["scheme": scheme, "host": host, "port": port as Any], displayStyle: .enum)
        }
    }
}
