#!/bin/sh
# Run from the repo root: sh findings-bounds/f8/repro.sh
R="env PYTHONPATH=src python3.11 -m scorecontract report"
$R --scheduled 30 --confidence 0.95 --baseline findings-bounds/f8/baseline.jsonl --max-regression 0.05 -- findings-bounds/f8/candidate.jsonl; echo "exit $? (3: INVALID, but the paired: line reads >= -0.05)"
