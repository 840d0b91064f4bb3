#!/usr/bin/env python3
"""Runs a command with its stdin and stderr on a pseudo-terminal, answers its password prompt, and
reports what the terminal showed: the test of a prompt that must not echo what is typed.

Usage:
    pty_prompt.py --answer TEXT [--prompt TEXT] [--timeout S] -- COMMAND [ARGUMENT ...]

It waits for PROMPT (default "password for ") on the terminal, then until the command has turned
the terminal's echo off (read from the terminal's attributes, so the answer is never typed into a
terminal that would still echo it or flush it), types TEXT and a newline, and reads the terminal
until the command exits. It prints one JSON object: {"status": exit status, "echo_off": whether
echo was off when it typed, "terminal": everything the terminal showed, "stdout": the command's
standard output (a pipe)}.
"""

from __future__ import annotations

import argparse
import json
import os
import pty
import select
import subprocess
import termios
import time


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--answer", required=True)
    parser.add_argument("--prompt", default="password for ")
    parser.add_argument("--timeout", type=float, default=30)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    arguments = parser.parse_args()
    command = arguments.command[1:] if arguments.command[:1] == ["--"] else arguments.command
    master, slave = pty.openpty()
    child = subprocess.Popen(command, stdin=slave, stdout=subprocess.PIPE, stderr=slave, start_new_session=True)
    deadline = time.monotonic() + arguments.timeout
    shown = b""
    answered = False
    echo_off = False
    while time.monotonic() < deadline:
        if not answered and arguments.prompt.encode() in shown:
            echo_off = not termios.tcgetattr(slave)[3] & termios.ECHO
            if echo_off:
                os.write(master, arguments.answer.encode() + b"\n")
                answered = True
        ready, _, _ = select.select([master], [], [], 0.02)
        if ready:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                chunk = b""
            shown += chunk
        elif child.poll() is not None:
            break
    if child.poll() is None:
        child.kill()
    output = child.stdout.read() if child.stdout else b""
    status = child.wait()
    os.close(slave)
    os.close(master)
    print(
        json.dumps(
            {
                "status": status,
                "echo_off": echo_off,
                "terminal": shown.decode("utf-8", "replace"),
                "stdout": output.decode("utf-8", "replace"),
            }
        )
    )


if __name__ == "__main__":
    main()
