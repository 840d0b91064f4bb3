/// `courier --help`: the grammar, every option, the exit statuses and the registered commands.
enum CourierHelp {
    static let synopsis = "usage: courier [OPTIONS] [METHOD] URL [REQUEST_ITEM ...]   (courier --help for more)"

    static func text(_ registry: CommandRegistry) -> String {
        """
        usage: courier [OPTIONS] [METHOD] URL [REQUEST_ITEM ...]
               courier COMMAND [ARGUMENTS]

        An HTTP client in the spirit of httpie, on Courier and libcurl.

        METHOD   GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS, TRACE (any case), or any all-capital
                 word. Default: GET, or POST when the request has a body (data items or stdin).
        URL      http:// or https://; a URL without a scheme gets http://, and :8080/x means
                 http://localhost:8080/x.

        REQUEST_ITEM (a backslash makes the next character literal: a\\=b=c)
          Name:value        a header; 'Name:' removes a default header, 'Name;' sends it empty;
                            'Name:@file' reads the value from a file
          name==value       a query parameter, appended to the URL ('name==@file' from a file)
          name=value        a JSON string field (a form field with --form or --multipart)
          name:=json        a raw JSON field: 42, true, null, [1,2], {"a":1}
          name=@file        a string field read from a file;  name:=@file  raw JSON from a file
          name@path         a file, sent as a multipart part (the body becomes multipart);
                            name@path;type=image/png  sets the part's media type
          JSON keys are paths: user[name]=ann (objects), tags[]=x (append), tags[0]=x (index,
          gaps become null), []:=1 (a top-level array); \\[ and \\] are literal brackets, and
          a[\\1] is the member "1". A key given twice keeps its last value (with a warning);
          forms and query strings send both.

        body:
          -j, --json        data items as a JSON object (the default); Accept asks for JSON
          -f, --form        data items as application/x-www-form-urlencoded (multipart with files)
          --multipart       data items as multipart/form-data
          --raw=TEXT        the body as given (instead of data items or stdin)
          -x, --compress    deflate the body (Content-Encoding: deflate) when that makes it
                            smaller; -xx always
          --chunked         send the body with Transfer-Encoding: chunked
          -I, --ignore-stdin  never read stdin. Without it stdin is the body only when it is a pipe
                            or a regular file with data, the method allows a body (not GET, HEAD,
                            DELETE, OPTIONS, TRACE) and no data items are given; a terminal and
                            /dev/null never are (httpie reads any stdin that is not a terminal)

        output:
          -p, --print=WHAT  H request headers, B request body, h response headers, b response
                            body, m metrics. Default: hb on a terminal, b when redirected
          -h, --headers     --print=h;   -b, --body  --print=b
          -v, --verbose     --print=HBhbm and the request as a curl command line; errors add the
                            library's description and libcurl's code (--debug adds only that).
                            The request head shows the Cookie header the cookie jar (and
                            --session) adds
          -q, --quiet       print nothing on stdout (errors and warnings still go to stderr)
          --pretty=STYLE    all (colour and formatted JSON, the default on a terminal), colors,
                            format (JSON indented by 4), none (the default when redirected)
          -o, --output=FILE write the output to FILE instead of stdout (the download with -d);
                            the body goes to FILE as it arrives
          --all             with --follow, print each redirect's response head before the last
          --offline         build the request and print it (default --print=HB), send nothing
          --metrics         the metrics on stderr, whatever --print says
          --check-status    exit 3, 4 or 5 for a 3xx, 4xx or 5xx response (and warn on stderr)

        sessions:
          --session=NAME|PATH  keep headers, cookies and -a credentials between invocations, in
                            httpie's session file format: NAME is per host, under
                            $XDG_CONFIG_HOME/courier/sessions/HOST_PORT/NAME.json (~/.config
                            without it, mode 0600); a value with a / is a file path
          --session-read-only=NAME|PATH  use a session without saving changes to it

        downloads:
          -d, --download    save the body to --output FILE, else the name Content-Disposition
                            offers (a bare name only), else the URL's file name, with a live
                            progress line (bytes, rate, time left) on stderr; implies --check-status
          -c, --continue    resume a partial --output FILE. Courier keeps FILE.resumedata (the
                            URL and the file's ETag or Last-Modified) while FILE is partial and
                            resumes with Range and If-Range, so a file that changed on the server
                            restarts cleanly; httpie resumes without If-Range and splices two
                            versions. A partial file without its record is downloaded again;
                            a 416 answer means FILE is already complete (as httpie takes it),
                            unless its Content-Range names another length than FILE's
          --progress        draw the progress line even when stderr is not a terminal, for
                            uploads too (on a terminal, bodies over 1 MiB draw one anyway)

        streaming:
          --stream          read the response as Server-Sent Events (text/event-stream) and print
                            each event as it arrives, reconnecting with Last-Event-ID after a drop,
                            until the server ends the stream (204) or the command is interrupted

        network:
          -F, --follow      follow redirects (not by default, as httpie)
          --max-redirects=N with --follow, at most N redirects (default 30), then exit 6
          --retries=N       retry idempotent requests up to N times on connection errors and
                            408, 500, 502, 503, 504 (honouring Retry-After); default 0
          --timeout=SECONDS the whole request, retries and redirects included, then exit 2.
                            httpie's --timeout is an idle timeout (no bytes for SECONDS); Courier's
                            transport has its own idle limit of 60 s
          --connect-timeout=SECONDS  name lookup, TCP and TLS handshakes (default 30)
          --wait-for-network  when a connection fails because the host is unreachable (netlink's
                            view of the routes), wait up to 30 s for the network to come back, then
                            try once more (idempotent requests)
          --proxy=URL       use this proxy for every request (httpie's http:URL form works too);
                            --no-proxy ignores http_proxy and friends
          --cacert=FILE     trust the CAs in FILE (PEM) instead of the system store
          --verify=yes|no|FILE  httpie's spelling: no is --insecure, FILE is --cacert
          --path-as-is      send the URL's path as typed: /a/../b goes out as it is, not as /b

        authentication:
          -a, --auth=USER[:PASS]  credentials; without PASS, asked for on a terminal (with no
                            terminal, an error). Also taken from http://USER:PASS@host/ and from
                            ~/.netrc (or $NETRC) for the URL's host, as httpie does
          -A, --auth-type=basic|digest|bearer  basic (default) and bearer are sent at once in
                            Authorization; digest answers the server's challenge. With bearer,
                            -a is the token. Credentials never follow a redirect to another origin
          --ignore-netrc    never read ~/.netrc

        trust and identity (checked before anything is sent; a problem exits 1):
          --pin-key=sha256//BASE64   accept only a server whose public key has this SPKI SHA-256
                            pin (repeatable: any one matches); the chain and host are still verified
          --pin-cert=FILE   accept only a server whose chain verifies against the certificates in
                            FILE (PEM or DER; repeatable)
          --crlfile=FILE    refuse a server whose certificate a CRL in FILE (PEM or DER) lists, or
                            whose chain it does not cover (repeatable)
          --ocsp=required|preferred  ask for a stapled OCSP response: required refuses a server
                            that staples none; both refuse a revoked, stale or unverifiable one
          --cert=FILE       present a client certificate: PEM (its key inside, or --cert-key), DER,
                            or a PKCS#12 bundle (.p12, .pfx)
          --cert-key=FILE   the client certificate's private key (PEM or DER; also --key)
          --cert-key-pass=PASSPHRASE  the key's or bundle's passphrase (also --pass)
          -k, --insecure    do not verify the server's certificate or host name (not with pins,
                            --crlfile or --ocsp)
          --http1.1         HTTP/1.1 only;  --http2  also offer HTTP/2 on http:// (h2c Upgrade);
                            https:// negotiates HTTP/2 by default
          -H, --header='Name: value'  a header, like the Name:value item
          --report-rss      print peak_rss_mib=N on stderr at exit

        other:
          --version         print the version
          --completion=bash|zsh  print a completion script: source <(courier --completion bash)

        exit status: 0 done, 1 error (bad arguments included), 2 timed out, 3/4/5 a 3xx/4xx/5xx
        response with --check-status or --download, 6 too many redirects

        commands (these words are reserved as the first argument; for a host of that name write
        http://NAME):
        \(registry.summaryLines.joined(separator: "\n"))

        examples:
          courier httpbin.org/get search==courier
          courier POST httpbin.org/anything name=Ada age:=36 X-Trace:1
          courier --form POST httpbin.org/anything photo@cat.jpg title=Cat
          courier -d -o big.iso https://example.com/big.iso      # then --continue after a break
          courier -v --follow --retries=3 httpbin.org/redirect/2
          courier -a ann httpbin.org/basic-auth/ann/s3cret      # asks for the password
          courier PUT httpbin.org/put user[name]=ann user[tags][]=admin
          printf 'hi\\n' | courier ws --max-messages=1 wss://echo.example/chat   # courier ws --help
        """
    }
}
