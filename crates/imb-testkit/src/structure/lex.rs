//! A Rust source seen as code only, byte for byte the same length and lines: comments become
//! spaces and the insides of string and char literals become `_`, so a brace, a `//`, a path
//! or an MPI name inside them is no longer seen. Then the items after `#[cfg(test)]` can be
//! cut by their braces, and functions and `unsafe` blocks found by theirs.

fn ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Overwrites `out[from..to]` with `fill`, keeping line breaks (so line numbers stay).
fn blank(out: &mut [u8], from: usize, to: usize, fill: u8) {
    let to = to.min(out.len());
    for c in &mut out[from..to] {
        if *c != b'\n' {
            *c = fill;
        }
    }
}

/// The code view of a source text (see the module doc).
pub fn code_view(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        if rest.starts_with(b"//") {
            let end = rest
                .iter()
                .position(|&c| c == b'\n')
                .map_or(b.len(), |k| i + k);
            blank(&mut out, i, end, b' ');
            i = end;
        } else if rest.starts_with(b"/*") {
            let (mut depth, mut j) = (1, i + 2);
            while j < b.len() && depth > 0 {
                if b[j..].starts_with(b"/*") {
                    (depth, j) = (depth + 1, j + 2);
                } else if b[j..].starts_with(b"*/") {
                    (depth, j) = (depth - 1, j + 2);
                } else {
                    j += 1;
                }
            }
            blank(&mut out, i, j, b' ');
            i = j;
        } else if b[i] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            blank(&mut out, i + 1, j, b'_');
            i = j + 1;
        } else if b[i] == b'\'' {
            i = char_literal(b, i, &mut out);
        } else if ident(b[i]) {
            let s = i;
            while i < b.len() && ident(b[i]) {
                i += 1;
            }
            if matches!(&b[s..i], b"r" | b"br" | b"cr") {
                i = raw_string(b, i, &mut out);
            }
        } else {
            i += 1;
        }
    }
    String::from_utf8(out).expect("only ASCII bytes replace whole characters")
}

/// At a `'`: a char literal (`'a'`, `'\n'`, `'\u{e9}'`, `'é'`) is blanked inside; a lifetime or
/// label (`'a`, `'static`) is left. Returns where to go on.
fn char_literal(b: &[u8], i: usize, out: &mut [u8]) -> usize {
    if b.get(i + 1) == Some(&b'\\') {
        let end = b[i + 3.min(b.len() - i)..]
            .iter()
            .position(|&c| c == b'\'')
            .map_or(b.len(), |k| i + 3 + k);
        blank(out, i + 1, end, b'_');
        return end + 1;
    }
    // One character, of 1 to 4 bytes, then a closing quote.
    let width = match b.get(i + 1) {
        Some(&c) if c >= 0xF0 => 4,
        Some(&c) if c >= 0xE0 => 3,
        Some(&c) if c >= 0xC0 => 2,
        Some(_) => 1,
        None => return i + 1,
    };
    if b.get(i + 1 + width) == Some(&b'\'') {
        blank(out, i + 1, i + 1 + width, b'_');
        return i + 2 + width;
    }
    i + 1
}

/// After an `r`, `br` or `cr` word: a raw string `r#"…"#` is blanked inside; a raw identifier
/// (`r#type`) or a plain word is left.
fn raw_string(b: &[u8], i: usize, out: &mut [u8]) -> usize {
    let hashes = b[i..].iter().take_while(|&&c| c == b'#').count();
    if b.get(i + hashes) != Some(&b'"') {
        return i;
    }
    let open = i + hashes + 1;
    let mut close = vec![b'"'];
    close.extend(std::iter::repeat_n(b'#', hashes));
    let end = b[open..]
        .windows(close.len())
        .position(|w| w == close.as_slice())
        .map_or(b.len(), |k| open + k);
    blank(out, open, end, b'_');
    end + close.len()
}

/// Where the group opened at `open` (`{`, `(` or `[`) closes: the index after its closer.
pub fn close_of(code: &[u8], open: usize) -> usize {
    let mut depth = 0usize;
    for (k, &c) in code.iter().enumerate().skip(open) {
        match c {
            b'{' | b'(' | b'[' => depth += 1,
            b'}' | b')' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return k + 1;
                }
            }
            _ => {}
        }
    }
    code.len()
}

