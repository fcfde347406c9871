#!/usr/bin/env python3
"""A second implementation, in Python, built from the models the generators use: a conformance
driver (Spec/conformance.md §2, §5) for every area.

The cache rules are models/cachemodel.py, the very model that computes the cases' expectations,
but everything it holds lives in real files, written and read back by models/backends.py and
models/logstore.py from Spec/backends.md and Spec/store.md: every open reads the folder as the
runner left it. PNG decoding is models/pngdecoder.py with models/inflate.py, the encoder
writers/pngwriter.py, thumbnails models/downsampler.py. None of it shares code with the Swift
implementation.

It is slow (pure Python) and meant for two jobs: measuring the runner against a slow driver
(`--jobs`, Spec/conformance.md §6.7), and the mutation check of the suite
(checks/check_mutants.py), which runs it with `--mutant NAME`, each a deliberately wrong variant
of the model (drivers/mutants.py) that the suite must catch.

Run: swift run conformance -- python3 Conformance/tools/drivers/model_driver.py [--mutant NAME]
     python3 Conformance/tools/drivers/model_driver.py --list-mutants
"""
import json
import os
import shutil
import struct
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # Conformance/tools

from drivers import example_driver, mutants  # noqa: E402
from models import backends, cachemodel, downsampler, pngdecoder  # noqa: E402
from models.cachemodel import CacheError, CacheModel, Entry, Variant  # noqa: E402
from models.logstore import LogStore, StoreError  # noqa: E402
from shared.casefiles import b64, unb64  # noqa: E402
from writers import pngwriter  # noqa: E402

INT64_MAX = 2 ** 63 - 1
BACKENDS = ["dictionary", "directory", "log", "hybrid"]


class RequestError(Exception):
    def __init__(self, name):
        super().__init__(name)
        self.name = name


def work_folder():
    parent = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    return tempfile.mkdtemp(prefix="model-driver-", dir=parent)


def decode_bitmap(data, limits=None):
    """decodeBitmap (Spec/png.md §7.2): (width, height, format, pixels), or None when the bytes
    are not a PNG this decoder reads."""
    if data is None or data[:8] != pngdecoder.SIGNATURE:
        return None
    try:
        return pngdecoder.decode(data, *(limits or (1 << 62, 1 << 62))).bitmap()
    except pngdecoder.PNGError:
        return None


# -- png -----------------------------------------------------------------------------------------
def png_encode(request):
    try:
        return {"png": b64(example_driver.encode(request["width"], request["height"], request["format"],
                                                 unb64(request["pixels"])))}
    except example_driver.EncodeError as error:
        raise RequestError(str(error))


def png_decode(request):
    limits = request.get("limits", {})
    try:
        image = pngdecoder.decode(unb64(request["png"]), limits.get("maximumPixelCount", pngdecoder.DEFAULT_PIXELS),
                                  limits.get("maximumDecompressedBytes", pngdecoder.DEFAULT_BYTES))
    except pngdecoder.PNGError as error:
        raise RequestError(error.name)
    rgba, depth = image.rgba()
    return {"width": image.width, "height": image.height, "colorType": image.colour_type, "bitDepth": image.depth,
            "interlaced": image.interlaced, "samples": b64(image.native_bytes()), "rgba": b64(rgba), "rgbaDepth": depth}


def png_downsample(request):
    try:
        width, height, pixels = downsampler.downsample(request["width"], request["height"], request["format"],
                                                       unb64(request["pixels"]), request["maximumPixelSize"])
    except downsampler.DownsampleError as error:
        raise RequestError(str(error))
    return {"width": width, "height": height, "format": request["format"], "pixels": b64(pixels)}


# -- store ---------------------------------------------------------------------------------------
def store_entries(store):
    entries = []
    for key in store.keys():
        created, expires, sequence = store.metadata(key)
        entry = {"key": key.decode("utf-8"), "createdAt": created, "expiresAt": expires, "accessSequence": sequence}
        try:
            entry["value"] = b64(store.value(key))
        except StoreError as error:
            entry["valueError"] = error.name
        entries.append(entry)
    return entries


