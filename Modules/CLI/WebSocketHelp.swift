/// `courier ws --help`.
enum WebSocketHelp {
    static let text = """
        usage: courier ws URL [HEADER:VALUE ...] [OPTIONS]

        Opens a WebSocket (RFC 6455), sends each line of stdin as a text message and prints each
        message the server sends on a line of its own: text as it is, binary as base64 (or appended
        to a file with --binary-to). At the end of stdin (Ctrl-D on a terminal) it closes normally
        (1000) and waits for the server's close; Ctrl-C closes with 1001 (going away) and exits 130,
        a second Ctrl-C at once.

        URL      ws:// or wss:// (http:// and https:// are taken as the same); :8080/chat means
                 ws://localhost:8080/chat. Name:value items add headers to the handshake, name==value
                 items query parameters.

        WebSocket options:
          --subprotocol=NAME      offer a subprotocol in Sec-WebSocket-Protocol (repeatable, in order)
          --no-compression        do not offer permessage-deflate (RFC 7692); offered by default
          --max-message-size=BYTES  the largest message (and frame) accepted, after decompression:
                                  65536, 64k, 16M (default 16M); a larger one fails with 1009
          --ping-interval=SECONDS send a ping this often while the connection is idle
          --binary-to=FILE        append binary messages to FILE instead of printing base64 lines
          --max-messages=N        close after N messages have arrived (the end of stdin then only
                                  stops sending): a server may drop replies to messages that reach
                                  it just before a close
          -I, --ignore-stdin      send nothing; wait for the server to close

        Shared with the HTTP commands (see courier --help): -H/--header, -a/--auth, -A/--auth-type,
        --ignore-netrc, --timeout (the handshake), --connect-timeout, --proxy, --no-proxy, --cacert,
        --verify, -k/--insecure, --pin-key, --pin-cert, --crlfile, --ocsp, --cert, --cert-key,
        --cert-key-pass, --wait-for-network, --report-rss, -v/--verbose (the handshake's request and
        response heads on stderr; errors add the library's description), --debug.

        exit status: 0 after a normal close (1000, or 1001 from the server); 1 for another close code
        (printed with its reason), a protocol violation or a failed connection; 2 timed out; 3, 4 or 5
        for an upgrade refused with a 3xx, 4xx or 5xx.

        examples:
          printf 'hello\\nworld\\n' | courier ws --max-messages=2 wss://echo.example/chat
          courier ws wss://chat.example/ws Authorization:'Bearer abc' --subprotocol=chat.v2
          courier ws -I --binary-to=frames.bin ws://localhost:8080/feed
        """
}
