#!/usr/bin/env python3
"""Decode Courier's query strings and form bodies with werkzeug and compare them to the expected pairs.

Reads JSON on stdin:

    {"cases": [{"query": "a=1&b%5B%5D=x", "form": "a=1&b%5B%5D=x" | null,
                "expected": [["<field hex>", "<value hex>" | null], ...]}, ...]}

Fields and values travel as hex because they may hold bytes that are not UTF-8 (``.data`` values).
Each query string is parsed as a request's URL query (``Request.args``) and each form body as a
``POST`` body of type ``application/x-www-form-urlencoded`` (``Request.form``, werkzeug's form
parser); both are werkzeug ``MultiDict``s.

werkzeug's rules that the expectation mirrors: a bare field (a null) reads as an empty value; an
empty segment (a null under an empty field) is skipped; bytes that are not UTF-8 stay percent-encoded
(the ``werkzeug.url_quote`` error handler). A ``MultiDict`` groups values by field, so the comparison is
per field (fields in first-seen order, each field's values in order).

Prints JSON: {"werkzeug": version, "cases": n, "checked": n, "mismatches": [...]}.
"""

import json
import sys
from importlib.metadata import version

import werkzeug.urls  # noqa: F401  (registers the "werkzeug.url_quote" codec error handler)
from werkzeug.test import EnvironBuilder
from werkzeug.wrappers import Request


def decode(hex_text):
    return bytes.fromhex(hex_text).decode("utf-8", "werkzeug.url_quote")


def expected_lists(pairs):
    lists = {}
    for field_hex, value_hex in pairs:
        field = decode(field_hex)
        if value_hex is None and field == "":
            continue
        lists.setdefault(field, []).append("" if value_hex is None else decode(value_hex))
    return [[field, values] for field, values in lists.items()]


def parsed_lists(multidict):
    return [[field, list(values)] for field, values in multidict.lists()]


def main():
    request = json.load(sys.stdin)
    mismatches = []
    checked = 0
    for index, case in enumerate(request["cases"]):
        expected = expected_lists(case["expected"])
        query_request = Request(EnvironBuilder(path="/", query_string=case["query"]).get_environ())
        got = parsed_lists(query_request.args)
        checked += 1
        if got != expected:
            mismatches.append({"index": index, "kind": "query", "input": case["query"], "expected": expected, "got": got})
        form = case.get("form")
        if form is not None:
            builder = EnvironBuilder(
                path="/",
                method="POST",
                data=form.encode("ascii"),
                content_type="application/x-www-form-urlencoded",
            )
            got = parsed_lists(Request(builder.get_environ()).form)
            checked += 1
            if got != expected:
                mismatches.append({"index": index, "kind": "form", "input": form, "expected": expected, "got": got})
    json.dump(
        {"werkzeug": version("werkzeug"), "cases": len(request["cases"]), "checked": checked, "mismatches": mismatches},
        sys.stdout,
    )


if __name__ == "__main__":
    main()