def store_read(request, folder):
    """Spec/conformance.md §5.4: the log, its snapshot and its sync mark as given, opened with
    the options the request names."""
    path = os.path.join(folder, "store.log")
    with open(path, "wb") as f:
        f.write(unb64(request["file"]))
    for field, suffix in (("hint", ".hint"), ("sync", ".sync")):
        if field in request:
            with open(path + suffix, "wb") as f:
                f.write(unb64(request[field]))
    options = {"skips_damage": request.get("skipsDamage", False),
               "repairs_damage": request.get("repairsDamage", False)}
    try:
        store = LogStore(path, read_only=request.get("readOnly", False), **options)
        damaged = store.damaged
        if "compactAt" in request:
            store.compact(request["compactAt"])
            store.close()
            store = LogStore(path, **options)
        entries = store_entries(store)
        store.close()
    except StoreError as error:
        raise RequestError(error.name)
    response = {"entries": entries}
    if request.get("skipsDamage"):
        response["damaged"] = [dict({"offset": offset, "length": length}, **({} if key is None else {"keyBytes": b64(key)}))
                               for offset, length, key in damaged]
    if request.get("returnFile"):
        response.update(files_left(path))
    return response


def files_left(path):
    """The log and, when there is one, its sync mark, as a closed store left them."""
    files = {}
    for field, suffix in (("file", ""), ("sync", ".sync")):
        if os.path.exists(path + suffix):
            with open(path + suffix, "rb") as f:
                files[field] = b64(f.read())
    return files


def store_write(request, folder):
    path = os.path.join(folder, "store.log")
    store = LogStore(path)
    for operation in request["operations"]:
        meta = (operation.get("createdAt"), operation.get("expiresAt"), operation.get("accessSequence"))
        if "put" in operation:
            store.put(operation["put"].encode("utf-8"), unb64(operation["value"]), meta)
        elif "touch" in operation:
            store.touch(operation["touch"].encode("utf-8"), meta)
        elif "remove" in operation:
            store.remove(operation["remove"].encode("utf-8"))
        elif "removeAll" in operation:
            store.clear()
        elif "compact" in operation:
            store.compact(operation["compact"])
    entries = store_entries(store)
    store.close()
    return dict(files_left(path), entries=entries)


# -- cache ---------------------------------------------------------------------------------------
def check_configuration(configuration):
    """Spec/cache.md §3.1."""
    limits = configuration.get("decodingLimits", {})
    wrong = [configuration.get("timeToLive", 1) < 1, configuration.get("maximumAge", 1) < 1,
             configuration.get("maximumBytes", 0) < 0, configuration.get("maximumEntryCount", 1) < 1,
             configuration.get("memoryCostLimit", 0) < 0,
             limits.get("maximumPixelCount", 1) < 1, limits.get("maximumDecompressedBytes", 1) < 1,
             not 1 <= configuration.get("thumbnailMaximumPixelSize", 1) <= (1 << 32) - 1]
    if any(wrong):
        raise RequestError("invalidConfiguration")


