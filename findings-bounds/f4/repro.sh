#!/bin/sh
# Run from the repo root: sh findings-bounds/f4/repro.sh
R="env PYTHONPATH=src python3.11 -m scorecontract report"
$R --scheduled 3 --confidence 0.95 --policy findings-bounds/f4/tinypol.json -- findings-bounds/f4/tiny.jsonl; echo "exit $? (main: FAIL ... would need about 1 trials; fixed: no such estimate)"
