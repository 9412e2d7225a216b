# SPDX-License-Identifier: MIT
"""A report's declared population: a count of scheduled trials, a manifest of their ids, or both."""

from __future__ import annotations

import os

from ._describe import describe_value
from ._errors import InvalidEvidence, PolicyError

__all__ = ["manifest_ids", "population"]


def population(scheduled: object, manifest: object, max_bytes: int) -> tuple[int, list[str] | None, str | None]:
    """Resolve ``scheduled=`` and ``manifest=``; raise ``PolicyError``.

    A manifest file is read up to *max_bytes*.
    """
    if scheduled is None and manifest is None:
        raise PolicyError(
            "no-population",
            "no declared population: give the number of scheduled trials (--scheduled N) "
            "or a manifest of their ids (--manifest FILE); without it the denominator "
            "would be whatever the file happens to hold",
        )
    count: int | None = None
    if scheduled is not None:
        if type(scheduled) is not int or scheduled < 1:
            raise PolicyError(
                "bad-population",
                f"scheduled must be a positive int, not {describe_value(scheduled)}",
            )
        count = scheduled
    ids: list[str] | None = None
    digest: str | None = None
    if manifest is not None:
        ids = manifest_ids(manifest, max_bytes)
        import json

        from ._digest import sha256_hex

        digest = sha256_hex(json.dumps(ids, ensure_ascii=True, separators=(",", ":")).encode("ascii"))
        if count is not None and count != len(ids):
            raise PolicyError(
                "bad-population",
                f"scheduled is {count} but the manifest lists {len(ids)} trials",
            )
        count = len(ids)
    if count is None:  # unreachable: one of the two was given
        raise PolicyError("no-population", "no declared population")
    return count, ids, digest


def manifest_ids(manifest: object, max_bytes: int) -> list[str]:
    """The trial ids of *manifest* (a path, read up to *max_bytes*, or a list), checked."""
    from ._encoding import decode_evidence, find_surrogate

    if isinstance(manifest, (str, os.PathLike)):
        from ._read import read_file
        from ._strict_json import parse_json

        path = os.fspath(manifest)
        try:
            # One limit for the read and the decoding: decode_evidence's
            # default is the 1 MiB evidence limit, not the manifest's.
            value = parse_json(decode_evidence(read_file(path, max_bytes, what="manifest"), max_bytes))
        except InvalidEvidence as exc:
            raise PolicyError("bad-population", f"manifest {ascii(path)}: {exc}") from None
        where = f"manifest {ascii(path)}"
    elif type(manifest) is list or type(manifest) is tuple:
        value = list(manifest)
        where = "manifest"
    else:
        raise PolicyError(
            "bad-population",
            f"manifest must be a path or a list of trial ids, not {describe_value(manifest)}",
        )
    if type(value) is not list:
        raise PolicyError("bad-population", f"{where} must be a JSON array of trial ids, not {describe_value(value)}")
    if not value:
        raise PolicyError("bad-population", f"{where} lists no trials")
    seen: set[str] = set()
    for index, trial_id in enumerate(value):
        if type(trial_id) is not str or not trial_id or find_surrogate(trial_id) != -1:
            raise PolicyError(
                "bad-population",
                f"{where}: item {index} must be a non-empty string of Unicode text, not {describe_value(trial_id)}",
            )
        if trial_id in seen:
            # A duplicate would either count one trial twice or shrink the
            # population without anyone noticing: both are configuration
            # mistakes, not something to resolve silently.
            raise PolicyError("bad-population", f"{where}: trial id {trial_id!a} is listed twice (item {index})")
        seen.add(trial_id)
    ids: list[str] = value
    return ids
