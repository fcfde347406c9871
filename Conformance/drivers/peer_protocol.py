"""The line-JSON driver loop (Spec/conformance.md §2) shared by the third-party peer drivers.

A peer driver supplies `hello()` and a handler per operation; this module reads one request per
line, calls the handler and writes one response per line with the request's `id`.

Error answers follow one rule in every peer driver: a library error is given a spec error name
(Spec/png.md §9, Spec/deflate.md §7) only when the library's own message says exactly that
condition; anything else is answered `{"error": "unmapped", "message": ...}` with the library's
words, so the table can show what the library said instead of a guess. `unsupported` means the
library offers no way to do what the request asks (a pixel format it cannot hold, a limit it does
not have).
"""
import base64
import json
import sys
import traceback

# Spec/conformance.md §5.2: name -> (PNG colour type, bit depth, channels).
FORMATS = {
    "gray8": (0, 8, 1), "grayAlpha8": (4, 8, 2), "rgb8": (2, 8, 3), "rgba8": (6, 8, 4),
    "gray16": (0, 16, 1), "grayAlpha16": (4, 16, 2), "rgb16": (2, 16, 3), "rgba16": (6, 16, 4),
}


class Answer(Exception):
    """Raised by a handler to answer with an error (a spec name, `unmapped` or `unsupported`)."""

    def __init__(self, name, message=""):
        super().__init__(message)
        self.name = name
        self.message = message

    def response(self):
        response = {"error": self.name}
        if self.message:
            response["message"] = self.message
        return response


def unmapped(library, error):
    """The answer for a library error that names no spec condition."""
    return Answer("unmapped", f"{library}: {type(error).__name__}: {error}")


# zlib's own messages (inflate.c, inftrees.c of zlib 1.2.x) that name exactly one condition of
# Spec/deflate.md §7. Messages shared by several conditions are left out on purpose:
# "invalid code lengths set", "invalid literal/lengths set" and "invalid distances set" (an
# oversubscribed or an incomplete code), "invalid bit length repeat" (a repeat with no previous
# length, or one past the last length), "invalid literal/length code" and "invalid distance
# code" (a fixed-code symbol 286/287/30/31, or an unassigned code of an incomplete code).
ZLIB_MESSAGES = {
    "incorrect header check": "invalidZlibHeader",
    "unknown compression method": "invalidZlibHeader",
    "invalid window size": "invalidZlibHeader",
    "invalid block type": "invalidBlockType",
    "invalid stored block lengths": "storedLengthMismatch",
    "too many length or distance symbols": "tooManyCodes",
    "invalid code -- missing end-of-block": "missingEndOfBlock",
    "invalid distance too far back": "distanceTooFar",
    "incorrect data check": "adlerMismatch",
    # Python's zlib module words zlib's Z_NEED_DICT (2), which means only that, without a text.
    "Error 2 while decompressing data": "presetDictionaryUnsupported",
}


def zlib_name(message):
    """The Spec/deflate.md name for a zlib message, or None (see ZLIB_MESSAGES)."""
    for text, name in ZLIB_MESSAGES.items():
        if text in message:
            return name
    return None


def b64(data):
    return base64.b64encode(bytes(data)).decode("ascii")


def unb64(text):
    return base64.b64decode(text, validate=True)


def decoded(width, height, color_type, bit_depth, interlaced, samples, rgba, rgba_depth, **extra):
    """A `png.decode` response (Spec/conformance.md §5.3)."""
    response = {
        "width": width, "height": height, "colorType": color_type, "bitDepth": bit_depth,
        "interlaced": bool(interlaced), "samples": b64(samples), "rgba": b64(rgba),
        "rgbaDepth": rgba_depth,
    }
    response.update(extra)
    return response


def serve(hello, handlers):
    """Answers requests from stdin until it ends. `handlers` maps an op to a function of the
    request that returns the response fields or raises `Answer`; an unexpected exception is
    answered as `unmapped` with its type and text (and the traceback on stderr)."""
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        op = request.get("op")
        try:
            if op == "hello":
                response = hello()
            elif op in handlers:
                response = handlers[op](request)
            else:
                response = {"error": "unsupported"}
        except Answer as answer:
            response = answer.response()
        except Exception as error:  # the library failed in a way it does not report itself
            traceback.print_exc(file=sys.stderr)
            response = unmapped("uncaught", error).response()
        response["id"] = request.get("id")
        sys.stdout.write(json.dumps(response) + "\n")
        sys.stdout.flush()
