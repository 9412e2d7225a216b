#!/bin/sh
# Run from the repo root: sh findings-bounds/f5/repro.sh
R="env PYTHONPATH=src python3.11 -m scorecontract report"
$R --scheduled 3 --confidence 0.95 --policy findings-bounds/f5/bigpol.json -- findings-bounds/f5/big.jsonl; echo "exit $? (1: FAIL, though the exact lower bound 1.35E+998 is above the threshold 1E+400)"