/// The end of the item starting at `from`: after its first `;` outside brackets, or after the
/// block of its first `{`; and the offset of that `{` when it has one.
pub fn item_end(code: &[u8], from: usize) -> (usize, Option<usize>) {
    let mut k = from;
    while k < code.len() {
        match code[k] {
            b';' => return (k + 1, None),
            b'{' => return (close_of(code, k), Some(k)),
            b'(' | b'[' => k = close_of(code, k),
            _ => k += 1,
        }
    }
    (code.len(), None)
}

/// The code view without the items after `#[cfg(test)]` (unit tests reach anywhere; they are
/// not part of the shape), and the names of the modules so cut without a body (`mod tests;`),
/// whose files are then test files.
pub fn strip_tests(view: &str) -> (String, Vec<String>) {
    const ATTR: &[u8] = b"#[cfg(test)]";
    let mut out = view.as_bytes().to_vec();
    let mut test_mods = Vec::new();
    let mut from = 0;
    while let Some(at) = find(&out, ATTR, from) {
        let mut s = at + ATTR.len();
        loop {
            while s < out.len() && out[s].is_ascii_whitespace() {
                s += 1;
            }
            if !out[s..].starts_with(b"#[") {
                break;
            }
            s = close_of(&out, s + 1);
        }
        let (end, body) = item_end(&out, s);
        if body.is_none() {
            let words: Vec<&str> = std::str::from_utf8(&out[s..end - 1])
                .unwrap_or("")
                .split_whitespace()
                .collect();
            if let Some(k) = words.iter().position(|w| *w == "mod") {
                test_mods.extend(words.get(k + 1).map(|n| n.to_string()));
            }
        }
        blank(&mut out, at, end, b' ');
        from = end;
    }
    let code = String::from_utf8(out).expect("only ASCII bytes replace whole characters");
    (code, test_mods)
}

/// The first `needle` in `hay` from `from` that starts a word (no identifier byte before it).
pub fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    let mut k = from;
    while k + needle.len() <= hay.len() {
        let at = k + hay[k..].windows(needle.len()).position(|w| w == needle)?;
        let starts_word = at == 0 || !ident(hay[at - 1]) || !ident(needle[0]);
        let ends_word = !ident(*needle.last().unwrap_or(&b' '))
            || hay.get(at + needle.len()).is_none_or(|&c| !ident(c));
        if starts_word && ends_word {
            return Some(at);
        }
        k = at + 1;
    }
    None
}

/// The next word or sign from `at`, after blanks.
fn next_token(code: &[u8], at: usize) -> usize {
    let mut k = at;
    while k < code.len() && code[k].is_ascii_whitespace() {
        k += 1;
    }
    k
}

/// Every function with a body: (its name, the offset of `fn`, the end of its body).
pub fn functions(code: &str) -> Vec<(String, usize, usize)> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = find(b, b"fn", from) {
        from = at + 2;
        let s = next_token(b, at + 2);
        let e = s + b[s..].iter().take_while(|&&c| ident(c)).count();
        if e == s {
            continue; // a function pointer type, `fn(u8) -> u8`
        }
        if let (end, Some(_)) = item_end(b, e) {
            out.push((code[s..e].to_string(), at, end));
        }
    }
    out
}

/// Every outermost `unsafe` block and `unsafe fn` body: (start, end). `unsafe impl`, `unsafe
/// trait` and function pointer types have no code of their own and are left out.
pub fn unsafe_regions(code: &str) -> Vec<(usize, usize)> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = find(b, b"unsafe", from) {
        from = at + 6;
        let mut k = next_token(b, at + 6);
        if b[k..].starts_with(b"extern") {
            k = next_token(b, k + 6);
            // Its ABI string, `"C"` (`"_"` in the code view).
            if b.get(k) == Some(&b'"') {
                let close = b[k + 1..].iter().position(|&c| c == b'"');
                k = next_token(b, close.map_or(b.len(), |q| k + 2 + q));
            }
        }
        let end = if b.get(k) == Some(&b'{') {
            close_of(b, k)
        } else if find(b, b"fn", k) == Some(k) {
            let s = next_token(b, k + 2);
            if !b.get(s).is_some_and(|&c| ident(c)) {
                continue;
            }
            match item_end(b, s) {
                (end, Some(_)) => end,
                _ => continue,
            }
        } else {
            continue;
        };
        out.push((at, end));
        from = end;
    }
    out
}

/// The 1-based line of byte offset `at`.
pub fn line_of(code: &str, at: usize) -> usize {
    code.as_bytes()[..at]
        .iter()
        .filter(|&&c| c == b'\n')
        .count()
        + 1
}
