"""Parses multipart bodies written by Courier with werkzeug and compares them with the expected parts.

Input (stdin, JSON): {"forms": [{"content_type": str, "body": base64, "parts": [
    {"name": str, "filename": str | null, "content_type": str | null, "data": base64}]}]}
Output (stdout, JSON): {"checked_forms": int, "checked_parts": int, "mismatch_count": int,
    "mismatches": [first 50], "notes": {...}}

Each body is parsed twice: by werkzeug.formparser.parse_form_data through a WSGI environ carrying
CONTENT_TYPE and CONTENT_LENGTH (what a Flask app sees), and by werkzeug's sans-IO
MultipartDecoder, which yields every part in order with its raw bytes.

What werkzeug gives back for a name or filename is modelled, not assumed equal to the original:
Courier escapes '"' as %22, CR as %0D and LF as %0A (the WHATWG HTML multipart/form-data encoding);
werkzeug turns %22 back into '"' and leaves %0D and %0A as they are, like the HTML standard's own
parsing advice. So a name holding CR or LF comes back with the %0D / %0A text, and a name that
literally contained "%22" comes back with '"'. Form fields (parts without a filename) come back as
text decoded from UTF-8 with replacement characters; the decoder pass compares their raw bytes.
"""

import base64
import io
import json
import sys

from werkzeug.formparser import parse_form_data
from werkzeug.sansio.multipart import Data, Epilogue, Field, File, MultipartDecoder, NeedData


def whatwg_escape(text):
    return text.replace('"', "%22").replace("\r", "%0D").replace("\n", "%0A")


def werkzeug_view(text):
    """What werkzeug reports for a name or filename that Courier escaped."""
    return whatwg_escape(text).replace("%22", '"')


def boundary_of(content_type):
    parameter = content_type.split("boundary=", 1)[1]
    return parameter[1:-1] if parameter.startswith('"') else parameter


def check_form_parser(index, form, body, expected, mismatches):
    environ = {
        "REQUEST_METHOD": "POST",
        "CONTENT_TYPE": form["content_type"],
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.input": io.BytesIO(body),
    }
    _, fields, files = parse_form_data(environ, silent=False)
    field_queues = {}
    file_queues = {}
    for name, value in fields.items(multi=True):
        field_queues.setdefault(name, []).append(value)
    for name, storage in files.items(multi=True):
        file_queues.setdefault(name, []).append(
            (storage.filename, storage.content_type, storage.read())
        )
    for number, part in enumerate(expected):
        name = werkzeug_view(part["name"])
        if part["filename"] is None:
            queue = field_queues.get(name, [])
            want = part["bytes"].decode("utf-8", "replace")
            got = queue.pop(0) if queue else None
            if got != want:
                mismatches.append({"form": index, "part": number, "parser": "parse_form_data",
                                   "what": "field", "name": name, "expected": want, "got": got})
        else:
            queue = file_queues.get(name, [])
            want = (werkzeug_view(part["filename"]), part["content_type"], part["bytes"])
            got = queue.pop(0) if queue else None
            if got != want:
                mismatches.append({"form": index, "part": number, "parser": "parse_form_data",
                                   "what": "file", "name": name,
                                   "expected": [want[0], want[1], len(want[2])],
                                   "got": None if got is None else [got[0], got[1], len(got[2])]})
    leftovers = sum(len(queue) for queue in field_queues.values()) + sum(len(q) for q in file_queues.values())
    if leftovers:
        mismatches.append({"form": index, "parser": "parse_form_data", "what": "extra parts", "got": leftovers})


def check_decoder(index, form, body, expected, mismatches):
    decoder = MultipartDecoder(boundary_of(form["content_type"]).encode("latin-1"))
    decoder.receive_data(body)
    decoder.receive_data(None)
    parts = []
    while True:
        event = decoder.next_event()
        if isinstance(event, (Epilogue, NeedData)):
            break
        if isinstance(event, (Field, File)):
            parts.append({"name": event.name, "filename": getattr(event, "filename", None),
                          "content_type": event.headers.get("content-type"), "bytes": b""})
        elif isinstance(event, Data):
            parts[-1]["bytes"] += event.data
    if len(parts) != len(expected):
        mismatches.append({"form": index, "parser": "MultipartDecoder", "what": "part count",
                           "expected": len(expected), "got": len(parts)})
        return
    for number, (got, want) in enumerate(zip(parts, expected)):
        wanted = {"name": werkzeug_view(want["name"]),
                  "filename": None if want["filename"] is None else werkzeug_view(want["filename"]),
                  "content_type": want["content_type"], "bytes": want["bytes"]}
        for key in ("name", "filename", "content_type", "bytes"):
            if got[key] != wanted[key]:
                shown = (lambda v: len(v)) if key == "bytes" else (lambda v: v)
                mismatches.append({"form": index, "part": number, "parser": "MultipartDecoder", "what": key,
                                   "expected": shown(wanted[key]), "got": shown(got[key])})


def main():
    request = json.load(sys.stdin)
    mismatches = []
    checked_parts = 0
    notes = {"names_with_quotes": 0, "names_with_line_breaks": 0, "filenames_with_quotes": 0,
             "names_returned_verbatim": 0}
    for index, form in enumerate(request["forms"]):
        body = base64.b64decode(form["body"])
        expected = []
        for part in form["parts"]:
            # Swift's JSONEncoder leaves out nil values, so absent keys mean null.
            part = {"name": part["name"], "filename": part.get("filename"),
                    "content_type": part.get("content_type"), "data": part["data"]}
            expected.append(dict(part, bytes=base64.b64decode(part["data"])))
            checked_parts += 1
            notes["names_with_quotes"] += '"' in part["name"]
            notes["names_with_line_breaks"] += ("\r" in part["name"]) or ("\n" in part["name"])
            notes["filenames_with_quotes"] += part["filename"] is not None and '"' in part["filename"]
            notes["names_returned_verbatim"] += werkzeug_view(part["name"]) == part["name"]
        try:
            check_form_parser(index, form, body, expected, mismatches)
            check_decoder(index, form, body, expected, mismatches)
        except Exception as error:  # a parser failure is a mismatch, reported with its text
            mismatches.append({"form": index, "what": "exception", "got": repr(error)})
    json.dump({"checked_forms": len(request["forms"]), "checked_parts": checked_parts,
               "mismatch_count": len(mismatches), "mismatches": mismatches[:50], "notes": notes},
              sys.stdout)


if __name__ == "__main__":
    main()
