import Foundation
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a composer that only watches calls (logging, metrics) keeps of one call between its
/// start and its end.
protocol CallWatch: Sendable {
    /// Called once, when the call below has answered or failed.
    func ended(with result: Result<(Data, URLResponse), any Error>)
}

extension Composer {
    /// A composer, at `place`, that watches each call and changes nothing: `begin` runs as a
    /// call starts (with the call's request and context) and gives the watch that learns how it
    /// ended. Written once, it has both shapes: awaited, and direct (no task of its own).
    static func watching<Watch: CallWatch>(
        at place: Place, _ begin: @escaping @Sendable (URLRequest, RequestContext) -> Watch
    ) -> Composer {
        Composer(
            at: place,
            { next in
                { request in
                    let watch = begin(request, RequestContext.current)
                    do {
                        let answer = try await next(request)
                        watch.ended(with: .success(answer))
                        return answer
                    } catch {
                        watch.ended(with: .failure(error))
                        throw error
                    }
                }
            },
            direct: { next in
                { request, context in
                    let watch = begin(request, context)
                    return next(request, context).always { result in watch.ended(with: result) }
                }
            }
        )
    }
}
