#!/bin/sh
# Run from the repo root: sh findings-bounds/f2/repro.sh
R="env PYTHONPATH=src python3.11 -m scorecontract report"
$R --scheduled 2600 --confidence 0.95 --cluster-by q --baseline findings-bounds/f2/baseline.jsonl --max-regression 0.05 -- findings-bounds/f2/candidate.jsonl; echo "exit $? (main: 0, PASS with mean difference -0.769231; fixed: 1)"
