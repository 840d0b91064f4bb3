"""Prints N distinct free TCP ports on 127.0.0.1, one per line.

All sockets stay bound until every port is chosen, so the ports differ from each other; the kernel
does not hand a just-closed ephemeral port out again at once, which leaves the servers time to bind.

With a second argument, a loopback address range such as 127.0.0.2-127.0.0.33, one more line
follows: a port free on 127.0.0.1 and on every address of the range (the many-origin server listens
on it at each address), chosen while the other ports are still bound.
"""

import ipaddress
import socket
import sys

ATTEMPTS = 100


def bind(address: str, port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind((address, port))
    except OSError:
        sock.close()
        raise
    return sock


def shared_port(addresses: list[str]) -> tuple[int, list[socket.socket]]:
    """A port bound on 127.0.0.1 and on every address, with the sockets that hold it."""
    for _ in range(ATTEMPTS):
        first = bind("127.0.0.1", 0)
        port = first.getsockname()[1]
        held = [first]
        try:
            for address in addresses:
                held.append(bind(address, port))
        except OSError:
            for sock in held:
                sock.close()
            continue
        return port, held
    sys.exit(f"no port free on 127.0.0.1 and all of {addresses[0]}-{addresses[-1]} after {ATTEMPTS} attempts")


def address_range(text: str) -> list[str]:
    first, last = (ipaddress.IPv4Address(part) for part in text.split("-", 1))
    if not (first.is_loopback and last.is_loopback and first <= last):
        sys.exit(f"not a loopback range: {text}")
    return [str(ipaddress.IPv4Address(value)) for value in range(int(first), int(last) + 1)]


def main() -> None:
    count = int(sys.argv[1])
    sockets = []
    for _ in range(count):
        sockets.append(bind("127.0.0.1", 0))
    ports = [sock.getsockname()[1] for sock in sockets]
    if len(sys.argv) > 2:
        port, held = shared_port(address_range(sys.argv[2]))
        ports.append(port)
        sockets += held
    for port in ports:
        print(port)
    for sock in sockets:
        sock.close()


if __name__ == "__main__":
    main()
