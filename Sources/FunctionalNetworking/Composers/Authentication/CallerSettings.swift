/// Runs `operation` — work a composer starts for its own purpose, such as a credential refresh —
/// without the per-call settings of the call that started it: no status rule, response limit,
/// download target, progress observer, request context or cookie memo. The refresh is a call of
/// its own: a download's destination, a `validatingStatus()` rule or an endpoint's size limit
/// belong to the request that met the 401, not to the token request.
func withoutCallerSettings<Output>(_ operation: () async throws -> Output) async throws -> Output {
    try await StatusCheck.$current.withValue(nil) {
        try await PackageSession.$endpointResponseLimit.withValue(nil) {
            try await TransferContext.$download.withValue(nil) {
                try await TransferContext.$progress.withValue(nil) {
                    try await RequestContext.$current.withValue(nil) {
                        try await RequestContext.$chosenID.withValue(nil) {
                            try await StoredCookiesMemo.$current.withValue(nil) { try await operation() }
                        }
                    }
                }
            }
        }
    }
}
