#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Release a candidate only if scorecontract says PASS (exit 0).
#
#   release.sh EVIDENCE RECORD_DIR COMMAND [ARG...]
#
# EVIDENCE    the evaluation's score record, {"score": <number>}
# RECORD_DIR  where this run's record goes; use a new one per run:
#               RECORD_DIR/receipt.json    the decision's receipt
#               RECORD_DIR/evidence/<sha256>  the exact evidence bytes
# COMMAND     the release action, run only on PASS
#
# Every other outcome blocks: FAIL (1), a usage or configuration error (2),
# INVALID evidence (3), REVIEW (4), an internal error (70), anything else.
# The receipt and the evidence are kept whatever the verdict, so a reviewer
# can see why a candidate was or was not released.  A receipt is never
# overwritten: reusing RECORD_DIR blocks with status 2.
#
# scorecontract is looked up on PATH; set SCORECONTRACT to another command
# name to use another copy (e.g. a wrapper running `python3 -m scorecontract`).

set -u

if [ "$#" -lt 3 ]; then
    echo "usage: $0 EVIDENCE RECORD_DIR COMMAND [ARG...]" >&2
    exit 2
fi
evidence=$1
record=$2
shift 2

if ! mkdir -p "$record"; then
    echo "release blocked: cannot create $record" >&2
    exit 2
fi

# `--` so that evidence named like an option is still a path.
"${SCORECONTRACT:-scorecontract}" check \
    --receipt "$record/receipt.json" \
    --keep-evidence "$record/evidence" \
    -- "$evidence"
status=$?

# Compare with 0 and nothing else: the only status that releases.
if [ "$status" -eq 0 ]; then
    echo "release: PASS; receipt in $record/receipt.json" >&2
    exec "$@"
fi

case $status in
    1) why="FAIL: valid evidence below the threshold" ;;
    2) why="usage or configuration error" ;;
    3) why="INVALID evidence" ;;
    4) why="REVIEW: a person must decide" ;;
    *) why="unexpected status $status" ;;
esac
echo "release blocked: $why; record kept in $record" >&2
exit "$status"
