use super::*;

#[test]
fn the_scanner_reads_use_trees() {
    let at: ModPath = vec!["cli".into(), "syntax".into()];
    let got = paths(
        "use crate::a::{b, c::{d, e as f}, self};\nlet x = super::table::Opt::row();\n",
        &at,
    );
    let want: Vec<ModPath> = [
        &["a", "b"][..],
        &["a", "c", "d"],
        &["a", "c", "e"],
        &["a"],
        &["cli", "table", "Opt", "row"],
    ]
    .iter()
    .map(|p| p.iter().map(|s| s.to_string()).collect())
    .collect();
    assert_eq!(got, want);
    let group: Vec<String> = paths("use crate::{vocab, cli::{a, b}};", &[])
        .into_iter()
        .map(|p| p.join("::"))
        .collect();
    assert_eq!(group, ["vocab", "cli::a", "cli::b"]);
    let ext = extern_paths(
        "use imb_core::{kernel, report::{Header, Note}};",
        "imb_core",
    );
    assert_eq!(ext[1], ["report", "Header"]);
    let edges: Edges = [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")]
        .iter()
        .fold(Edges::new(), |mut m, (x, y)| {
            m.entry(x.to_string())
                .or_default()
                .insert(y.to_string(), Default::default());
            m
        });
    assert_eq!(circles(&edges), [["a", "b", "c"]]);
}

/// Comments, strings, chars and raw strings hide what they hold; lifetimes stay code.
#[test]
fn the_code_view_hides_comments_and_literals() {
    let src = "let a = \"crate::x { // \\\" }\"; // crate::y {\n\
               /* outer /* crate::z */ { */ let c = '{'; let d = '\\''; fn f<'a>(x: &'a u8) {}\n\
               let r = r#\"MPI_Send \" }\"#; let b = b'}'; let e = 'é';";
    let view = code_view(src);
    assert_eq!(view.len(), src.len());
    assert_eq!(view.lines().count(), src.lines().count());
    assert!(paths(&view, &[]).is_empty(), "{view}");
    assert!(!view.contains("MPI_"));
    let opens = view.matches('{').count();
    assert_eq!(opens, view.matches('}').count(), "{view}");
    assert_eq!(opens, 1, "{view}");
    assert!(view.contains("fn f<'a>(x: &'a u8) {}"));
}

/// Only the item after `#[cfg(test)]` goes, whatever it is, braces in it counted.
#[test]
fn the_items_after_cfg_test_are_cut() {
    let src = "use crate::a;\n#[cfg(test)]\nmod tests {\n    use crate::b;\n    fn f() { let s = \"}\"; }\n}\n\
               use crate::c;\n#[cfg(test)]\n#[allow(dead_code)]\nimpl X { fn g() -> [u8; 2] { [0; 2] } }\n\
               #[cfg(test)]\npub(crate) mod fixtures;\nuse crate::d;\n";
    let (code, mods) = strip_tests(&code_view(src));
    let got: Vec<String> = paths(&code, &[])
        .into_iter()
        .map(|p| p.join("::"))
        .collect();
    assert_eq!(got, ["a", "c", "d"]);
    assert_eq!(mods, ["fixtures"]);
    assert_eq!(code.lines().count(), src.lines().count());
}

#[test]
fn functions_and_unsafe_regions_are_found_by_their_braces() {
    let src = "type F = unsafe extern \"C\" fn(i32) -> i32;\n\
               unsafe impl Send for X {}\n\
               pub unsafe fn raw(x: [u8; 4]) -> i32 {\n    let s = \"{\";\n    ffi::MPI_Barrier(c)\n}\n\
               fn outer() {\n    let y = unsafe { libc::getpid() };\n    fn inner() {}\n}\n\
               trait T { fn decl(&self); }\n\
               unsafe extern \"C\" { fn MPI_Init() -> i32; }\n";
    let view = code_view(src);
    let fns: Vec<(String, usize)> = functions(&view)
        .into_iter()
        .map(|(n, at, end)| (n, line_of(&view, end - 1) - line_of(&view, at) + 1))
        .collect();
    let want = [("raw", 4), ("outer", 4), ("inner", 1)];
    assert_eq!(fns, want.map(|(n, l)| (n.to_string(), l)));
    let regions: Vec<&str> = unsafe_regions(&view)
        .into_iter()
        .map(|(s, e)| view[s..e].lines().next().unwrap())
        .collect();
    assert_eq!(
        regions,
        [
            "unsafe fn raw(x: [u8; 4]) -> i32 {",
            "unsafe { libc::getpid() }",
            "unsafe extern \"_\" { fn MPI_Init() -> i32; }"
        ]
    );
}

/// A rule about what the code spells sees string literals, still not comments nor tests.
#[test]
fn the_code_keeps_its_literals_on_demand() {
    let text = "let a = \"-dir\"; // \"-root_shift\"\n#[cfg(test)]\nconst T: &str = \"Uniband\";\nlet c = '\u{e9}';\n";
    let view = code_view(text);
    let file = File {
        rel: "src/x.rs".into(),
        text: text.into(),
        kind: Kind::Src,
        module: vec!["x".into()],
        code: strip_tests(&view).0,
        view,
    };
    let code = file.code_with_literals();
    assert!(
        code.contains("\"-dir\"") && code.contains("'\u{e9}'"),
        "{code}"
    );
    assert!(
        !code.contains("root_shift") && !code.contains("Uniband"),
        "{code}"
    );
}
