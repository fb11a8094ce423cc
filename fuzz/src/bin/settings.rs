//! AFL++ target: `imb_fuzz::settings` on each input (scripts/fuzz).

fn main() {
    afl::fuzz!(|data: &[u8]| imb_fuzz::settings(data));
}
