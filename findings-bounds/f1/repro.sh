#!/bin/sh
# Run from the repo root: sh findings-bounds/f1/repro.sh
R="env PYTHONPATH=src python3.11 -m scorecontract report"
$R --scheduled 260 --threshold 0.5 --confidence 0.95 --cluster-by q -- findings-bounds/f1/clusters.jsonl; echo "exit $? (main: 0, PASS with trial mean 0.230769 and lower bound 0.826970; fixed: 1)"
