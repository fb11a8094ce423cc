//! AFL++ target: `imb_fuzz::criteria` on each input (scripts/fuzz).

fn main() {
    afl::fuzz!(|data: &[u8]| imb_fuzz::criteria(data));
}