class CacheSession:
    """One scenario: a folder, a clock, and the open cache (a model over a backend)."""

    def __init__(self, backend_name, folder, now, configuration):
        self.backend_name = backend_name
        self.folder = folder
        self.now = now
        self.configuration = {k: v for k, v in configuration.items() if k != "readOnly"}
        self.read_only = bool(configuration.get("readOnly", False))
        self.model = None
        self.backend = None
        self.position = 0  # the journal events the backend has been given
        # User metadata (Spec/cache.md §13) by key, kept across closing and opening: the model's
        # backends write the format-2 files only, so this driver checks the rules of user
        # metadata, not how the files keep it (Spec/conformance.md §9).
        self.user_metadata = {}

    def limits(self):
        limits = self.configuration.get("decodingLimits", {})
        return (limits.get("maximumPixelCount", 89_478_485),
                limits.get("maximumDecompressedBytes", 89_478_485 * 8 + 65_536))

    def open(self, read_only):
        """Spec/cache.md §5.1: load what the folder holds, then the model's open (counter,
        orphans, purge), its changes given to the backend."""
        backend, model, held = self.load(read_only)
        model.open(read_only, damage_skipped=backend.damage_skipped)
        self.model, self.backend, self.position = model, backend, 0
        self.forward()

    def load(self, read_only):
        backend = backends.backend(self.backend_name, self.folder, read_only)
        try:
            held = backend.open()
        except backends.BackendError as error:
            raise RequestError(error.name)
        model = CacheModel(self.now, readOnly=read_only, **self.configuration)
        for key, h in held.items():
            populate(model, key, h)
        for key, entry in model.entries.items():
            entry.user_metadata = self.user_metadata.get(key, b"")
        return backend, model, held

    def keep_user_metadata(self):
        if self.model is not None:
            self.user_metadata = {k: e.user_metadata for k, e in self.model.entries.items() if e.user_metadata}

    def held(self):
        """What the model holds, as the backend persists it: key bytes -> Held."""
        result = {}
        for key, entry in self.model.entries.items():
            result[key.encode("utf-8")] = backends.Held(entry.value, entry.meta, entry.corrupt, entry.size)
        for key, sizes in self.model.variants.items():
            for maximum, variant in sizes.items():
                result[cachemodel.variant_key(key, maximum)] = backends.Held(
                    variant.value, variant.meta, variant.corrupt, variant.size)
        return result

    def forward(self):
        """Gives the backend every journal event it has not seen, in order."""
        journal = self.model.journal
        while self.position < len(journal):
            event = journal[self.position]
            self.position += 1
            if event[0] == "compact":
                event = ("compact", event[1], self.model.now)
            if self.backend.read_only:
                continue  # a read-only cache writes nothing (Spec/cache.md §5.6)
            held = self.held() if event[0] in ("sync", "compact", "clear") else None
            self.backend.apply(event, held)

    def close(self):
        if self.model is None or self.model.closed:
            return
        self.keep_user_metadata()
        self.model.close()
        self.forward()
        self.backend.close(self.held())

    def abandon(self):
        self.keep_user_metadata()
        if self.backend is not None:
            self.backend.abandon()
        self.model = self.backend = None


def populate(model, key, held):
    """A loaded entry into the model: an original, or a variant (Spec/thumbnail.md §5.2)."""
    value = held.value if held.value is not None else bytes(held.size)
    if key[:2] == cachemodel.VARIANT_PREFIX and len(key) > 6:
        variant = Variant.__new__(Variant)
        variant.value, variant.created, variant.corrupt = value, held.meta[0], held.damaged
        variant.bitmap = None if held.damaged else decode_bitmap(value)
        original = key[6:].decode("utf-8", "surrogateescape")
        model.variants.setdefault(original, {})[struct.unpack(">I", key[2:6])[0]] = variant
        return
    entry = Entry(value, *held.meta, bitmap=None if held.damaged else decode_bitmap(value))
    entry.corrupt = held.damaged
    entry.counted = held.size if held.damaged else None
    model.entries[key.decode("utf-8", "surrogateescape")] = entry


