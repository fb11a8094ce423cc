# shellcheck shell=bash
# Helpers shared by scripts/setup, scripts/test and scripts/run (sourced, not run).

imb_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

say() { printf '%s: %s\n' "${0##*/}" "$*"; }
die() { say "$*" >&2; exit 1; }

# cargo, also when ~/.cargo/bin is not on PATH (fresh login, CI runner, sudo).
imb_cargo() {
  local env
  if ! command -v cargo >/dev/null; then
    for env in "${CARGO_HOME:-$HOME/.cargo}/env" "$HOME/.cargo/env"; do
      # shellcheck disable=SC1090
      if [ -f "$env" ]; then . "$env"; break; fi
    done
  fi
  command -v cargo >/dev/null || die "cargo not found: install Rust from https://rustup.rs"
}

# mpirun on a laptop or a CI box: Open MPI refuses root and more ranks than cores unless told.
# Only Open MPI reads these variables; MPICH's mpirun (hydra) ignores them.
imb_mpi_env() {
  if [ "$(id -u)" -eq 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  fi
  export OMPI_MCA_rmaps_base_oversubscribe="${OMPI_MCA_rmaps_base_oversubscribe:-1}"
}

# mpi-sys's build script does not notice a change of MPI (Open MPI <-> MPICH): remember which
# mpicc the build tree was made with and rebuild mpi-sys when it changes.
imb_mpi_fresh() {
  local dir=${CARGO_TARGET_DIR:-$imb_root/target} now old mpicc=${MPICC:-mpicc}
  now="$(readlink -f "$(command -v "$mpicc")") $("$mpicc" -show 2>/dev/null) ${MPI_PKG_CONFIG:-}"
  old=$(cat "$dir/.imb-mpi" 2>/dev/null || true)
  if [ -n "$old" ] && [ "$old" != "$now" ]; then
    say "MPI changed since the last build: cargo clean -p mpi-sys (dev and release)"
    (cd "$imb_root" && cargo clean -q -p mpi-sys && cargo clean -q -p mpi-sys --release)
  fi
  mkdir -p "$dir" && printf '%s\n' "$now" >"$dir/.imb-mpi"
}
