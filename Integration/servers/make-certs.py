"""Writes a fresh test PKI for one run of the integration servers.

Usage: make-certs.py DIRECTORY

- ca.pem: a per-run certificate authority that the tests trust (TEST_CA_FILE);
- server.pem / server.key: a leaf for localhost, 127.0.0.1, ::1 and api.test, chain included;
- client.pem / client.key: a client certificate from the same CA, for mutual TLS;
- other-ca.pem: an unrelated CA that trusts nothing we serve, for negative trust tests.

The self-signed certificate comes from the openssl CLI instead (ci/servers), so the tests also see a
certificate that no Python library shaped.
"""

import os
import sys

import trustme


def main() -> None:
    directory = sys.argv[1]
    os.makedirs(directory, exist_ok=True)
    ca = trustme.CA(organization_name="Courier test CA")
    ca.cert_pem.write_to_path(os.path.join(directory, "ca.pem"))

    server = ca.issue_cert("localhost", "127.0.0.1", "::1", "api.test", common_name="localhost")
    server.private_key_pem.write_to_path(os.path.join(directory, "server.key"))
    with open(os.path.join(directory, "server.pem"), "wb") as chain:
        for blob in server.cert_chain_pems:
            chain.write(blob.bytes())

    client = ca.issue_cert("client.courier.test", common_name="courier-test-client")
    client.private_key_pem.write_to_path(os.path.join(directory, "client.key"))
    client.cert_chain_pems[0].write_to_path(os.path.join(directory, "client.pem"))

    trustme.CA(organization_name="Unrelated test CA").cert_pem.write_to_path(
        os.path.join(directory, "other-ca.pem")
    )


if __name__ == "__main__":
    main()
