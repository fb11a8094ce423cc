//! AFL++ target: `imb_fuzz::core_cli` on each input (scripts/fuzz).

fn main() {
    afl::fuzz!(|data: &[u8]| imb_fuzz::core_cli(data));
}
