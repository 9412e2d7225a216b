# SPDX-License-Identifier: MIT
"""A report's inputs: shards, documents and streams read into one tally, with their digests."""

from __future__ import annotations

import os

from ._describe import describe_value
from ._errors import InvalidEvidence, PolicyError
from ._report_results import Input
from ._tally import Tally, stream_lines

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from ._digest import Digest, Sink
    from ._policy import Policy
    from ._report_results import Start
    from ._samples import Placed, SampleReader

__all__ = ["Read", "named_inputs", "read_inputs", "refuse_same_file"]


def named_inputs(trials: object, what: str) -> list[tuple[str | None, object]]:
    """*trials* as ``(name, input)`` pairs: one, or each shard of a list."""
    if type(trials) is list or type(trials) is tuple:
        items: list[object] = list(trials)
        if not items:
            raise PolicyError("bad-policy", f"the {what} list names no input")
        pairs: list[tuple[str | None, object]] = []
        seen: dict[object, object] = {}
        for index, item in enumerate(items, 1):
            name = os.fspath(item) if isinstance(item, (str, os.PathLike)) else f"input {index}"
            if isinstance(item, (str, os.PathLike)):
                # The same file twice (a glob that overlaps a name) would be
                # its own rerun, each place named twice alike: a mistake.
                key = os.path.realpath(name)
                if key in seen:
                    raise PolicyError("bad-policy", f"the {what} list names {seen[key]!a} twice")
                seen[key] = name
            pairs.append((name if isinstance(name, str) else repr(name), item))
        if len(pairs) > 1:
            return pairs
        trials = items[0]
    name = os.fspath(trials) if isinstance(trials, (str, os.PathLike)) else None
    return [(name if name is None or isinstance(name, str) else repr(name), trials)]


def refuse_same_file(
    trials: Sequence[tuple[str | None, object]], baseline: Sequence[tuple[str | None, object]]
) -> None:
    """Refuse a baseline that names a trials file (``option-conflict``).

    The candidate compared with itself has every paired difference 0 and
    passes any max_regression, even 0: a careless ``BASELINE=$CANDIDATE``
    would release anything.  As a shard named twice, a mistake.
    """
    if not baseline:
        return
    seen = {_real(name): name for name, item in trials if name is not None and _is_path(item)}
    for name, item in baseline:
        key = _real(name) if name is not None and _is_path(item) else None
        if key is not None and key in seen:
            raise PolicyError(
                "option-conflict",
                f"the baseline {name!a} is the trials file {seen[key]!a}: "
                "the candidate compared with itself passes any max_regression; give the baseline's own run",
            )


def _is_path(item: object) -> bool:
    return isinstance(item, (str, os.PathLike))


def _real(name: str) -> str | None:
    """*name* resolved, or None for a path no file can have (NUL, a lone surrogate).

    Such a path is left to the reader, which makes the report INVALID.
    """
    try:
        return os.path.realpath(name)
    except (ValueError, OSError):
        return None


class Read:
    """What reading a report's inputs gave, beside the tally."""

    __slots__ = ("failure", "inputs", "reading", "sha256", "size", "starts")

    def __init__(self) -> None:
        self.failure: tuple[str, str] | None = None
        self.inputs: list[Input] = []
        self.starts: list[Start] = []
        self.reading: tuple[tuple[str, object], ...] | None = None
        # Of every input, read in full, or None: see Input.
        self.sha256: str | None = None
        self.size: int | None = None

    def finish(self, inputs: Sequence[tuple[str | None, object]], overall: Digest, reader: SampleReader | None) -> None:
        """Name every input not read in full; digest the whole only when each was.

        The reader's description is taken now: it records the digest of a
        file it read itself (lm-eval's results file).
        """
        if reader is not None:
            self.reading = tuple(sorted(reader.description().items()))
        for name, _ in inputs[len(self.inputs) :]:
            self.inputs.append(Input(name, None, None))
        if all(item.sha256 is not None for item in self.inputs):
            # One input's own digest is the whole's: it was not teed.
            self.sha256 = self.inputs[0].sha256 if len(self.inputs) == 1 else overall.hexdigest()
            self.size = sum(item.size for item in self.inputs if item.size is not None)


class Tee:
    """Two digests updated as one."""

    __slots__ = ("update",)

    def __init__(self, first: Sink, second: Sink) -> None:
        one, two = first.update, second.update

        def update(data: bytes) -> None:
            one(data)
            two(data)

        self.update = update


