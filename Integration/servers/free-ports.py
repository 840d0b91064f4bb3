"""Prints N distinct free TCP ports on 127.0.0.1, one per line.

All sockets stay bound until every port is chosen, so the ports differ from each other; the kernel
does not hand a just-closed ephemeral port out again at once, which leaves the servers time to bind.
"""

import socket
import sys


def main() -> None:
    count = int(sys.argv[1])
    sockets = []
    for _ in range(count):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        sockets.append(sock)
    for sock in sockets:
        print(sock.getsockname()[1])
    for sock in sockets:
        sock.close()


if __name__ == "__main__":
    main()
