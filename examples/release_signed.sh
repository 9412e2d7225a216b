#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Release a candidate only on signed, matching, valid, passing evidence.
#
#   release_signed.sh KEY_FILE CANDIDATE RUN_ID EVIDENCE RECORD_DIR COMMAND [ARG...]
#
# KEY_FILE    the HMAC key shared with the evaluation job (mode 600), which
#             signed EVIDENCE with `scorecontract sign --key-file KEY_FILE EVIDENCE`
# CANDIDATE   the candidate this release would ship; the evidence must say
#             {"candidate": CANDIDATE, ...}, exactly
# RUN_ID      the evaluation run this release was started for; the evidence
#             must say {"run_id": RUN_ID, ...}, so an older signed file for
#             the same candidate cannot be replayed
# EVIDENCE    the envelope {"candidate": ..., "run_id": ..., "score": <number>};
#             its signature is EVIDENCE.sig
# RECORD_DIR  where this run's record goes; use a new one per run:
#               RECORD_DIR/receipt.json      the decision's receipt (with provenance)
#               RECORD_DIR/evidence/<sha256> the exact evidence bytes
#               RECORD_DIR/evidence.sig      a copy of the signature, when there is one
# COMMAND     the release action, run only on PASS
#
# Every other outcome blocks: a forged or re-signed file, a missing or
# truncated signature, the wrong key, another candidate, a replayed run,
# invalid evidence (3); FAIL (1); configuration, such as a key file others
# can read (2); anything else.  The key is read from KEY_FILE by
# scorecontract and never passes through this script's arguments or output.
#
# scorecontract is looked up on PATH; set SCORECONTRACT to another command.

set -u

if [ "$#" -lt 6 ]; then
    echo "usage: $0 KEY_FILE CANDIDATE RUN_ID EVIDENCE RECORD_DIR COMMAND [ARG...]" >&2
    exit 2
fi
key_file=$1
candidate=$2
run_id=$3
evidence=$4
record=$5
shift 5

if ! mkdir -p "$record"; then
    echo "release blocked: cannot create $record" >&2
    exit 2
fi
# Keep the signature beside the receipt, so the decision can be re-checked.
# Best effort: a missing signature is the gate's to report, not this copy's.
cp -- "$evidence.sig" "$record/evidence.sig" 2>/dev/null || :

# --opt=VALUE so that an id or path beginning with "-" is still a value;
# `--` so that evidence named like an option is still a path.
"${SCORECONTRACT:-scorecontract}" check \
    --candidate="$candidate" \
    --run-id="$run_id" \
    --key-file="$key_file" \
    --signature="$evidence.sig" \
    --receipt="$record/receipt.json" \
    --keep-evidence="$record/evidence" \
    -- "$evidence"
status=$?

# Compare with 0 and nothing else: the only status that releases.
if [ "$status" -eq 0 ]; then
    echo "release: PASS for $candidate (run $run_id, signed); receipt in $record/receipt.json" >&2
    exec "$@"
fi

case $status in
    1) why="FAIL: valid evidence below the threshold" ;;
    2) why="usage or configuration error" ;;
    3) why="INVALID evidence (see the receipt's code: forged, unsigned, another candidate or run, malformed)" ;;
    4) why="REVIEW: a person must decide" ;;
    *) why="unexpected status $status" ;;
esac
echo "release blocked: $why; record kept in $record" >&2
exit "$status"