def read_inputs(
    inputs: list[tuple[str | None, object]],
    reader: SampleReader | None,
    given: int | None,
    ids: list[str] | None,
    tally_options: tuple[Policy, int | None, str | None, str | None, bool],
    max_line_bytes: int,
    what: str,
) -> tuple[Tally, Read]:
    """Read every input into one tally; *given* is the declared count, if any.

    Documents are read whole first, since they may declare the population;
    JSON Lines are streamed.  Any failure to read makes the report INVALID
    (``Read.failure``); the inputs read in full so far keep their digests.
    """
    import hashlib

    policy, max_listed, candidate, cluster_by, keep_scores = tally_options
    read = Read()
    named = len(inputs) > 1
    overall = hashlib.sha256()
    documents: list[tuple[str | None, list[Placed]]] = []
    declared: list[tuple[str | None, int]] = []
    try:
        if reader is not None and reader.framing == "document":
            for name, item in inputs:
                data = whole(item, max_line_bytes, what, name)
                overall.update(data)
                read.inputs.append(Input(name, hashlib.sha256(data).hexdigest(), len(data)))
                rows, population = reader.document(data, ascii(name) if name is not None else "(bytes)", max_line_bytes)
                documents.append((name, rows))
                if population is not None:
                    declared.append((name, population))
        elif reader is not None:
            population = reader.population(max_line_bytes)
            if population is not None:
                declared.append((None, population))
    except OSError as exc:
        read.failure = ("file-unreadable", f"cannot read the {what}: {exc.strerror or exc}")
    except InvalidEvidence as exc:
        where = f"{documents and inputs[len(documents)][0] or inputs[0][0]}: " if named else ""
        read.failure = (exc.code, where + exc.message)
    if read.failure is not None and f"over the limit of {max_line_bytes}" in read.failure[1]:
        from ._tally import RAISE_LIMIT

        # A whole document, an .eval member or lm-eval's results file over
        # the one limit: name the option that raises it (not for a member
        # over the archive's own budget, 100 times its size, which no
        # option raises).
        read.failure = (read.failure[0], f"{read.failure[1]}; {RAISE_LIMIT}")
    count = given if given is not None else 0
    if read.failure is None and declared:
        read.failure, count = agreed(declared, given, ids)
    tally = Tally(count, ids, policy, max_listed, candidate, cluster_by, keep_scores, reader)
    if read.failure is not None or documents:
        if read.failure is None:
            for name, rows in documents:
                read.starts.append((tally.lines, name if named else None, tuple(place for place, _ in rows)))
                for _, row in rows:
                    tally.lines += 1
                    tally.take(tally.lines, row)
        read.finish(inputs, overall, reader)
        return tally, read
    for name, item in inputs:
        read.starts.append((tally.lines, name if named else None, None))
        before = tally.size
        digest = hashlib.sha256()
        failure = stream_into(tally, item, max_line_bytes, what, Tee(digest, overall) if named else digest)
        if failure is not None:
            # Its bytes up to the failure are counted but not the file:
            # Input says so with None (see Input).
            read.failure = (failure[0], f"{name}: {failure[1]}" if named else failure[1])
            break
        read.inputs.append(Input(name, digest.hexdigest(), tally.size - before))
    read.finish(inputs, overall, reader)
    return tally, read


def agreed(
    declared: list[tuple[str | None, int]], given: int | None, ids: list[str] | None
) -> tuple[tuple[str, str] | None, int]:
    """The population the inputs declare, checked against each other and *given*."""
    (first_name, count), *others = declared
    for name, other in others:
        if other != count:
            return ("population-mismatch", f"{first_name} declares {count} trials but {name} declares {other}"), 0
    if given is not None and given != count:
        stated = "the manifest lists" if ids is not None else "--scheduled is"
        return ("population-mismatch", f"{stated} {given} trials but the harness's output declares {count}"), given
    return None, count


def whole(item: object, max_bytes: int, what: str, name: str | None) -> bytes:
    """A document input's bytes, read whole through the one reader, within *max_bytes*."""
    from ._read import checked_stream, read_bounded, read_file

    if isinstance(item, (str, os.PathLike)):
        return read_file(os.fspath(item), max_bytes, what=f"{what} file")
    if isinstance(item, (bytes, bytearray, memoryview)):
        data = bytes(item)
        if len(data) > max_bytes:
            raise InvalidEvidence("too-large", f"the {what} is over the limit of {max_bytes} bytes")
        return data
    if callable(getattr(item, "read", None)):
        return read_bounded(checked_stream(item, what=what), max_bytes, what=what)
    shown = "source" if what == "trials" else what
    raise InvalidEvidence("input-type", f"{shown} must be a path, bytes or a binary stream, not {describe_value(item)}")


def stream_into(tally: Tally, source: object, max_line_bytes: int, what: str, digest: Sink) -> tuple[str, str] | None:
    """Stream *source* into *tally*, every byte into *digest*; return the failure, if any."""
    failure: tuple[str, str] | None = None
    try:
        if isinstance(source, (str, os.PathLike)):
            from ._read import checked_stream, open_regular

            # The one reader: a regular file only, refused without blocking.
            with open_regular(os.fspath(source), what=f"{what} file") as stream:
                stream_lines(checked_stream(stream, what=what), tally, max_line_bytes, digest)
        elif isinstance(source, (bytes, bytearray, memoryview)):
            import io

            stream_lines(io.BytesIO(bytes(source)), tally, max_line_bytes, digest)
        elif callable(getattr(source, "read", None)):
            from ._read import checked_stream

            # A closed or unreadable stream is an INVALID report, not the
            # ValueError io raises for it.
            stream_lines(checked_stream(source, what=what), tally, max_line_bytes, digest)
        else:
            name = "source" if what == "trials" else what
            failure = (
                "input-type",
                f"{name} must be a path, bytes or a binary stream, not {describe_value(source)}",
            )
    except OSError as exc:  # closing the file; reads fail as InvalidEvidence
        failure = ("file-unreadable", f"cannot read the {what}: {exc.strerror or exc}")
    except InvalidEvidence as exc:
        failure = (exc.code, exc.message)
    return failure
