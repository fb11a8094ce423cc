//! AFL++ target: `imb_fuzz::refs` on each input (scripts/fuzz).

fn main() {
    afl::fuzz!(|data: &[u8]| imb_fuzz::refs(data));
}
