//! AFL++ target: `imb_fuzz::msglen` on each input (scripts/fuzz).

fn main() {
    afl::fuzz!(|data: &[u8]| imb_fuzz::msglen(data));
}