class Driver:
    def __init__(self):
        self.folder = work_folder()
        self.counter = 0
        self.session = None

    def fresh_folder(self):
        self.counter += 1
        path = os.path.join(self.folder, str(self.counter))
        os.makedirs(path)
        return path

    def handle(self, request):
        op = request["op"]
        if op == "hello":
            return {"protocol": 1, "implementation": "model (Python)" + mutants.label(),
                    "areas": ["png", "store", "cache"], "backends": BACKENDS}
        if op == "png.encode":
            return png_encode(request)
        if op == "png.decode":
            return png_decode(request)
        if op == "png.downsample":
            return png_downsample(request)
        if op in ("store.read", "store.write"):
            folder = self.fresh_folder()
            try:
                return (store_read if op == "store.read" else store_write)(request, folder)
            finally:
                shutil.rmtree(folder, ignore_errors=True)
        if op.startswith("cache."):
            try:
                return self.cache(op, request)
            except CacheError as error:
                raise RequestError(error.name)
        raise RequestError("unsupported")

    def cache(self, op, request):
        if op == "cache.open":
            if self.session is not None:
                self.session.close()
                shutil.rmtree(self.session.folder, ignore_errors=True)
            configuration = request.get("configuration", {})
            check_configuration(configuration)
            self.session = CacheSession(request["backend"], self.fresh_folder(), request["now"], configuration)
            self.session.open(self.session.read_only)
            return {"folder": self.session.folder}
        s = self.session
        if op == "cache.reopen":
            s.close()
            s.model = None
            s.read_only = bool(request.get("readOnly", False))
            s.open(s.read_only)
            return {"folder": s.folder}
        if s.model is None:
            raise RequestError("badRequest: no open cache")
        model = s.model
        key = request.get("key")
        if op == "cache.abandon":
            s.abandon()
            return {}
        if op == "cache.close":
            s.close()
            return {}
        if op == "cache.advance":
            s.now += request["milliseconds"]
            model.now = s.now
            return {"now": s.now}
        if op == "cache.openAnother":
            return self.open_another(bool(request.get("readOnly", False)))
        if op == "cache.contains":
            return {"contains": model.contains(key)}
        if op == "cache.count":
            return {"count": model.count(), "totalByteCount": model.total_bytes()}
        if op == "cache.keys":
            return {"keys": model.keys()}
        if op == "cache.metadata":
            return {"metadata": model.metadata(key)}
        if op == "cache.userMetadata":
            found = model.user_metadata(key)
            return {"userMetadata": None if found is None else b64(found)}
        try:
            return self.cache_change(op, request, model, key)
        finally:
            # Also after an error: a read that found an entry corrupt removed it first.
            if s.model is model:
                s.forward()

    def cache_change(self, op, request, model, key):
        s = self.session
        if op == "cache.store":
            model.store(key, unb64(request["data"]), user_metadata=unb64(request.get("userMetadata", "")))
            return {}
        if op == "cache.setUserMetadata":
            return {"updated": model.set_user_metadata(key, unb64(request["userMetadata"]))}
        if op == "cache.storeBitmap":
            bitmap = (request["width"], request["height"], request["format"], unb64(request["pixels"]))
            try:
                downsampler.check_bitmap(*bitmap)
            except downsampler.DownsampleError:
                model.store_rejected_bitmap(key)
            model.store(key, pngwriter.canonical_encode(*bitmap), bitmap)
            return {}
        if op == "cache.read":
            value = model.read(key)
            return {"hit": False} if value is None else {"hit": True, "data": b64(value)}
        if op == "cache.readBitmap":
            value = model.read(key)
            if value is None:
                return {"hit": False}
            # Spec/cache.md §4.3 step 6: decoded after the hit, with the decoding limits.
            try:
                return bitmap_response(pngdecoder.decode(value, *s.limits()).bitmap())
            except pngdecoder.PNGError as error:
                raise RequestError("imageTooLarge" if error.name == "limitExceeded" else "imageDecodingFailed")
        if op == "cache.variant":
            found = model.variant(key, request["maximumPixelSize"])
            return {"hit": False} if found is None else bitmap_response(found)
        if op == "cache.remove":
            return {"removed": model.remove(key)}
        if op == "cache.purge":
            removed = model.purge()
            s.forward()
            s.backend.remove_unreferenced(s.held())
            return {"removed": removed}
        if op == "cache.clear":
            model.clear()
            return {}
        if op == "cache.synchronize":
            model.synchronize()
            return {}
        if op == "cache.compact":
            model.compact()
            return {}
        if op == "cache.verify":
            return model.verify()
        raise RequestError("unsupported")

    def open_another(self, read_only):
        """A second instance beside the open one (Spec/backends.md §1.5): its count, then closed."""
        s = self.session
        other = CacheSession(s.backend_name, s.folder, s.now, s.configuration)
        s.keep_user_metadata()
        other.user_metadata = s.user_metadata
        other.open(read_only)
        count = other.model.count()
        other.close()
        return {"count": count}

    def finish(self):
        if self.session is not None:
            self.session.close()
        shutil.rmtree(self.folder, ignore_errors=True)


def bitmap_response(bitmap):
    width, height, format_name, pixels = bitmap
    return {"hit": True, "width": width, "height": height, "format": format_name, "pixels": b64(pixels)}


def main(arguments):
    if "--list-mutants" in arguments:
        for mutant in mutants.MUTANTS.values():
            print("\t".join([mutant.name, mutant.rule_class, " ".join(mutant.selection), mutant.summary]))
        return 0
    if "--mutant" in arguments:
        mutants.apply(arguments[arguments.index("--mutant") + 1])
    driver = Driver()
    try:
        for line in sys.stdin:
            if not line.strip():
                continue
            request = json.loads(line)
            try:
                response = driver.handle(request)
            except RequestError as error:
                response = {"error": error.name}
            except Exception as error:  # a bug of this driver: say so, as a driver must answer
                response = {"error": f"driverFailure: {type(error).__name__}: {error}"}
            response["id"] = request.get("id")
            sys.stdout.write(json.dumps(response) + "\n")
            sys.stdout.flush()
    finally:
        driver.finish()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
