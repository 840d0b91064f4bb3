#!/usr/bin/env python3
"""A seeded fault-injecting TCP proxy for Courier's chaos soak (`ci/bench chaos`).

It sits on loopback in front of plain-HTTP upstreams (nginx, httpbin, the fault server) and, for
every accepted connection, picks from the seed either pass-through or one fault:

    pass       forward both ways untouched
    reset      after a random number of bytes (usually of the response) send a TCP RST
               (SO_LINGER 0, then close) to the client and drop the upstream
    stall      after a random number of response bytes stop forwarding for a while (sometimes
               longer than the client's timeout), then go on
    truncate   after a random number of response bytes close both sides (a FIN: a cut body)
    delay-head hold the first response bytes back for a while
    split      write the first response bytes in pieces of 1 to 7 bytes, with TCP_NODELAY

The choice and its parameters come only from `random.Random("<seed>:<connection index>")`, so the
same seed gives the same schedule per connection index (indexes count accepted connections over
all routes, from 0). Connection order itself depends on the client, so two runs differ in which
request meets which fault, not in the faults.

Usage:
    chaos_proxy.py --seed S --route NAME=HOST:PORT [--route ...] --ready-file F

Every route listens on 127.0.0.1 on a port the kernel picks. The ready file is written atomically
once all listen, as `KEY=VALUE` lines: `CHAOS_PROXY_PID`, and `CHAOS_<NAME>_URL=http://127.0.0.1:P`
per route. SIGTERM or SIGINT stops it; on exit it logs `chaos-proxy faults <kind>=<count> ...` to
stderr, the tally of faults it chose.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import resource
import signal
import socket
import sys

# The fault server beside this file: its RST and its atomic ready file.
from fault_server import send_reset, write_ready_file

log = logging.getLogger("chaos_proxy")

HOST = "127.0.0.1"
READ_SIZE = 64 * 1024
# A stall "beyond the client's timeout": the soak's timed requests allow a few seconds.
LONG_STALL = 12.0
# Splitting stops after this many response bytes, so that a split download still ends in time.
SPLIT_LIMIT = 16 * 1024
# Weights of each choice, in the order of FAULTS.
FAULTS = ["pass", "reset", "stall", "truncate", "delay-head", "split"]
WEIGHTS = [40, 12, 8, 12, 14, 14]


class Plan:
    """What one connection does, drawn from its own random generator."""

    def __init__(self, seed: str, index: int) -> None:
        rng = random.Random(f"{seed}:{index}")
        self.kind = rng.choices(FAULTS, WEIGHTS)[0]
        # Most faults act on the response; a reset sometimes cuts the request instead.
        self.on_request = self.kind == "reset" and rng.random() < 0.2
        # A request cut lands in a GET's head now and then, in a POST's body mostly.
        self.offset = rng.randint(0, 2048) if self.on_request else rng.randint(0, 96 * 1024)
        if self.kind == "truncate":
            self.offset = max(1, self.offset)
        self.stall = LONG_STALL if rng.random() < 0.15 else rng.uniform(0.05, 2.0)
        self.delay = rng.uniform(0.02, 1.5)
        self.pieces = random.Random(rng.random())

    def describe(self) -> str:
        if self.kind == "reset":
            return f"reset {'request' if self.on_request else 'response'}@{self.offset}"
        if self.kind in ("stall",):
            return f"stall response@{self.offset} for {self.stall:.2f}s"
        if self.kind == "truncate":
            return f"truncate response@{self.offset}"
        if self.kind == "delay-head":
            return f"delay-head {self.delay:.2f}s"
        return self.kind


class Proxy:
    def __init__(self, seed: str) -> None:
        self.seed = seed
        self.next_index = 0
        self.tally: dict[str, int] = {name: 0 for name in FAULTS}
        self.connections: set[asyncio.Task] = set()

    async def serve(self, client_reader, client_writer, upstream: tuple[str, int]) -> None:
        index = self.next_index
        self.next_index += 1
        plan = Plan(self.seed, index)
        self.tally[plan.kind] += 1
        log.debug("connection %d: %s", index, plan.describe())
        task = asyncio.current_task()
        self.connections.add(task)
        upstream_writer = None
        pumps: list[asyncio.Task] = []
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection(*upstream)
            client_writer.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            upward = asyncio.create_task(self.pump(client_reader, upstream_writer, client_writer, plan, True))
            downward = asyncio.create_task(self.pump(upstream_reader, client_writer, client_writer, plan, False))
            pumps = [upward, downward]
            done, _ = await asyncio.wait(pumps, return_when=asyncio.FIRST_COMPLETED)
            # The upstream closing, a cut or an error ends the connection at once; the client
            # half-closing leaves the response to finish.
            if upward in done and downward not in done and upward.exception() is None and upward.result() == "eof":
                await asyncio.wait_for(asyncio.shield(downward), timeout=60)
        except (ConnectionError, OSError, asyncio.IncompleteReadError, asyncio.TimeoutError):
            pass
        except Exception:  # pragma: no cover - one connection's bug must not stop the proxy
            log.exception("connection %d failed", index)
        finally:
            for pump in pumps:
                pump.cancel()
            for pump in pumps:
                try:
                    await pump
                except BaseException:
                    pass
            for writer in (client_writer, upstream_writer):
                if writer is not None and not writer.transport.is_closing():
                    writer.close()
            self.connections.discard(task)

    async def pump(self, reader, writer, client, plan: Plan, request: bool) -> str:
        """Copies one direction, applying the plan's fault to it; returns "cut" when it cut."""
        forwarded = 0
        acts = plan.on_request == request and plan.kind in ("reset", "stall", "truncate")
        if not request and plan.kind in ("delay-head", "split"):
            acts = True
        while True:
            data = await reader.read(READ_SIZE)
            if not data:
                if request and writer.can_write_eof():
                    writer.write_eof()  # the client half-closed: pass its FIN on
                return "eof"
            if acts and plan.kind in ("reset", "stall", "truncate") and forwarded + len(data) > plan.offset:
                head = data[: max(0, plan.offset - forwarded)]
                if head:
                    writer.write(head)
                    await writer.drain()
                    forwarded += len(head)
                data = data[len(head) :]
                if plan.kind == "reset":
                    # Cut in either direction, the client sees the RST on its own socket.
                    send_reset(client)
                    return "cut"
                if plan.kind == "truncate":
                    client.close()
                    return "cut"
                await asyncio.sleep(plan.stall)
                acts = False  # one stall per connection
            if acts and plan.kind == "delay-head":
                await asyncio.sleep(plan.delay)
                acts = False
            if acts and plan.kind == "split":
                view = memoryview(data)
                while view and forwarded < SPLIT_LIMIT:
                    piece = bytes(view[: plan.pieces.randint(1, 7)])
                    writer.write(piece)
                    await writer.drain()
                    forwarded += len(piece)
                    view = view[len(piece) :]
                data = bytes(view)
                acts = forwarded < SPLIT_LIMIT
            if data:
                writer.write(data)
                await writer.drain()
                forwarded += len(data)


