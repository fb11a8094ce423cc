//! AFL++ target: `imb_fuzz::selector` on each input (scripts/fuzz).

fn main() {
    afl::fuzz!(|data: &[u8]| imb_fuzz::selector(data));
}
