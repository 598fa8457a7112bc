#!/bin/bash
# On-start script written by safelaunch $version. Paste it into the instance's on-start field
# or run it by hand; it exits with the training's own exit code.
# Every value you gave is single-quoted on purpose: nothing in it expands.
# shellcheck disable=SC2016
set -euo pipefail

state_dir=$state_dir
log_file=$log_file
on_restart=$on_restart
status_file="$$state_dir/status"
marker="$$state_dir/started"
say() { printf '[onstart] %s\n' "$$*"; }
end_of_job() {
  :
$instance_step}
# Whatever ends the script (a failed step under set -e, or the training's end) writes the
# status file (the exit code, and the step when one failed), prints the verdict, then ends
# the instance as asked: a failed setup must not leave an instance billing.
finish() {
  local code=$$1 failed=$$2
  trap - EXIT
  set +e
  mkdir -p "$$state_dir" 2>/dev/null
  if [ -n "$$failed" ]; then
    printf '%s\nfailed step: %s\n' "$$code" "$$failed"
  else
    printf '%s\n' "$$code"
  fi > "$$status_file.tmp" && mv -f "$$status_file.tmp" "$$status_file"
  # The verdict is written and printed before the instance is stopped: a fast stop must not
  # cut off the last line.
  if [ -n "$$failed" ]; then
    say "job FAILED before the training started: step '$$failed' exited with code $$code; see $$log_file"
  elif [ "$$code" -eq 0 ]; then
    say "training succeeded (exit code 0)"
  else
    say "training FAILED with exit code $$code; see $$log_file"
  fi
  end_of_job "$$code"
  exit "$$code"
}
step="create the state directory"
trap 'finish "$$?" "$$step"' EXIT
mkdir -p "$$state_dir"
exec > >(tee -a "$$log_file") 2>&1

if [ -e "$$marker" ]; then
  case "$$on_restart" in
    skip)
      say "this container already ran the job (status: $$(tr '\n' ' ' 2>/dev/null < "$$status_file" || echo unknown)); not starting it again (--on-restart skip)"
      trap - EXIT
      exit 0 ;;
    resume) say "container restarted: starting the job again; it must resume from its checkpoint (--on-restart resume)" ;;
    *) say "container restarted: running the job again from the start (--on-restart rerun)" ;;
  esac
fi
step="write the restart marker"
date -u +%Y-%m-%dT%H:%M:%SZ > "$$marker"
$workdir_step$git_step$setup_steps
step="install safelaunch"
if ! python3 -c "import sys, safelaunch; sys.exit(safelaunch.__version__ != '$version')" 2>/dev/null; then
  say "installing safelaunch"
  python3 -m pip install --quiet $safelaunch_spec
fi

say $start_message
set +e
python3 -m safelaunch run $run_args
finish "$$?" ""
