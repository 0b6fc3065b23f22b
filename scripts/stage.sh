#!/usr/bin/env bash
# `scripts/stage.sh NAME COMMAND...`: runs COMMAND, then prints how long it took as
# "stage NAME: 95 s" (make test's stage times); exits with COMMAND's status.
name=$1
shift
start=$(date +%s)
"$@"
status=$?
echo "stage $name: $(( $(date +%s) - start )) s$([ $status -eq 0 ] || echo " (failed, status $status)")"
exit $status
