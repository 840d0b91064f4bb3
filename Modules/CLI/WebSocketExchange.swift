internal import CourierWebSocket

/// One `courier ws` conversation on an open connection: stdin's lines go out as text messages while
/// every message the server sends is written out, until the closing handshake ends it.
///
/// At stdin's end the client closes normally (1000) and reads on until the server's close arrives.
/// With `--max-messages N` it closes after the N-th message instead, and stdin's end only stops
/// the sending: a server may drop its replies to messages that reach it just before a close (the
/// `websockets` package does), so a script that expects N replies says so.
struct WebSocketExchange {
    /// How the conversation ended.
    enum Outcome: Equatable {
        /// The closing handshake finished; the close the server sent (or 1005/1006, see
        /// ``CourierWebSocket/WebSocketConnection/closeStatus``).
        case closed(WebSocketClose?)
        /// The connection failed.
        case failed(WebSocketError)
        /// A message could not be written out (a closed stdout, a full disk).
        case outputFailed(String)

        static func == (lhs: Outcome, rhs: Outcome) -> Bool {
            switch (lhs, rhs) {
            case (.closed(let left), .closed(let right)): left == right
            case (.failed(let left), .failed(let right)): "\(left)" == "\(right)"
            case (.outputFailed(let left), .outputFailed(let right)): left == right
            default: false
            }
        }
    }

    let connection: any WebSocketConnection
    let printer: WebSocketMessagePrinter
    /// The lines to send; `nil` sends nothing (`--ignore-stdin`).
    let lines: (any LineSource)?
    /// `--max-messages`.
    let maximumMessages: Int?

    func run() async -> Outcome {
        let connection = connection
        let closesAtEnd = maximumMessages == nil
        let sender = lines.map { lines in
            Task {
                while let line = await lines.next() {
                    do {
                        try await connection.send(.text(line))
                    } catch {
                        // The reader sees the failure or the close that stopped the send.
                        return
                    }
                }
                if closesAtEnd { await connection.close() }
            }
        }
        defer { sender?.cancel() }
        var received = 0
        var closer: Task<Void, Never>?
        defer { closer?.cancel() }
        do {
            for try await message in connection.messages {
                received += 1
                if let maximumMessages, received > maximumMessages { continue }
                try printer.write(message)
                if received == maximumMessages {
                    // Closed from a task of its own: the closing handshake needs this loop to keep
                    // reading until the server's close arrives.
                    closer = Task { await connection.close() }
                }
            }
        } catch let error as WebSocketError {
            return .failed(error)
        } catch let error as CommandFailure {
            // The client's shutdown says 1001 to the server.
            return .outputFailed(error.message)
        } catch {
            return .outputFailed("\(error)")
        }
        return .closed(connection.closeStatus)
    }
}
