//! AFL++ target: `imb_fuzz::compare_cli` on each input (scripts/fuzz).

fn main() {
    afl::fuzz!(|data: &[u8]| imb_fuzz::compare_cli(data));
}
