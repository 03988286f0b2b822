"""Remote and packed logs, read through fsspec: `s3://`, `gs://`, `https://`, `zip://`,
`tar://`, chained URLs (`zip://games/*.sgn::https://host/archive.zip`) and globs.

A name with a protocol is read through fsspec; any other name is a local path, read as
before, and fsspec is not even imported for it. The bytes are read as a local file's are:
gzip is recognised by its first bytes, not by the name (fsspec is not asked to decompress).
A URL that cannot be opened gives the diagnostic a local path would (`file-not-found`,
`is-a-directory`, `read-error`), and a failure while reading (a dropped connection) gives a
`read-error` at the line where reading stopped: never a traceback.
"""

from __future__ import annotations

import io
from typing import Any, Callable, Iterable, List, Optional, Set

from ..packaged import SetupError, install_hint
from .files import FOLDER, identity, is_url, kind, once, warn_skipped

_GLOB_CHARS = set("*?[")


def source_of(path: str) -> Any:
    """What the reader opens for a name: the path itself, or a URL read through fsspec."""
    return RemoteFile(path) if is_url(path) else path


class RemoteError(SetupError):
    """A URL that cannot be read at all in this installation (fsspec, or the package of a
    protocol, is missing; an unknown protocol): a usage error, found before any file is read."""


def _fsspec() -> Any:
    try:
        import fsspec
    except ImportError:
        raise RemoteError(f"reading URLs needs fsspec: {install_hint('remote', 'fsspec aiohttp')}") from None
    return fsspec


def _protocols(url: str) -> List[str]:
    """The protocols of a URL and of each URL it is chained to (`zip://a::https://h/b.zip`)."""
    parts = url.split("::")
    # a part without "://" is a protocol's name (`simplecache::s3://...`), or the local archive at the end
    return [
        part.split("://", 1)[0] if "://" in part else ("file" if i == len(parts) - 1 else part)
        for i, part in enumerate(parts)
    ]


def expand(names: Iterable[str]) -> List[str]:
    """The files named, in the order named: a URL with glob characters (before any `::`) is
    replaced by the files it matches, sorted (none: kept, for the reader to report); other
    names are kept as they are. Fails with RemoteError when a protocol cannot be read here."""
    fsspec = None
    checked: Set[str] = set()
    out: List[str] = []
    for name in names:
        if not is_url(name):
            out.append(name)
            continue
        fsspec = fsspec or _fsspec()
        for protocol in _protocols(name):
            if protocol not in checked:
                try:
                    fsspec.get_filesystem_class(protocol)
                except (ImportError, ValueError) as error:
                    raise RemoteError(f"cannot read {name}: {error}") from None
                checked.add(protocol)
        head, chained, rest = name.partition("::")
        if not _GLOB_CHARS & set(head):
            out.append(name)
            continue
        out.extend(_glob(fsspec, name, head, chained + rest) or [name])
    return out


def _glob(fsspec: Any, name: str, head: str, tail: str) -> List[str]:
    from fsspec.core import url_to_fs

    try:
        fs, pattern = url_to_fs(name)
        found = fs.glob(pattern, detail=True)
    except FileNotFoundError:
        return []
    except Exception as error:  # the store refused (credentials, network): said once, here
        raise RemoteError(f"cannot list {name}: {type(error).__name__}: {error}") from None
    files = sorted(path for path, info in found.items() if info.get("type") != "directory")
    from fsspec.implementations.local import LocalFileSystem

    if isinstance(fs, LocalFileSystem):
        files = _regular(files, fs.unstrip_protocol)
    if tail:  # a chained URL: the archive's members, each named with the chain after it
        protocol = head.split("://", 1)[0]
        return [f"{protocol}://{path}{tail}" for path in files]
    return [fs.unstrip_protocol(path) for path in files]


def _regular(paths: List[str], url: Callable[[str], str]) -> List[str]:
    """A glob of the local file system (`file://...`) keeps the regular files it matches, as
    a local glob does (sgn.pipeline.files): a FIFO, a socket or a device would be opened and waited
    on, a dangling symlink could not be; each is passed over with a warning, under its URL.
    A file matched under several names (symlinks, hard links) is kept once, known by
    (st_dev, st_ino), under its own name rather than a symlink's, the first in sorted order."""
    found = []
    for path in paths:
        what = kind(path)
        if what == FOLDER:
            continue  # a symlink to a folder, as fsspec lists it: no file
        if what is not None:
            warn_skipped(url(path), what)
            continue
        found.append((path, identity(path)))
    return sorted(path for path, _ in once(found))


def local_target(url: str) -> Optional[str]:
    """The local file a URL reads, as fsspec resolves it: the path of the `file` or `local`
    protocol (or any other of the local file system's), be it the URL itself or the end of
    its `::` chain (`simplecache::g.sgn`, `zip://g.sgn::games.zip`: games.zip). None when it
    reads no local file (`s3://`, `https://`, `memory://`), or fsspec cannot read it here."""
    try:
        import fsspec
        from fsspec.core import split_protocol
        from fsspec.implementations.local import LocalFileSystem
    except ImportError:  # without fsspec, no URL is read at all
        return None
    try:
        from fsspec.core import _un_chain  # fsspec's own reading of a chain, as fsspec.open does

        path, protocol, _ = _un_chain(url, {})[-1]
    except Exception:  # (private, and it instantiates nothing: an older fsspec may lack it)
        last = url.split("::")[-1]
        protocol, path = split_protocol(last)
        protocol = protocol or "file"
        path = None
    try:
        found = fsspec.get_filesystem_class(protocol)
    except Exception:  # an unknown protocol, or its package missing: nothing read
        return None
    if not issubclass(found, LocalFileSystem):
        return None
    return path if path is not None else found._strip_protocol(url.split("::")[-1])


class RemoteFile:
    """A URL as a source of `FileCheck`: the reader opens it (`open_binary`) where it would
    open a path, so that one that cannot be opened is a diagnostic, as a local file's is."""

    def __init__(self, url: str):
        self.name = url

    def open_binary(self) -> io.RawIOBase:
        fsspec = _fsspec()
        try:  # an archive that is no zip, or damaged, fails here: a read-error, as any refusal
            opened = fsspec.open(self.name, "rb")
            handle = opened.__enter__()
        except OSError:
            raise
        except Exception as error:
            raise OSError(f"{type(error).__name__}: {error}") from None
        return _Guarded(opened, handle)

    def __reduce__(self):  # to a Dask worker as its URL
        return (RemoteFile, (self.name,))


class _Guarded(io.RawIOBase):
    """A remote file whose failures are OSErrors, which the reader turns into a `read-error`
    (a storage library raises its own exceptions: aiohttp's, botocore's)."""

    def __init__(self, opened: Any, handle: Any):
        self._opened, self._handle = opened, handle  # the OpenFile holds the chain open

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return bool(self._guard(self._handle.seekable))

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        return self._guard(self._handle.seek, offset, whence)

    def tell(self) -> int:
        return self._guard(self._handle.tell)

    def read(self, size: Optional[int] = -1) -> bytes:
        return self._guard(self._handle.read, -1 if size is None else size)

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        data = self.read(len(view))
        view[: len(data)] = data
        return len(data)

    def close(self) -> None:
        if not self.closed:
            try:
                self._opened.__exit__(None, None, None)
            except Exception:
                pass  # closing a file read to its end: nothing left to lose
        super().close()

    @staticmethod
    def _guard(call: Any, *args: Any) -> Any:
        try:
            return call(*args)
        except OSError:
            raise
        except Exception as error:
            raise OSError(f"{type(error).__name__}: {error}") from None
