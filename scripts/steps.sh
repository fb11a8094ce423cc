# shellcheck shell=bash
# The steps of the slow test scripts (test-slurm, test-reframe, test-spack), sourced after
# lib.sh: each step passes, fails (with why) or is skipped (with why: a skipped step is never
# counted as a pass); `summary` lists them all and returns 1 when one failed.

passed=() failed=() skipped=()
steps_started=$SECONDS
# Where a script's outputs are, for the summary (set by the script).
steps_where=

pass() { passed+=("$1"); say "PASSED: $1"; }
fail() { failed+=("$1${2:+: $2}"); say "FAILED: $1${2:+: $2}" >&2; }
skip() { skipped+=("$1: $2"); say "SKIPPED: $1: $2"; }

summary() {
  local s t=$((SECONDS - steps_started))
  echo
  say "summary after $((t / 60)) min $((t % 60)) s: ${#passed[@]} passed, ${#failed[@]} failed," \
    "${#skipped[@]} skipped${steps_where:+ (outputs under $steps_where)}"
  for s in "${passed[@]}"; do echo "  passed   $s"; done
  for s in "${failed[@]}"; do echo "  FAILED   $s"; done
  for s in "${skipped[@]}"; do echo "  skipped  $s"; done
  [ ${#failed[@]} -eq 0 ]
}