async def main(arguments: argparse.Namespace) -> int:
    proxy = Proxy(arguments.seed)
    servers = []
    values: dict[str, object] = {"CHAOS_PROXY_PID": os.getpid()}
    for route in arguments.route:
        name, _, target = route.partition("=")
        host, _, port = target.rpartition(":")
        upstream = (host, int(port))

        async def handle(reader, writer, upstream=upstream):
            await proxy.serve(reader, writer, upstream)

        server = await asyncio.start_server(handle, HOST, 0, backlog=1024)
        servers.append(server)
        port_number = server.sockets[0].getsockname()[1]
        values[f"CHAOS_{name.upper()}_URL"] = f"http://{HOST}:{port_number}"
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    if arguments.ready_file:
        write_ready_file(arguments.ready_file, values)
    log.info("listening: %s", values)
    try:
        await stop.wait()
    finally:
        for server in servers:
            server.close()
        for task in list(proxy.connections):
            task.cancel()
        if arguments.ready_file:
            try:
                os.unlink(arguments.ready_file)
            except FileNotFoundError:
                pass
        tally = " ".join(f"{name}={count}" for name, count in proxy.tally.items())
        print(f"chaos-proxy connections={proxy.next_index} faults {tally}", file=sys.stderr, flush=True)
    return 0


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Seeded fault-injecting TCP proxy")
    parser.add_argument("--seed", required=True, help="the schedule's seed (any string)")
    parser.add_argument("--route", action="append", required=True, help="NAME=HOST:PORT, one per upstream")
    parser.add_argument("--ready-file", help="written once listening: KEY=VALUE lines")
    parser.add_argument("--log-level", default="WARNING")
    return parser.parse_args(argv)


if __name__ == "__main__":
    arguments = parse_arguments(sys.argv[1:])
    logging.basicConfig(level=arguments.log_level, format="%(asctime)s %(name)s %(message)s")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))
    sys.exit(asyncio.run(main(arguments)))
