#!/bin/sh
# Run from the repo root: sh findings-bounds/f3/repro.sh
R="env PYTHONPATH=src python3.11 -m scorecontract report"
$R --scheduled 100 --confidence 0.95 --bound asymptotic-t --cluster-by q -- findings-bounds/f3/allbutone.jsonl; echo "exit $? (0: PASS on 2 clusters, one of 99 trials)"
$R --scheduled 100 --confidence 0.95 --cluster-by q -- findings-bounds/f3/allbutone.jsonl; echo "exit $? (1: the finite-sample bound is 0)"
